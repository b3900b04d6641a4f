//! What a command that failed reports: one line for stderr and its exit status.

/// A failure and the exit status it calls for: 1 for a failed operation, 2 for bad usage
/// (including unreadable or invalid input files).
#[derive(Debug, Clone)]
pub struct Failure {
    /// One line for stderr.
    pub message: String,
    /// The exit status.
    pub status: u8,
}

impl Failure {
    /// Bad usage or input: exit 2.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 2,
        }
    }

    /// A failed operation: exit 1.
    pub fn failed(message: impl Into<String>) -> Self {
        Failure {
            message: message.into(),
            status: 1,
        }
    }
}

//! Ids that become object path components.

use crate::LakeError;

/// Checks an id that becomes one path component.
pub(crate) fn check_id(what: &'static str, value: &str) -> Result<(), LakeError> {
    let reason = if value.is_empty() {
        Some("it is empty")
    } else if value == "." || value == ".." {
        Some("it is a relative directory name")
    } else if value.len() > 128 {
        Some("it is longer than 128 bytes")
    } else if !value
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"-_.:@=+~".contains(&b))
    {
        Some("it holds a character other than letters, digits and -_.:@=+~")
    } else {
        None
    };
    match reason {
        Some(reason) => Err(LakeError::InvalidId {
            what,
            value: value.to_owned(),
            reason,
        }),
        None => Ok(()),
    }
}

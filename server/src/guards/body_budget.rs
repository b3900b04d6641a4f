//! The budget of request bodies held in memory at once, over all requests
//! (`connections.maxBufferedBodyBytes`): a body reserves its size before it is read, and a
//! request that would pass the budget is a 503 at once instead of memory taken.

use crate::error::ApiError;

/// The budget of request bodies held in memory at once, over all requests, counted in KiB
/// (`connections.maxBufferedBodyBytes`).
#[derive(Clone)]
pub(crate) struct BodyBudget {
    kib: std::sync::Arc<tokio::sync::Semaphore>,
    total_kib: u32,
}

impl BodyBudget {
    /// A budget of `bytes` (at least 1 KiB).
    pub(crate) fn new(bytes: usize) -> Self {
        let total_kib = u32::try_from(bytes.div_ceil(1024))
            .unwrap_or(u32::MAX >> 4)
            .clamp(1, u32::MAX >> 4);
        BodyBudget {
            kib: std::sync::Arc::new(tokio::sync::Semaphore::new(total_kib as usize)),
            total_kib,
        }
    }

    /// Holds room for a body of `bytes` (a body larger than the whole budget holds all of it),
    /// or 503 at once when the budget is spent.
    pub(crate) fn reserve(
        &self,
        bytes: usize,
    ) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
        let kib = u32::try_from(bytes.div_ceil(1024))
            .unwrap_or(u32::MAX)
            .clamp(1, self.total_kib);
        std::sync::Arc::clone(&self.kib)
            .try_acquire_many_owned(kib)
            .map_err(|_| {
                ApiError::Overloaded(format!(
                    "the request bodies being received take the whole budget of {} KiB (connections.maxBufferedBodyBytes); retry shortly",
                    self.total_kib
                ))
            })
    }
}

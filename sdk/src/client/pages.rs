//! Listings a page at a time: every list method follows `nextCursor` until the last page, or
//! until it holds as many items as asked for (`docs/api.md`, "Pagination").

use serde::de::DeserializeOwned;

use super::{Call, Client, ClientError};
use crate::api::Items;

/// The service's default page size: a listing that wants fewer items than this asks for
/// exactly that many (`limit`); one that wants more leaves the page size to the service (whose
/// largest `limit` is a setting) and follows cursors.
pub const DEFAULT_PAGE_SIZE: usize = 100;

/// Pages fetched at most by one listing: a bound against a service that keeps answering with
/// cursors (a million items at the smallest useful page size of 1000 per page).
const MAX_PAGES: usize = 100_000;

impl Client {
    /// Every item of the listing `call` (following `nextCursor` from page to page), or its
    /// first `max_items` when given. A service that pages nothing (no `nextCursor`) answers in
    /// one request.
    pub(crate) async fn list_pages<T: DeserializeOwned>(
        &self,
        call: Call,
        max_items: Option<usize>,
    ) -> Result<Vec<T>, ClientError> {
        let mut items: Vec<T> = Vec::new();
        let mut cursor: Option<String> = None;
        for _ in 0..MAX_PAGES {
            let mut page_call = call.clone();
            if let Some(wanted) = max_items
                .map(|max| max.saturating_sub(items.len()).max(1))
                .filter(|wanted| *wanted < DEFAULT_PAGE_SIZE)
            {
                page_call = page_call.query("limit", wanted.to_string());
            }
            if let Some(cursor) = &cursor {
                page_call = page_call.query("cursor", cursor.clone());
            }
            let page: Items<T> = self.call(page_call).await?;
            let empty = page.items.is_empty();
            items.extend(page.items);
            if let Some(max) = max_items
                && items.len() >= max
            {
                items.truncate(max);
                return Ok(items);
            }
            match page.next_cursor {
                Some(next) if !empty && cursor.as_ref() != Some(&next) => cursor = Some(next),
                _ => return Ok(items),
            }
        }
        Err(ClientError::InvalidResponse {
            method: call.method.to_string(),
            path: call.path,
            status: 200,
            reason: format!("the listing still had more pages after {MAX_PAGES}"),
        })
    }
}

//! Listings a page at a time: every list method follows `nextCursor` (or, for a listing that
//! is a bare JSON array, the `Link: <…>; rel="next"` header) until the last page, or until it
//! holds as many items as asked for (`docs/api.md`, "Pagination").

use reqwest::Url;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::{Call, Client, ClientError};
use crate::api::Items;

/// A page of a listing answered as a bare array (`GET /v1/datasets`), or as `{items,
/// nextCursor?}` by a service from before the array.
#[derive(Deserialize)]
#[serde(untagged)]
enum ArrayPage<T> {
    Array(Vec<T>),
    Items(Items<T>),
}

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

    /// Every item of the listing `call`, answered as a bare JSON array page after page, each
    /// page's `Link: <…>; rel="next"` header giving the next one (relative to the page's
    /// address; only a link to the same origin and path is followed, so the token goes nowhere
    /// else); or its first `max_items` when given. A `{items, nextCursor}` answer is read too.
    pub(crate) async fn list_linked<T: DeserializeOwned>(
        &self,
        call: Call,
        max_items: Option<usize>,
    ) -> Result<Vec<T>, ClientError> {
        let invalid = |status: u16, reason: String| ClientError::InvalidResponse {
            method: call.method.to_string(),
            path: call.path.clone(),
            status,
            reason,
        };
        let mut first = call.clone();
        if let Some(max) = max_items.filter(|max| *max < DEFAULT_PAGE_SIZE) {
            first = first.query("limit", max.max(1).to_string());
        }
        let start = self.url(&first)?;
        let mut page_call = first;
        page_call.url = Some(start.clone());
        let mut items: Vec<T> = Vec::new();
        let mut seen: Vec<Url> = vec![start.clone()];
        for _ in 0..MAX_PAGES {
            let answer = self.answer(&page_call).await?;
            let status = answer.status;
            if !(200..300).contains(&status) {
                return Err(answer.into_error(&call.method, &call.path));
            }
            let page: ArrayPage<T> = serde_json::from_slice(&answer.body)
                .map_err(|e| invalid(status, format!("not a JSON array of items: {e}")))?;
            let here = page_call.url.clone().unwrap_or_else(|| start.clone());
            let (page_items, next) = match page {
                ArrayPage::Array(page_items) => {
                    let next = match answer.next_link.as_deref() {
                        Some(link) => Some(here.join(link).map_err(|e| {
                            invalid(
                                status,
                                format!("its Link header {link:?} is not a URL: {e}"),
                            )
                        })?),
                        None => None,
                    };
                    (page_items, next)
                }
                ArrayPage::Items(page) => {
                    let next = page.next_cursor.map(|cursor| {
                        let mut next = here.clone();
                        let pairs: Vec<(String, String)> = here
                            .query_pairs()
                            .filter(|(k, _)| k != "cursor")
                            .map(|(k, v)| (k.into_owned(), v.into_owned()))
                            .collect();
                        next.query_pairs_mut()
                            .clear()
                            .extend_pairs(pairs)
                            .append_pair("cursor", &cursor);
                        next
                    });
                    (page.items, next)
                }
            };
            let empty = page_items.is_empty();
            items.extend(page_items);
            if let Some(max) = max_items
                && items.len() >= max
            {
                items.truncate(max);
                return Ok(items);
            }
            let Some(next) = next.filter(|_| !empty) else {
                return Ok(items);
            };
            if next.origin() != start.origin() || next.path() != start.path() {
                return Err(invalid(
                    status,
                    format!(
                        "its next page is at {}, not at {} of this service: not followed",
                        super::http::bare(&next),
                        super::http::bare(&start)
                    ),
                ));
            }
            if seen.contains(&next) {
                return Ok(items);
            }
            seen.push(next.clone());
            page_call.url = Some(next);
        }
        Err(invalid(
            200,
            format!("the listing still had more pages after {MAX_PAGES}"),
        ))
    }
}

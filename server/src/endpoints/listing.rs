//! Pages of listings: the `limit` and `cursor` query parameters, the opaque cursor, and the
//! answer `{items, nextCursor?}` with its `Link: <…>; rel="next"` header — or, for a listing
//! the public client reads as a bare JSON array (`GET /v1/datasets`), the array with the same
//! header ([`answer_array`]).
//!
//! A cursor is the base64url text (no padding) of a small JSON object, the sort key of the last
//! item of the page it continues ([`PageKey`]) and the scope of the listing it belongs to (a
//! hash of the organization, the listing and its filters), followed by a checksum of it. A
//! cursor that does not decode, whose checksum does not match (altered), or that belongs to
//! another listing is a 400. Forging one grants nothing: every listing is scoped to the
//! caller's organization whatever the cursor says, and a key only says where a page starts.

use axum::Json;
use axum::http::{HeaderValue, Uri, header};
use axum::response::{IntoResponse, Response};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::body::QueryPairs;
use crate::error::ApiError;
use crate::guards::field_limits::FieldLimits;
use crate::model::Items;
use crate::store::{PageKey, PageRequest, Paged};

/// Bytes of checksum after the payload.
const CHECKSUM_BYTES: usize = 16;
/// Longest cursor text accepted (a real one is well under 200 characters).
const MAX_CURSOR_CHARS: usize = 1024;
/// What the checksum is computed over besides the payload, so that it is not a bare SHA-256.
const DOMAIN: &[u8] = b"jobgraph listing cursor v1\0";

/// Why a cursor is refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CursorError {
    /// Too long, not base64url, too short, or not the JSON a cursor holds.
    #[error("it is not a cursor this service issued ({0})")]
    Malformed(&'static str),
    /// The checksum does not match the content: the cursor was altered.
    #[error("its checksum does not match: it was altered or truncated")]
    Altered,
    /// A cursor of another listing (other organization, template or filters).
    #[error("it belongs to another listing (other filters, template or organization)")]
    OtherListing,
}

/// The cursor's content.
#[derive(Serialize, Deserialize)]
struct Payload {
    /// The listing's scope ([`scope`]).
    s: String,
    /// Where the next page starts.
    k: PageKey,
}

/// The scope of a listing: a short hash of what identifies it (organization, listing kind,
/// its filters), so that a cursor is refused by any other listing.
pub fn scope(parts: &[&str]) -> String {
    let mut hash = Sha256::new();
    for part in parts {
        hash.update((part.len() as u64).to_le_bytes());
        hash.update(part.as_bytes());
    }
    URL_SAFE_NO_PAD.encode(&hash.finalize()[..12])
}

fn checksum(payload: &[u8]) -> [u8; CHECKSUM_BYTES] {
    let digest = Sha256::new()
        .chain_update(DOMAIN)
        .chain_update(payload)
        .finalize();
    let mut out = [0; CHECKSUM_BYTES];
    out.copy_from_slice(&digest[..CHECKSUM_BYTES]);
    out
}

/// The cursor that continues `scope` after `key`.
pub fn encode_cursor(scope: &str, key: &PageKey) -> String {
    let payload = Payload {
        s: scope.to_owned(),
        k: key.clone(),
    };
    // A struct of strings and integers always serializes.
    let mut bytes = serde_json::to_vec(&payload).unwrap_or_default();
    let sum = checksum(&bytes);
    bytes.extend_from_slice(&sum);
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The key a cursor of `scope` continues after.
pub fn decode_cursor(scope: &str, text: &str) -> Result<PageKey, CursorError> {
    if text.len() > MAX_CURSOR_CHARS {
        return Err(CursorError::Malformed("too long"));
    }
    let bytes = URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|_| CursorError::Malformed("not base64url"))?;
    let split = bytes
        .len()
        .checked_sub(CHECKSUM_BYTES)
        .ok_or(CursorError::Malformed("too short"))?;
    let (payload, sum) = bytes.split_at(split);
    if checksum(payload) != sum {
        return Err(CursorError::Altered);
    }
    let payload: Payload =
        serde_json::from_slice(payload).map_err(|_| CursorError::Malformed("unreadable"))?;
    if payload.s != scope {
        return Err(CursorError::OtherListing);
    }
    Ok(payload.k)
}

/// The page a listing request asks for: `limit` (default and maximum from `limits`) and
/// `cursor` (of the listing `scope`); a 400 naming the parameter otherwise.
pub fn page_request(
    query: &QueryPairs,
    limits: &FieldLimits,
    scope: &str,
) -> Result<PageRequest, ApiError> {
    page_request_or(query, limits, scope, limits.default_page_size)
}

/// [`page_request`] with `default` items per page when the request gives no `limit` (at most
/// the largest page).
pub fn page_request_or(
    query: &QueryPairs,
    limits: &FieldLimits,
    scope: &str,
    default: usize,
) -> Result<PageRequest, ApiError> {
    let max = limits.max_page_size.max(1);
    let limit = match query.positive("limit")? {
        None => default.clamp(1, max),
        Some(n) => usize::try_from(n)
            .ok()
            .filter(|n| *n <= max)
            .ok_or_else(|| {
                ApiError::BadRequest(format!(
                    "query parameter `limit` is {n}, over the largest page of {max} items: ask for at most {max} and follow `nextCursor` (or the `Link` header)"
                ))
            })?,
    };
    let after = match query.single("cursor")? {
        // An empty cursor is no cursor: the first page (`?cursor=` from a template URL).
        None | Some("") => None,
        Some(text) => Some(decode_cursor(scope, text).map_err(|e| {
            ApiError::BadRequest(format!(
                "query parameter `cursor` is invalid: {e}; pass the `nextCursor` of the previous page unchanged (or follow its `Link` header), with the same filters, or leave it out to start from the first page"
            ))
        })?),
    };
    Ok(PageRequest {
        after,
        limit,
        max_bytes: limits.max_page_bytes,
    })
}

/// The answer of a listing: `{items, nextCursor?}` and, when more follow, a `Link` header to
/// the next page (the request's path and query with `cursor` replaced).
pub fn answer<R, T: Serialize>(
    uri: &Uri,
    scope: &str,
    page: Paged<R>,
    key: impl Fn(&R) -> PageKey,
    view: impl Fn(R) -> T,
) -> Response {
    let next_cursor = next_cursor(scope, &page, key);
    let link = next_cursor
        .as_deref()
        .and_then(|cursor| next_link(uri, cursor));
    let items = Items {
        items: page.items.into_iter().map(view).collect(),
        next_cursor,
    };
    with_link(Json(items).into_response(), link)
}

/// The answer of a listing as a bare JSON array (what the public client reads of
/// `GET /v1/datasets`) and, when more follow, the `Link: <…>; rel="next"` header: the only
/// way to the next page, whose `cursor` is in the link.
///
/// ```text
/// GET /v1/datasets?limit=2            → [{…}, {…}]   Link: </v1/datasets?limit=2&cursor=…>; rel="next"
/// GET /v1/datasets?limit=2&cursor=…   → [{…}]        (no Link: the last page)
/// ```
pub fn answer_array<R, T: Serialize>(
    uri: &Uri,
    scope: &str,
    page: Paged<R>,
    key: impl Fn(&R) -> PageKey,
    view: impl Fn(R) -> T,
) -> Response {
    let link = next_cursor(scope, &page, key)
        .as_deref()
        .and_then(|cursor| next_link(uri, cursor));
    let items: Vec<T> = page.items.into_iter().map(view).collect();
    with_link(Json(items).into_response(), link)
}

/// The cursor of the page after `page`, when more follow.
fn next_cursor<R>(scope: &str, page: &Paged<R>, key: impl Fn(&R) -> PageKey) -> Option<String> {
    if !page.more {
        return None;
    }
    page.items
        .last()
        .map(|last| encode_cursor(scope, &key(last)))
}

fn with_link(mut response: Response, link: Option<HeaderValue>) -> Response {
    if let Some(link) = link {
        response.headers_mut().insert(header::LINK, link);
    }
    response
}

/// `<path?query with cursor=…>; rel="next"`.
fn next_link(uri: &Uri, cursor: &str) -> Option<HeaderValue> {
    let mut pairs: Vec<(String, String)> = QueryPairs::parse(uri.query()).ok()?.0;
    pairs.retain(|(k, _)| k != "cursor");
    pairs.push(("cursor".into(), cursor.into()));
    let query = serde_urlencoded::to_string(&pairs).ok()?;
    HeaderValue::from_str(&format!("<{}?{query}>; rel=\"next\"", uri.path())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> PageKey {
        PageKey {
            created_at_ms: 1_700_000_000_123,
            id: "AbCdEfGhIjKlMnOp".into(),
            version: 7,
            file: None,
        }
    }

    #[test]
    fn a_cursor_decodes_to_the_key_it_was_made_from() {
        let scope = scope(&["acme", "jobs"]);
        let cursor = encode_cursor(&scope, &key());
        assert!(
            cursor
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        );
        assert_eq!(decode_cursor(&scope, &cursor), Ok(key()));
    }

    #[test]
    fn an_altered_truncated_or_foreign_cursor_is_refused() {
        let scope = scope(&["acme", "jobs"]);
        let cursor = encode_cursor(&scope, &key());
        // Every single-character change is caught (the checksum, or base64 itself).
        for i in 0..cursor.len() {
            let mut bytes = cursor.clone().into_bytes();
            bytes[i] = if bytes[i] == b'A' { b'B' } else { b'A' };
            let altered = String::from_utf8(bytes).unwrap();
            assert!(decode_cursor(&scope, &altered).is_err(), "position {i}");
        }
        assert_eq!(
            decode_cursor(&scope, &cursor[..cursor.len() - 4]),
            Err(CursorError::Altered)
        );
        assert_eq!(
            decode_cursor(&scope, "not a cursor!"),
            Err(CursorError::Malformed("not base64url"))
        );
        assert_eq!(
            decode_cursor(&scope, "AAAA"),
            Err(CursorError::Malformed("too short"))
        );
        assert_eq!(
            decode_cursor(&scope, &"A".repeat(2000)),
            Err(CursorError::Malformed("too long"))
        );
        let other = scope_of_other();
        assert_eq!(
            decode_cursor(&other, &cursor),
            Err(CursorError::OtherListing)
        );
    }

    fn scope_of_other() -> String {
        scope(&["acme", "templates"])
    }

    #[test]
    fn the_next_link_keeps_the_filters_and_replaces_the_cursor() {
        let uri: Uri = "/v1/jobs?state=A&state=B&cursor=old&limit=5"
            .parse()
            .unwrap();
        let link = next_link(&uri, "new").unwrap();
        assert_eq!(
            link.to_str().unwrap(),
            "</v1/jobs?state=A&state=B&limit=5&cursor=new>; rel=\"next\""
        );
    }
}

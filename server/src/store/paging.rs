//! Pages of listings as the stores read them: where a page starts ([`PageKey`]), how large it
//! may be ([`PageRequest`]), what it holds ([`Paged`]), and the filling of a page row by row.

use serde::{Deserialize, Serialize};

use super::{FileKey, JobRecord, TemplateRecord};

/// Where a page of a listing starts: strictly after this sort key. Each listing compares the
/// part of it that orders it: templates `(created_at_ms, id)`, one template's versions
/// `version`, jobs `(created_at_ms, id, version)`, datasets `(created_at_ms, id)`, a
/// dataset's files [`file`](Self::file) alone.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct PageKey {
    /// When the template or job was created (version 1), ms since the epoch.
    #[serde(rename = "c")]
    pub created_at_ms: i64,
    /// Its id.
    #[serde(rename = "i")]
    pub id: String,
    /// The version.
    #[serde(rename = "v")]
    pub version: u64,
    /// The key of a dataset's committed file (`None` in every other listing, and then absent
    /// from the cursor, so that the cursors of the other listings are unchanged).
    #[serde(rename = "f", default, skip_serializing_if = "Option::is_none")]
    pub file: Option<FileKey>,
}

/// Which page of a listing to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRequest {
    /// Start after this key (`None`: from the first item).
    pub after: Option<PageKey>,
    /// At most this many items (at least one is always asked for).
    pub limit: usize,
    /// Stop before the item that would bring the page's stored size past this many bytes
    /// (the first item is always taken).
    pub max_bytes: usize,
}

/// One page of a listing.
#[derive(Debug, Clone, PartialEq)]
pub struct Paged<T> {
    /// The items, in the listing's order.
    pub items: Vec<T>,
    /// Whether more items follow the last one.
    pub more: bool,
}

impl PageRequest {
    /// What the SQL `LIMIT` asks for: one item more than the page, to know whether more follow.
    pub(crate) fn fetch(&self) -> i64 {
        i64::try_from(self.limit.max(1)).map_or(i64::MAX, |n| n.saturating_add(1))
    }
}

/// A page being filled row by row, as a store reads its rows (none past the one that shows more
/// follow).
pub(crate) struct PageFill<'a, T> {
    request: &'a PageRequest,
    items: Vec<T>,
    bytes: usize,
    more: bool,
}

impl<'a, T> PageFill<'a, T> {
    pub(crate) fn new(request: &'a PageRequest) -> Self {
        PageFill {
            request,
            items: Vec::new(),
            bytes: 0,
            more: false,
        }
    }

    /// Adds a row; `false` once the page is full (then no more rows need reading).
    pub(crate) fn push(&mut self, (item, size): (T, usize)) -> bool {
        let bytes = self.bytes.saturating_add(size);
        if self.items.len() >= self.request.limit.max(1)
            || (!self.items.is_empty() && bytes > self.request.max_bytes)
        {
            self.more = true;
            return false;
        }
        self.items.push(item);
        self.bytes = bytes;
        true
    }

    pub(crate) fn done(self) -> Paged<T> {
        Paged {
            items: self.items,
            more: self.more,
        }
    }
}

impl TemplateRecord {
    /// This version's key in a listing of templates or of one template's versions.
    pub fn page_key(&self) -> PageKey {
        PageKey {
            created_at_ms: self.created_at_ms,
            id: self.id.clone(),
            version: self.version,
            file: None,
        }
    }
}

impl JobRecord {
    /// This version's key in a listing of jobs.
    pub fn page_key(&self) -> PageKey {
        PageKey {
            created_at_ms: self.created_at_ms,
            id: self.id.clone(),
            version: self.version,
            file: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take(limit: usize, max_bytes: usize, sizes: &[usize]) -> (Vec<usize>, bool, usize) {
        let request = PageRequest {
            after: None,
            limit,
            max_bytes,
        };
        let mut read = 0;
        let mut fill = PageFill::new(&request);
        for (i, size) in sizes.iter().enumerate() {
            read += 1;
            if !fill.push((i, *size)) {
                break;
            }
        }
        let page = fill.done();
        (page.items, page.more, read)
    }

    #[test]
    fn a_page_ends_at_its_limit_or_its_byte_budget_and_reads_one_row_past_it() {
        // The limit: three items, the fourth row read only to learn that more follow.
        assert_eq!(take(3, 1000, &[1, 1, 1, 1, 1, 1]), (vec![0, 1, 2], true, 4));
        // Exactly the limit and nothing after: no more.
        assert_eq!(take(3, 1000, &[1, 1, 1]), (vec![0, 1, 2], false, 3));
        // The byte budget: 40 + 40 fit 100, the third (40) would not.
        assert_eq!(take(10, 100, &[40, 40, 40, 40]), (vec![0, 1], true, 3));
        // The first item is always taken, however large.
        assert_eq!(take(10, 100, &[500, 1]), (vec![0], true, 2));
        assert_eq!(take(10, 100, &[]), (vec![], false, 0));
    }
}

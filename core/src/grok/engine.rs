//! How grok calls regress, the same way natively and in WebAssembly (so both give the same
//! bytes): patterns compiled from code points like boa's `RegExp` does, lines searched as UTF-16
//! code units with the UCS-2 matcher (boa's non-`u` path). Reusing boa's instantiations of
//! regress's generic parser and matcher keeps the WebAssembly module small (the UTF-8 matcher
//! alone is ~250 KB gzip there). Without the `u` flag an astral character (an emoji) is two
//! units: `.` matches half of it, and a capture that would split one sets nothing.

use std::ops::Range;

use boa_engine::string::CodePoint;
use regress::{Error, Flags, Match, Regex};

/// Compiles `pattern` (ECMAScript syntax, no flags).
pub(super) fn compile(pattern: &str) -> Result<Regex, Error> {
    let pattern = boa_engine::JsString::from(pattern);
    Regex::from_unicode(
        pattern.code_points().map(CodePoint::as_u32),
        Flags::default(),
    )
}

/// A line ready to be searched.
pub(super) struct Subject<'a> {
    text: &'a str,
    units: Vec<u16>,
    /// Byte offset of each code unit (and of the end), `usize::MAX` inside a surrogate pair;
    /// empty when the line is ASCII (units and bytes coincide).
    offsets: Vec<usize>,
}

impl<'a> Subject<'a> {
    /// Encodes `text` once for all the rules.
    pub(super) fn new(text: &'a str) -> Self {
        let units: Vec<u16> = text.encode_utf16().collect();
        let mut offsets = Vec::new();
        if units.len() != text.len() {
            offsets.reserve(units.len() + 1);
            for (at, c) in text.char_indices() {
                offsets.push(at);
                if c.len_utf16() == 2 {
                    offsets.push(usize::MAX);
                }
            }
            offsets.push(text.len());
        }
        Subject {
            text,
            units,
            offsets,
        }
    }

    /// The first match of `regex` (anchored rules: the only one).
    pub(super) fn find(&self, regex: &Regex) -> Option<Match> {
        regex.find_from_ucs2(&self.units, 0).next()
    }

    /// The text of a match's code-unit range, `None` when it splits a character.
    pub(super) fn slice(&self, range: Range<usize>) -> Option<&'a str> {
        if self.offsets.is_empty() {
            return self.text.get(range);
        }
        let start = *self.offsets.get(range.start)?;
        let end = *self.offsets.get(range.end)?;
        if start == usize::MAX || end == usize::MAX {
            return None;
        }
        self.text.get(start..end)
    }
}

//! The index: documents, their sections, and for each term the sections it occurs in (with
//! its counts in their bodies and titles); its compact binary encoding ([`Builder::encode`])
//! and its decoding ([`Index::decode`]), which borrows every string from the encoded bytes.

use std::collections::BTreeMap;

use crate::tokenize::Tokenizer;

/// What a document is, from its URI's scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A Markdown page of the reference (`doc://<path>`).
    Doc,
    /// An operation of the API (`api://<operationId>`).
    Api,
    /// A schema of the API (`schema://<Name>`).
    Schema,
}

impl Kind {
    fn code(self) -> u8 {
        match self {
            Kind::Doc => 0,
            Kind::Api => 1,
            Kind::Schema => 2,
        }
    }

    fn from_code(code: u8) -> Option<Kind> {
        match code {
            0 => Some(Kind::Doc),
            1 => Some(Kind::Api),
            2 => Some(Kind::Schema),
            _ => None,
        }
    }
}

/// A section of a document: a heading and what follows it up to the next heading.
#[derive(Debug, Clone)]
pub struct Section<'a> {
    /// The heading's text (the document's title for text before any heading).
    pub title: &'a str,
    /// The byte range of the section (heading line included) in the document's Markdown.
    pub range: std::ops::Range<usize>,
    /// Terms in its body.
    pub body_len: u32,
    /// Terms in its title.
    pub title_len: u32,
}

/// A document of the index.
#[derive(Debug, Clone)]
pub struct Document<'a> {
    /// `doc://…`, `api://…` or `schema://…`.
    pub uri: &'a str,
    /// What it is.
    pub kind: Kind,
    /// Its title (first heading).
    pub title: &'a str,
    /// Its whole Markdown (rendered, for operations and schemas).
    pub markdown: &'a str,
    /// Its sections, in order.
    pub sections: Vec<Section<'a>>,
}

/// One section a term occurs in.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Posting {
    /// The section's number over the whole index (documents' sections in order).
    pub section: u32,
    /// Occurrences in its body.
    pub body_tf: u32,
    /// Occurrences in its title.
    pub title_tf: u32,
}

/// A decoded index, borrowing its strings from the encoded bytes.
#[derive(Debug)]
pub struct Index<'a> {
    /// Every document, in the order they were added.
    pub docs: Vec<Document<'a>>,
    /// For each section number, its document and its position in that document.
    pub(crate) sections: Vec<(u32, u32)>,
    /// Terms, sorted, with their postings (by section number).
    pub(crate) terms: Vec<(&'a str, Vec<Posting>)>,
}

/// Encoded bytes that are not an index of this version.
#[derive(Debug)]
pub struct DecodeError(&'static str);

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the embedded reference index is corrupt ({}): rebuild jobgraph",
            self.0
        )
    }
}

impl std::error::Error for DecodeError {}

const MAGIC: &[u8] = b"JGDX\x01";

/// A section being built.
struct BuiltSection {
    title: String,
    start: usize,
    end: usize,
    body_len: u32,
    title_len: u32,
}

/// Collects documents, splits them into sections and counts their terms; then encodes.
#[derive(Default)]
pub struct Builder {
    tokenizer: Tokenizer,
    docs: Vec<(String, Kind, String, String, Vec<BuiltSection>)>,
    terms: BTreeMap<String, Vec<Posting>>,
    sections: u32,
}

impl Builder {
    /// Adds a Markdown document, split into sections at every ATX heading (`#` … `######`)
    /// outside fenced code blocks. Its title is its first heading, else its URI.
    pub fn add_markdown(&mut self, uri: &str, kind: Kind, markdown: &str) {
        let mut headings = Vec::new(); // (start, heading text)
        let mut fence: Option<&str> = None;
        let mut offset = 0;
        for line in markdown.split_inclusive('\n') {
            let trimmed = line.trim_start();
            if let Some(open) = fence {
                if trimmed.starts_with(open) {
                    fence = None;
                }
            } else if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
                fence = Some(&trimmed[..3]);
            } else if let Some(text) = heading(line) {
                headings.push((offset, text.to_owned()));
            }
            offset += line.len();
        }
        let title = headings
            .first()
            .map_or_else(|| uri.to_owned(), |(_, t)| t.clone());
        let mut bounds = Vec::new();
        if headings
            .first()
            .is_none_or(|(start, _)| *start > 0 && !markdown[..*start].trim().is_empty())
        {
            bounds.push((0, title.clone()));
        }
        bounds.extend(headings);
        let mut sections = Vec::new();
        for (i, (start, heading)) in bounds.iter().enumerate() {
            let end = bounds.get(i + 1).map_or(markdown.len(), |(s, _)| *s);
            let text = &markdown[*start..end];
            // The body: the section without its heading line.
            let body = if text.trim_start().starts_with('#') {
                text.split_once('\n').map_or("", |(_, rest)| rest)
            } else {
                text
            };
            let number = self.sections;
            self.sections += 1;
            let mut counts: BTreeMap<String, (u32, u32)> = BTreeMap::new();
            let mut body_len = 0;
            self.tokenizer.for_each(body, |t| {
                body_len += 1;
                counts.entry(t).or_default().0 += 1;
            });
            let mut title_len = 0;
            self.tokenizer.for_each(heading, |t| {
                title_len += 1;
                counts.entry(t).or_default().1 += 1;
            });
            for (term, (body_tf, title_tf)) in counts {
                self.terms.entry(term).or_default().push(Posting {
                    section: number,
                    body_tf,
                    title_tf,
                });
            }
            sections.push(BuiltSection {
                title: heading.clone(),
                start: *start,
                end,
                body_len,
                title_len,
            });
        }
        self.docs
            .push((uri.to_owned(), kind, title, markdown.to_owned(), sections));
    }

    /// The index's bytes, for [`Index::decode`].
    pub fn encode(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        put(&mut out, self.docs.len() as u64);
        for (uri, kind, title, markdown, sections) in &self.docs {
            out.push(kind.code());
            put_str(&mut out, uri);
            put_str(&mut out, title);
            put_str(&mut out, markdown);
            put(&mut out, sections.len() as u64);
            for s in sections {
                put_str(&mut out, &s.title);
                put(&mut out, s.start as u64);
                put(&mut out, s.end as u64);
                put(&mut out, u64::from(s.body_len));
                put(&mut out, u64::from(s.title_len));
            }
        }
        put(&mut out, self.terms.len() as u64);
        for (term, postings) in &self.terms {
            put_str(&mut out, term);
            put(&mut out, postings.len() as u64);
            let mut previous = 0;
            for p in postings {
                put(&mut out, u64::from(p.section - previous));
                previous = p.section;
                put(&mut out, u64::from(p.body_tf));
                put(&mut out, u64::from(p.title_tf));
            }
        }
        out
    }
}

/// The text of an ATX heading line (`## Title ##` → `Title`).
fn heading(line: &str) -> Option<&str> {
    let line = line.trim_end();
    let hashes = line.bytes().take_while(|b| *b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    let rest = &line[hashes..];
    if !rest.is_empty() && !rest.starts_with(' ') {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim_end())
}

fn put(out: &mut Vec<u8>, mut n: u64) {
    loop {
        let byte = (n & 0x7f) as u8;
        n >>= 7;
        if n == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn put_str(out: &mut Vec<u8>, s: &str) {
    put(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

/// Reads the encoding back.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn byte(&mut self) -> Result<u8, DecodeError> {
        let b = *self.bytes.get(self.at).ok_or(DecodeError("truncated"))?;
        self.at += 1;
        Ok(b)
    }

    fn num(&mut self) -> Result<u64, DecodeError> {
        let mut n = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            n |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(n);
            }
        }
        Err(DecodeError("number too long"))
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        u32::try_from(self.num()?).map_err(|_| DecodeError("number out of range"))
    }

    fn str(&mut self) -> Result<&'a str, DecodeError> {
        let len = usize::try_from(self.num()?).map_err(|_| DecodeError("length"))?;
        let end = self
            .at
            .checked_add(len)
            .filter(|end| *end <= self.bytes.len())
            .ok_or(DecodeError("truncated string"))?;
        let s = std::str::from_utf8(&self.bytes[self.at..end])
            .map_err(|_| DecodeError("string not UTF-8"))?;
        self.at = end;
        Ok(s)
    }
}

impl<'a> Index<'a> {
    /// Decodes what [`Builder::encode`] wrote.
    pub fn decode(bytes: &'a [u8]) -> Result<Index<'a>, DecodeError> {
        let body = bytes
            .strip_prefix(MAGIC)
            .ok_or(DecodeError("unknown format"))?;
        let mut r = Reader { bytes: body, at: 0 };
        let n_docs = r.u32()?;
        let mut docs = Vec::with_capacity(n_docs.min(1 << 16) as usize);
        let mut sections = Vec::new();
        for d in 0..n_docs {
            let kind = Kind::from_code(r.byte()?).ok_or(DecodeError("document kind"))?;
            let uri = r.str()?;
            let title = r.str()?;
            let markdown = r.str()?;
            let n = r.u32()?;
            let mut list = Vec::with_capacity(n.min(1 << 16) as usize);
            for s in 0..n {
                let title = r.str()?;
                let start = r.u32()? as usize;
                let end = r.u32()? as usize;
                if start > end
                    || !markdown.is_char_boundary(start)
                    || !markdown.is_char_boundary(end)
                {
                    return Err(DecodeError("section range"));
                }
                list.push(Section {
                    title,
                    range: start..end,
                    body_len: r.u32()?,
                    title_len: r.u32()?,
                });
                sections.push((d, s));
            }
            docs.push(Document {
                uri,
                kind,
                title,
                markdown,
                sections: list,
            });
        }
        let n_terms = r.u32()?;
        let mut terms = Vec::with_capacity(n_terms.min(1 << 20) as usize);
        for _ in 0..n_terms {
            let term = r.str()?;
            let n = r.u32()?;
            let mut postings = Vec::with_capacity(n.min(1 << 20) as usize);
            let mut section = 0u32;
            for _ in 0..n {
                section = section
                    .checked_add(r.u32()?)
                    .filter(|s| (*s as usize) < sections.len())
                    .ok_or(DecodeError("posting section"))?;
                postings.push(Posting {
                    section,
                    body_tf: r.u32()?,
                    title_tf: r.u32()?,
                });
            }
            terms.push((term, postings));
        }
        Ok(Index {
            docs,
            sections,
            terms,
        })
    }

    /// The document of `uri`, if any.
    pub fn get(&self, uri: &str) -> Option<&Document<'a>> {
        self.docs.iter().find(|d| d.uri == uri)
    }
}

//! Ranking: BM25 (k1 1.2, b 0.75) over sections, a term in a section's title counting
//! [`TITLE_WEIGHT`] times one in its body; a document scores its best section plus a fraction
//! of its next two, so that a page about the subject beats a page that mentions it once.

use crate::index::{Document, Index, Kind};
use crate::tokenize::Tokenizer;

/// BM25's term-frequency saturation.
const K1: f32 = 1.2;
/// BM25's length normalization.
const B: f32 = 0.75;
/// How much more a term in a section's heading counts than one in its text.
pub const TITLE_WEIGHT: f32 = 3.0;
/// Weights of a document's best, second and third sections in its score.
const SECTION_WEIGHTS: [f32; 3] = [1.0, 0.25, 0.1];

/// A document's score, number, and its best sections' (score, number).
type RankedDoc = (f32, usize, Vec<(f32, u32)>);

/// What to search and how much to return.
#[derive(Debug, Clone)]
pub struct SearchOptions {
    /// Documents at most.
    pub limit: usize,
    /// Only documents of this kind (`None`: all).
    pub kind: Option<Kind>,
    /// Characters of each section's preview (then `…`).
    pub preview: usize,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            limit: 5,
            kind: Some(Kind::Doc),
            preview: 400,
        }
    }
}

/// A matching section of a document.
#[derive(Debug, Clone, PartialEq)]
pub struct SectionHit {
    /// Its heading.
    pub title: String,
    /// The start of its text, whitespace collapsed, cut at the preview length.
    pub preview: String,
    /// Its own score.
    pub score: f32,
}

/// A matching document.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    /// Its URI.
    pub uri: String,
    /// Its title.
    pub title: String,
    /// Its score (higher is better).
    pub score: f32,
    /// Its best sections (at most three), best first.
    pub sections: Vec<SectionHit>,
}

impl Index<'_> {
    /// The documents that best match `query`, best first (none when no term matches).
    pub fn search(&self, query: &str, options: &SearchOptions) -> Vec<Hit> {
        let tokenizer = Tokenizer::default();
        let mut terms = tokenizer.terms(query);
        terms.sort();
        terms.dedup();
        let n = self.sections.len() as f32;
        if n == 0.0 || terms.is_empty() {
            return Vec::new();
        }
        let avg_len = self
            .sections
            .iter()
            .map(|&(d, s)| self.length(d, s))
            .sum::<f32>()
            / n;
        let mut scores = vec![0f32; self.sections.len()];
        for term in &terms {
            let Ok(at) = self.terms.binary_search_by(|(t, _)| (*t).cmp(term)) else {
                continue;
            };
            let postings = &self.terms[at].1;
            let df = postings.len() as f32;
            let idf = (1.0 + (n - df + 0.5) / (df + 0.5)).ln();
            for p in postings {
                let (d, s) = self.sections[p.section as usize];
                if options
                    .kind
                    .is_some_and(|k| self.docs[d as usize].kind != k)
                {
                    continue;
                }
                let tf = p.body_tf as f32 + TITLE_WEIGHT * p.title_tf as f32;
                let norm = K1 * (1.0 - B + B * self.length(d, s) / avg_len.max(1.0));
                scores[p.section as usize] += idf * tf * (K1 + 1.0) / (tf + norm);
            }
        }
        // Per document: its sections' scores, best first.
        let mut per_doc: Vec<Vec<(f32, u32)>> = vec![Vec::new(); self.docs.len()];
        for (number, score) in scores.iter().enumerate() {
            if *score > 0.0 {
                let (d, s) = self.sections[number];
                per_doc[d as usize].push((*score, s));
            }
        }
        let mut hits: Vec<RankedDoc> = per_doc
            .into_iter()
            .enumerate()
            .filter(|(_, sections)| !sections.is_empty())
            .map(|(d, mut sections)| {
                sections.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                sections.truncate(SECTION_WEIGHTS.len());
                let score = sections
                    .iter()
                    .zip(SECTION_WEIGHTS)
                    .map(|((s, _), w)| s * w)
                    .sum();
                (score, d, sections)
            })
            .collect();
        hits.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        hits.truncate(options.limit);
        hits.into_iter()
            .map(|(score, d, sections)| {
                let doc = &self.docs[d];
                Hit {
                    uri: doc.uri.to_owned(),
                    title: doc.title.to_owned(),
                    score,
                    sections: sections
                        .into_iter()
                        .map(|(score, s)| SectionHit {
                            title: doc.sections[s as usize].title.to_owned(),
                            preview: preview(section_body(doc, s as usize), options.preview),
                            score,
                        })
                        .collect(),
                }
            })
            .collect()
    }

    /// A section's length for BM25: its body's terms plus its title's, weighted.
    fn length(&self, d: u32, s: u32) -> f32 {
        let section = &self.docs[d as usize].sections[s as usize];
        section.body_len as f32 + TITLE_WEIGHT * section.title_len as f32
    }

    /// The URIs closest to `uri` (edit distance, then name), at most `n`: suggestions for a
    /// URI that is not in the index.
    pub fn nearest(&self, uri: &str, n: usize) -> Vec<&str> {
        let wanted = uri.to_lowercase();
        let mut ranked: Vec<(usize, &str)> = self
            .docs
            .iter()
            .map(|d| {
                let candidate = d.uri.to_lowercase();
                // A prefix or part of the URI is as good as the best edit.
                let distance = if candidate.contains(&wanted) || wanted.contains(&candidate) {
                    0
                } else {
                    levenshtein(&wanted, &candidate)
                };
                (distance, d.uri)
            })
            .collect();
        ranked.sort();
        let limit = (wanted.chars().count() / 2).max(3);
        ranked
            .into_iter()
            .filter(|(distance, _)| *distance <= limit)
            .take(n)
            .map(|(_, uri)| uri)
            .collect()
    }
}

/// A section's text without its heading line.
fn section_body<'a>(doc: &Document<'a>, s: usize) -> &'a str {
    let text = &doc.markdown[doc.sections[s].range.clone()];
    if text.trim_start().starts_with('#') {
        text.split_once('\n').map_or("", |(_, rest)| rest)
    } else {
        text
    }
}

/// `text` with its whitespace collapsed, cut after `chars` characters (on a character
/// boundary) with `…` when longer.
pub fn preview(text: &str, chars: usize) -> String {
    let mut out = String::new();
    let mut count = 0;
    for word in text.split_whitespace() {
        let separator = (!out.is_empty()).then_some(' ');
        for c in separator.into_iter().chain(word.chars()) {
            if count == chars {
                out.push('…');
                return out;
            }
            out.push(c);
            count += 1;
        }
    }
    out
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (above + 1)
                .min(row[j] + 1)
                .min(diagonal + usize::from(ca != *cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::{levenshtein, preview};

    #[test]
    fn preview_cuts_on_a_character_boundary() {
        assert_eq!(preview("héllo   wörld", 7), "héllo w…");
        assert_eq!(preview("héllo wörld", 11), "héllo wörld");
        assert_eq!(preview("a\n\nb", 0), "…");
    }

    #[test]
    fn edit_distance() {
        assert_eq!(levenshtein("kitten", "sitting"), 3);
        assert_eq!(levenshtein("", "ab"), 2);
    }
}

//! Pattern discovery: a streaming clustering of token sequences after Drain (He et al., "Drain:
//! An Online Log Parsing Approach with Fixed Depth Tree", ICWS 2017), the common baseline of log
//! parsing, chosen for being one pass, deterministic and fast (`docs/pipeline.md`, "How
//! patterns are found").
//!
//! A message's tokens are looked up by partition, token count and first token (Drain's fixed
//! depth tree with depth 3; a first token with a digit in it, or a masked one, goes under `*`,
//! and so does any first token past 100 distinct ones for the same count). Among the patterns
//! under its first token and under `*`, the most similar wins if its share of equal positions
//! (a wildcard position counts as different, as in Drain) reaches the similarity threshold;
//! the positions that differ become wildcards (`<*>`). Otherwise the message starts a pattern
//! of its own. So messages whose first words differ never share a pattern ("Accepted password
//! for …", "Failed password for …") however similar the rest, while a variable second word
//! ("user alice logged in", "user bob …") still joins. Searching every pattern of the same
//! length instead scored 0.739 on Loghub's labelled sets, the first word's branch 0.776, the
//! first two words' (Drain's default depth 4) 0.783 but kept "user alice …" and "user bob …"
//! apart (bench/RESULTS.md, "Log reduction").
//!
//! A pattern's id is fixed when it is made: the first 16 hexadecimal digits of the SHA-256 of
//! its partition and its first text, so the same events give the same ids on every platform
//! and in every run.

use rustc_hash::FxHashMap;
use sha2::{Digest, Sha256};

use super::mask::Span;
use super::tokens::{Token, WILDCARD, masked_text};

/// How many distinct first tokens a (partition, token count) branch holds before new ones go
/// under `*` (Drain's `maxChild`).
const MAX_CHILDREN: u32 = 100;

/// A piece of a pattern's text: literal text, or the token at a position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
enum Piece {
    Literal(Box<str>),
    Slot(u32),
}

/// A pattern: a token sequence with wildcards.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Pattern {
    /// Its stable id (16 hexadecimal digits).
    pub id: String,
    /// The partition it belongs to.
    pub partition: u32,
    /// Each position's token hash, or [`WILDCARD`].
    template: Vec<u64>,
    /// Each position's token text as first seen (a mask's token for a masked one).
    texts: Vec<Box<str>>,
    /// The text's layout, from the first message.
    layout: Vec<Piece>,
    /// Events matched so far, all windows.
    pub count: u64,
}

impl Pattern {
    /// Its text: the first message's layout, each position's token or `<*>`.
    pub(crate) fn text(&self) -> String {
        let mut out = String::new();
        for piece in &self.layout {
            match piece {
                Piece::Literal(text) => out.push_str(text),
                Piece::Slot(i) => {
                    let i = *i as usize;
                    if self.template[i] == WILDCARD {
                        out.push_str("<*>");
                    } else {
                        out.push_str(&self.texts[i]);
                    }
                }
            }
        }
        out
    }
}

/// A message as the miner reads it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Message<'a> {
    /// Its partition and the partition's text (for a new pattern's id).
    pub partition: u32,
    pub partition_key: &'a str,
    /// Its text, its tokens (non-empty) and its masked spans.
    pub text: &'a str,
    pub tokens: &'a [Token],
    pub spans: &'a [Span],
    /// Mask `i`'s token text, `<number>` (for a new pattern's text).
    pub mask_tokens: &'a [String],
}

/// What [`Miner::add`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Found {
    /// An existing pattern took the message.
    Joined(u32),
    /// A new pattern was made.
    New(u32),
    /// No pattern: the limit of patterns is reached.
    Full,
}

impl Found {
    pub(crate) fn pattern(self) -> Option<u32> {
        match self {
            Found::Joined(p) | Found::New(p) => Some(p),
            Found::Full => None,
        }
    }
}

/// The patterns found so far.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "snapshot", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct Miner {
    /// Share of equal positions needed to join, 0.2–1.0.
    similarity: f64,
    max_patterns: usize,
    pub patterns: Vec<Pattern>,
    /// (partition, token count, first-token key) → patterns, oldest first.
    index: FxHashMap<(u32, u32, u64), Vec<u32>>,
    /// (partition, token count) → distinct first-token keys.
    children: FxHashMap<(u32, u32), u32>,
}

impl Miner {
    pub(crate) fn new(similarity: f64, max_patterns: usize) -> Miner {
        Miner {
            similarity,
            max_patterns,
            patterns: Vec::new(),
            index: FxHashMap::default(),
            children: FxHashMap::default(),
        }
    }

    /// Finds or makes the pattern of `message`.
    pub(crate) fn add(&mut self, message: Message<'_>) -> Found {
        let Message {
            partition,
            text,
            tokens,
            ..
        } = message;
        let len = tokens.len() as u32;
        let first = &tokens[0];
        let first_key = if first.mask.is_some()
            || text.as_bytes()[first.start as usize..first.end as usize]
                .iter()
                .any(|b| b.is_ascii_digit() || *b == b'<')
        {
            WILDCARD
        } else {
            first.hash
        };
        let branch = (partition, len);
        // The fewest equal tokens that can join: the threshold, rounded up.
        let needed = ((self.similarity * f64::from(len)) - 1e-9).ceil().max(0.0) as usize;
        let mut best: Option<(u32, usize)> = None;
        let mut consider = |ids: &[u32], patterns: &[Pattern]| {
            for &id in ids {
                // Drain's similarity: equal tokens; a wildcard position counts as different, so
                // a pattern that grew general does not swallow everything of its length. A
                // pattern must beat the best so far (ties keep the older) and reach the
                // threshold: it is dropped as soon as it has too many differences for that.
                let floor = needed.max(best.map_or(0, |(_, e)| e + 1));
                if floor > tokens.len() {
                    return;
                }
                let allowed = tokens.len() - floor;
                let p = &patterns[id as usize];
                let mut misses = 0usize;
                for (t, token) in p.template.iter().zip(tokens) {
                    if *t != token.hash {
                        misses += 1;
                        if misses > allowed {
                            break;
                        }
                    }
                }
                if misses <= allowed {
                    best = Some((id, tokens.len() - misses));
                    if misses == 0 {
                        return;
                    }
                }
            }
        };
        if let Some(ids) = self.index.get(&(partition, len, first_key)) {
            consider(ids, &self.patterns);
        }
        if first_key != WILDCARD
            && let Some(ids) = self.index.get(&(partition, len, WILDCARD))
        {
            consider(ids, &self.patterns);
        }
        if let Some((id, _)) = best {
            let p = &mut self.patterns[id as usize];
            for (t, token) in p.template.iter_mut().zip(tokens) {
                if *t != token.hash {
                    *t = WILDCARD;
                }
            }
            p.count += 1;
            return Found::Joined(id);
        }
        if self.patterns.len() >= self.max_patterns {
            return Found::Full;
        }
        let mut key = (partition, len, first_key);
        if !self.index.contains_key(&key) && first_key != WILDCARD {
            let children = self.children.entry(branch).or_insert(0);
            if *children >= MAX_CHILDREN {
                key.2 = WILDCARD;
            } else {
                *children += 1;
            }
        }
        let id = self.patterns.len() as u32;
        let pattern = new_pattern(message);
        self.patterns.push(pattern);
        self.index.entry(key).or_default().push(id);
        Found::New(id)
    }
}

impl Miner {
    /// Checks a miner read from a snapshot: every index entry names a pattern, every pattern's
    /// layout names its own positions (what [`Miner::add`] and [`Pattern::text`] index by).
    #[cfg(feature = "snapshot")]
    pub(crate) fn check_saved(&self) -> Result<(), String> {
        let n = self.patterns.len();
        if let Some(id) = self.index.values().flatten().find(|id| **id as usize >= n) {
            return Err(format!("the index names pattern #{id} of {n}"));
        }
        for p in &self.patterns {
            let positions = p.template.len();
            let bad_slot = p
                .layout
                .iter()
                .any(|piece| matches!(piece, Piece::Slot(i) if *i as usize >= positions));
            if p.texts.len() != positions || bad_slot {
                return Err(format!(
                    "pattern {} has a layout that does not fit its tokens",
                    p.id
                ));
            }
        }
        Ok(())
    }
}

fn new_pattern(message: Message<'_>) -> Pattern {
    let Message {
        partition,
        partition_key,
        text,
        tokens,
        spans,
        mask_tokens,
    } = message;
    let mut layout = Vec::with_capacity(tokens.len() * 2 + 1);
    let mut texts = Vec::with_capacity(tokens.len());
    let mut at = 0usize;
    for (i, token) in tokens.iter().enumerate() {
        let (start, end) = (token.start as usize, token.end as usize);
        if start > at {
            layout.push(Piece::Literal(text[at..start].into()));
        }
        layout.push(Piece::Slot(i as u32));
        texts.push(match token.mask {
            Some(m) => mask_tokens[m as usize].as_str().into(),
            None => masked_text(text, start, end, spans, mask_tokens).into(),
        });
        at = end.max(at);
    }
    if at < text.len() {
        layout.push(Piece::Literal(text[at..].into()));
    }
    let mut pattern = Pattern {
        id: String::new(),
        partition,
        template: tokens.iter().map(|t| t.hash).collect(),
        texts,
        layout,
        count: 1,
    };
    let mut digest = Sha256::new();
    digest.update(partition_key.as_bytes());
    digest.update([0u8]);
    digest.update(pattern.text().as_bytes());
    let hash = digest.finalize();
    pattern.id = hash[..8].iter().map(|b| format!("{b:02x}")).collect();
    pattern
}

#[cfg(test)]
mod tests {
    use super::super::mask::Masks;
    use super::super::tokens::{Delimiters, Tokenizer, hash_bytes};
    use super::*;

    fn message<'a>(
        partition: u32,
        partition_key: &'a str,
        text: &'a str,
        tokens: &'a [Token],
    ) -> Message<'a> {
        Message {
            partition,
            partition_key,
            text,
            tokens,
            spans: &[],
            mask_tokens: &[],
        }
    }

    fn mine(lines: &[&str], similarity: f64) -> (Miner, Vec<Found>) {
        let mut miner = Miner::new(similarity, 1000);
        let masks = Masks::default();
        let delimiters = Delimiters::new(&[' ', ':', '=']);
        let mut tokenizer = Tokenizer::default();
        let mut found = Vec::new();
        for line in lines {
            tokenizer.run(line, &masks, &delimiters, &[], &[]).unwrap();
            found.push(miner.add(message(0, "", line, &tokenizer.tokens)));
        }
        (miner, found)
    }

    #[test]
    fn similar_messages_share_a_pattern_whose_differences_become_wildcards() {
        let (miner, found) = mine(
            &[
                "user alice logged in from web",
                "user bob logged in from web",
                "user carol logged in from app",
                "disk full on sda",
                "user dave logged out from web",
            ],
            0.6,
        );
        assert_eq!(
            found,
            [
                Found::New(0),
                Found::Joined(0),
                Found::Joined(0),
                Found::New(1),
                // 3 of 6 positions equal: its wildcards do not count as equal.
                Found::New(2)
            ]
        );
        assert_eq!(miner.patterns[0].text(), "user <*> logged in from <*>");
        assert_eq!(miner.patterns[0].count, 3);
        assert_eq!(miner.patterns[1].text(), "disk full on sda");
    }

    #[test]
    fn messages_whose_first_words_differ_never_share_a_pattern() {
        let (miner, found) = mine(
            &[
                "Failed password for root from host port 22",
                "Accepted password for root from host port 22",
                "Failed password for admin from host port 22",
                // A first word with a digit goes under `*`: it meets only patterns that did too.
                "9 password for root from host port 22",
            ],
            0.7,
        );
        // 8 of 9 positions equal, but "Accepted" is another branch of the tree.
        assert_eq!(
            found,
            [
                Found::New(0),
                Found::New(1),
                Found::Joined(0),
                Found::New(2)
            ]
        );
        assert_eq!(
            miner.patterns[0].text(),
            "Failed password for <*> from host port 22"
        );
    }

    #[test]
    fn the_threshold_decides_and_token_counts_never_mix() {
        let lines = ["a b c d e", "a b c x y", "a b c d e f"];
        let (strict, found) = mine(&lines, 0.7);
        assert_eq!(found, [Found::New(0), Found::New(1), Found::New(2)]);
        assert_eq!(strict.patterns.len(), 3);
        let (_, found) = mine(&lines, 0.6);
        assert_eq!(found, [Found::New(0), Found::Joined(0), Found::New(1)]);
    }

    #[test]
    fn ids_depend_on_partition_and_first_text_only() {
        let (a, _) = mine(&["disk full on sda", "disk full on sdb"], 0.7);
        let (b, _) = mine(&["disk full on sda"], 0.7);
        assert_eq!(a.patterns[0].id, b.patterns[0].id);
        assert_eq!(a.patterns[0].id.len(), 16);
        let mut c = Miner::new(0.7, 10);
        let token = Token {
            start: 0,
            end: 4,
            hash: hash_bytes(b"disk"),
            mask: None,
        };
        let other = c.add(message(1, "service=web", "disk", &[token]));
        let plain = c.add(message(0, "", "disk", &[token]));
        assert_ne!(other, plain);
        assert_ne!(c.patterns[0].id, c.patterns[1].id);
    }

    #[test]
    fn past_the_limit_no_pattern_is_made() {
        let mut miner = Miner::new(1.0, 1);
        let t = |s: &str| Token {
            start: 0,
            end: s.len() as u32,
            hash: hash_bytes(s.as_bytes()),
            mask: None,
        };
        assert_eq!(miner.add(message(0, "", "a", &[t("a")])), Found::New(0));
        assert_eq!(miner.add(message(0, "", "b", &[t("b")])), Found::Full);
        assert_eq!(miner.add(message(0, "", "a", &[t("a")])), Found::Joined(0));
    }
}

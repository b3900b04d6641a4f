//! Tokens: a message split on the reducer's delimiters, its masked spans kept whole, each token
//! known by a 64-bit hash computed the same way on every platform.

use super::mask::{Masks, Span};

/// The hash of a pattern position that matches any token.
pub(crate) const WILDCARD: u64 = 0;

/// One token of a message: `start..end` in the message, its hash, and the mask it is, if any.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Token {
    pub start: u32,
    pub end: u32,
    pub hash: u64,
    pub mask: Option<u16>,
}

/// The delimiters: one character each.
#[derive(Debug, Clone)]
pub(crate) struct Delimiters {
    ascii: [bool; 128],
    other: Vec<char>,
}

impl Delimiters {
    pub(crate) fn new(chars: &[char]) -> Delimiters {
        let mut ascii = [false; 128];
        let mut other = Vec::new();
        for c in chars {
            if c.is_ascii() {
                ascii[*c as usize] = true;
            } else {
                other.push(*c);
            }
        }
        Delimiters { ascii, other }
    }
}

/// A fixed 64-bit hash of bytes (the same natively and in wasm32, unlike `usize`-wide
/// hashers): 8 bytes at a time, multiply-rotate, then a finalizer.
#[inline]
pub(crate) fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ (bytes.len() as u64);
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let word = u64::from_le_bytes([
            chunk[0], chunk[1], chunk[2], chunk[3], chunk[4], chunk[5], chunk[6], chunk[7],
        ]);
        h = (h.rotate_left(5) ^ word).wrapping_mul(K);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut tail = [0u8; 8];
        tail[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(tail)).wrapping_mul(K);
    }
    // fmix64 (MurmurHash3): spreads every input bit over the output.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^= h >> 33;
    // 0 is the wildcard.
    h | 1
}

/// Splits `text` into `out` (cleared first) on `delimiters`, empty pieces dropped — except an
/// empty pair of brackets or quotes (`()`, `[]`, `{}`, `""`, `''`, each of them delimiters),
/// which is one empty token, so that an empty field keeps its place: `from 1.2.3.4 () at` and
/// `from 1.2.3.4 (host) at` have as many tokens (a message of empty fields alone has none).
/// A masked span
/// counts as its mask's token text (`<number>`) and is never split, but it does not end a
/// token: `blk_-4312` masked is the one token `blk_-<number>`. A token that is exactly one span
/// has that span's `mask`. `mask_tokens[i]` and `mask_hashes[i]` are mask `i`'s token and its
/// hash; `buf` is scratch space.
pub(crate) fn tokenize(
    text: &str,
    spans: &[Span],
    delimiters: &Delimiters,
    mask_tokens: &[String],
    mask_hashes: &[u64],
    out: &mut Vec<Token>,
    buf: &mut Vec<u8>,
) {
    out.clear();
    let bytes = text.as_bytes();
    // The token being read: where it starts, the index of its first span and how many.
    let mut start: Option<usize> = None;
    let mut first_span = 0usize;
    let mut span_count = 0usize;
    let mut flush = |end: usize,
                     start: &mut Option<usize>,
                     first_span: usize,
                     span_count: &mut usize,
                     out: &mut Vec<Token>| {
        let Some(s) = start.take() else { return };
        let count = std::mem::take(span_count);
        let token = if count == 0 {
            Token {
                start: s as u32,
                end: end as u32,
                hash: hash_bytes(&bytes[s..end]),
                mask: None,
            }
        } else if count == 1 && spans[first_span].start == s && spans[first_span].end == end {
            let m = spans[first_span].mask;
            Token {
                start: s as u32,
                end: end as u32,
                hash: mask_hashes[m as usize],
                mask: Some(m),
            }
        } else {
            buf.clear();
            let mut at = s;
            for span in &spans[first_span..first_span + count] {
                buf.extend_from_slice(&bytes[at..span.start]);
                buf.extend_from_slice(mask_tokens[span.mask as usize].as_bytes());
                at = span.end;
            }
            buf.extend_from_slice(&bytes[at..end]);
            Token {
                start: s as u32,
                end: end as u32,
                hash: hash_bytes(buf),
                mask: None,
            }
        };
        out.push(token);
    };
    let mut next_span = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        if let Some(span) = spans.get(next_span)
            && span.start == i
        {
            if start.is_none() {
                start = Some(i);
                first_span = next_span;
            } else if span_count == 0 {
                first_span = next_span;
            }
            span_count += 1;
            next_span += 1;
            i = span.end;
            continue;
        }
        let b = bytes[i];
        let (split, width) = if b < 128 {
            (delimiters.ascii[b as usize], 1)
        } else if delimiters.other.is_empty() {
            (false, 1)
        } else {
            let c = text[i..].chars().next().unwrap_or('\u{fffd}');
            (delimiters.other.contains(&c), c.len_utf8())
        };
        if split {
            let empty_pair = start.is_none()
                && i > 0
                && matches!(
                    (bytes[i - 1], b),
                    (b'(', b')') | (b'[', b']') | (b'{', b'}') | (b'"', b'"') | (b'\'', b'\'')
                );
            flush(i, &mut start, first_span, &mut span_count, out);
            if empty_pair {
                out.push(Token {
                    start: i as u32,
                    end: i as u32,
                    hash: hash_bytes(b""),
                    mask: None,
                });
            }
        } else if start.is_none() {
            start = Some(i);
        }
        i += width;
    }
    flush(bytes.len(), &mut start, first_span, &mut span_count, out);
    // Only empty fields: no token, as a message of delimiters alone.
    if out.iter().all(|t| t.start == t.end) {
        out.clear();
    }
}

/// The text of `start..end` of `text` with its masked spans as their tokens.
pub(crate) fn masked_text(
    text: &str,
    start: usize,
    end: usize,
    spans: &[Span],
    mask_tokens: &[String],
) -> String {
    let mut out = String::new();
    let mut at = start;
    for span in spans.iter().filter(|s| s.start >= start && s.end <= end) {
        out.push_str(&text[at..span.start]);
        out.push_str(&mask_tokens[span.mask as usize]);
        at = span.end;
    }
    out.push_str(&text[at..end]);
    out
}

/// Masks then tokenizes, reusing the buffers: what the reducer does to each message.
#[derive(Debug, Default)]
pub(crate) struct Tokenizer {
    pub spans: Vec<Span>,
    pub tokens: Vec<Token>,
    buf: Vec<u8>,
}

impl Tokenizer {
    pub(crate) fn run(
        &mut self,
        text: &str,
        masks: &Masks,
        delimiters: &Delimiters,
        mask_tokens: &[String],
        mask_hashes: &[u64],
    ) -> Result<(), super::mask::MaskError> {
        masks.find(text, &mut self.spans)?;
        tokenize(
            text,
            &self.spans,
            delimiters,
            mask_tokens,
            mask_hashes,
            &mut self.tokens,
            &mut self.buf,
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_split_on_delimiters_and_masked_spans_stay_whole() {
        let d = Delimiters::new(&[' ', ':', '=', '→']);
        let spans = [Span {
            start: 9,
            end: 17,
            mask: 0,
        }];
        let text = "user=bob 10.0.0.1 :: ok→done";
        let mut out = Vec::new();
        let tokens = ["<ipport>".to_owned()];
        tokenize(
            text,
            &spans,
            &d,
            &tokens,
            &[hash_bytes(b"<ipport>")],
            &mut out,
            &mut Vec::new(),
        );
        let words: Vec<&str> = out
            .iter()
            .map(|t| &text[t.start as usize..t.end as usize])
            .collect();
        assert_eq!(words, ["user", "bob", "10.0.0.1", "ok", "done"]);
        assert_eq!(out[2].mask, Some(0));
        assert_eq!(out[2].hash, hash_bytes(b"<ipport>"));
        assert_eq!(out[0].hash, hash_bytes(b"user"));
        assert_ne!(out[0].hash, out[1].hash);
    }

    #[test]
    fn a_masked_span_inside_a_word_stays_in_its_token() {
        let d = Delimiters::new(&[' ']);
        let text = "blk_-4312 x 7";
        let spans = [
            Span {
                start: 5,
                end: 9,
                mask: 0,
            },
            Span {
                start: 12,
                end: 13,
                mask: 0,
            },
        ];
        let tokens = ["<number>".to_owned()];
        let mut out = Vec::new();
        tokenize(
            text,
            &spans,
            &d,
            &tokens,
            &[hash_bytes(b"<number>")],
            &mut out,
            &mut Vec::new(),
        );
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].hash, hash_bytes(b"blk_-<number>"));
        assert_eq!(out[0].mask, None);
        assert_eq!(masked_text(text, 0, 9, &spans, &tokens), "blk_-<number>");
        assert_eq!(out[2].mask, Some(0));
    }

    #[test]
    fn an_empty_pair_of_brackets_or_quotes_is_an_empty_token() {
        let d = Delimiters::new(&[' ', '(', ')', '"', '[', ']']);
        let words = |text: &str| {
            let mut out = Vec::new();
            tokenize(text, &[], &d, &[], &[], &mut out, &mut Vec::new());
            out.iter()
                .map(|t| text[t.start as usize..t.end as usize].to_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(words("from a () at x"), ["from", "a", "", "at", "x"]);
        assert_eq!(
            words("from a (host) at x"),
            ["from", "a", "host", "at", "x"]
        );
        assert_eq!(words("ref \"\" ua [] end"), ["ref", "", "ua", "", "end"]);
        // Delimiters that are not a pair, and a pair with a space inside, give nothing.
        assert_eq!(words("a ( ) b )( c"), ["a", "b", "c"]);
        assert!(words("() [] \"\"").is_empty());
    }

    #[test]
    fn the_hash_is_fixed_and_never_the_wildcard() {
        // Fixed values: the same on 32- and 64-bit targets (pattern ids depend on it).
        assert_eq!(hash_bytes(b""), hash_bytes(b""));
        assert_ne!(hash_bytes(b"abcdefgh"), hash_bytes(b"abcdefgi"));
        assert_ne!(hash_bytes(b"a"), hash_bytes(b"a\0"));
        for s in ["", "a", "hello world, a longer token"] {
            assert_ne!(hash_bytes(s.as_bytes()), WILDCARD);
        }
    }
}

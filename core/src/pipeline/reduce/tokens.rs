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

/// Splits `text` into `out` (cleared first): the masked `spans` are tokens of their own (their
/// hash is that of the mask's token text, `<number>`); the rest is split on `delimiters`,
/// empty pieces dropped. `mask_hashes[i]` is the hash of mask `i`'s token.
pub(crate) fn tokenize(
    text: &str,
    spans: &[Span],
    delimiters: &Delimiters,
    mask_hashes: &[u64],
    out: &mut Vec<Token>,
) {
    out.clear();
    let bytes = text.as_bytes();
    let push_text = |from: usize, to: usize, out: &mut Vec<Token>| {
        let mut start = from;
        if delimiters.other.is_empty() {
            for i in from..to {
                let b = bytes[i];
                if b < 128 && delimiters.ascii[b as usize] {
                    if i > start {
                        out.push(Token {
                            start: start as u32,
                            end: i as u32,
                            hash: hash_bytes(&bytes[start..i]),
                            mask: None,
                        });
                    }
                    start = i + 1;
                }
            }
        } else {
            for (offset, c) in text[from..to].char_indices() {
                let i = from + offset;
                let split = if c.is_ascii() {
                    delimiters.ascii[c as usize]
                } else {
                    delimiters.other.contains(&c)
                };
                if split {
                    if i > start {
                        out.push(Token {
                            start: start as u32,
                            end: i as u32,
                            hash: hash_bytes(&bytes[start..i]),
                            mask: None,
                        });
                    }
                    start = i + c.len_utf8();
                }
            }
        }
        if to > start {
            out.push(Token {
                start: start as u32,
                end: to as u32,
                hash: hash_bytes(&bytes[start..to]),
                mask: None,
            });
        }
    };
    let mut at = 0usize;
    for span in spans {
        push_text(at, span.start, out);
        out.push(Token {
            start: span.start as u32,
            end: span.end as u32,
            hash: mask_hashes[span.mask as usize],
            mask: Some(span.mask),
        });
        at = span.end;
    }
    push_text(at, bytes.len(), out);
}

/// Masks then tokenizes, reusing the buffers: what the reducer does to each message.
#[derive(Debug, Default)]
pub(crate) struct Tokenizer {
    pub spans: Vec<Span>,
    pub tokens: Vec<Token>,
}

impl Tokenizer {
    pub(crate) fn run(
        &mut self,
        text: &str,
        masks: &Masks,
        delimiters: &Delimiters,
        mask_hashes: &[u64],
    ) -> Result<(), super::mask::MaskError> {
        masks.find(text, &mut self.spans)?;
        tokenize(text, &self.spans, delimiters, mask_hashes, &mut self.tokens);
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
        tokenize(text, &spans, &d, &[hash_bytes(b"<ipport>")], &mut out);
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

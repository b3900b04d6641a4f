//! Masks: the variable parts of a message (numbers, IP addresses, timestamps, UUIDs, …) that
//! the reducer replaces by one token named after the mask before it compares messages
//! (`docs/pipeline.md`, "`log-reducer`", "Masks").
//!
//! The four default masks that are on (`ipport`, `timestamp`, `uuid`, `number`) are matched by
//! hand-written scanners that follow the public service's regular expressions (which use
//! lookbehind and atomic groups, beyond a linear-time engine); they run at the speed of a byte
//! loop. Any other mask — `awsarn`, `awstoken`, a custom one, or a default one whose regular
//! expression was edited — is a regular expression matched with `regress`, the engine the
//! package already links, under the per-event time limit.
//!
//! Every mask is tried only where a word starts (the start of the message, or after a character
//! that is not a letter, a digit or `_`): the default masks say so themselves (`(?<!\w)`); for
//! the others it keeps `abc123` from becoming `abc<number>`.

use std::time::Duration;

use jobgraph_model::ops::transforms::log_reducer::LogReducer;

use super::scan::{WORD, ipport, number, timestamp, uuid};

/// The default masks of the public service, as `LogReducer`'s `masks` default lists them.
pub(crate) fn default_masks() -> Vec<(String, String)> {
    LogReducer::default_masks()
}

/// How one mask is matched.
#[derive(Debug, Clone)]
enum Matcher {
    IpPort,
    Timestamp,
    Uuid,
    Number,
    Regex(Box<regress::Regex>),
}

/// An enabled mask.
#[derive(Debug, Clone)]
pub(crate) struct Mask {
    /// Its name (`number`), which is also its token (`<number>`).
    pub name: String,
    /// `<name>`.
    pub token: String,
    matcher: Matcher,
}

/// Why a mask cannot be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MaskError(pub String);

/// The longest a custom mask may take on one message before the run stops.
pub(crate) const MASK_TIME_LIMIT: Duration = Duration::from_millis(100);

impl Mask {
    /// A mask from its catalogue entry: a scanner when the entry is one of the default masks
    /// unchanged, else its regular expression. `builtin` is whether `name` is one of the six
    /// default names.
    pub(crate) fn new(name: &str, regex: &str, builtin: bool) -> Result<Mask, MaskError> {
        let defaults = default_masks();
        let unchanged = defaults.iter().any(|(n, r)| n == name && r == regex);
        let scanner = match name {
            "ipport" if unchanged => Some(Matcher::IpPort),
            "timestamp" if unchanged => Some(Matcher::Timestamp),
            "uuid" if unchanged => Some(Matcher::Uuid),
            "number" if unchanged => Some(Matcher::Number),
            _ => None,
        };
        let matcher = match scanner {
            Some(m) => m,
            None => {
                if !builtin {
                    check_name(name)?;
                }
                if regex.is_empty() {
                    return Err(MaskError(format!(
                        "mask `{name}` has an empty regular expression: give the text it should match, e.g. \"order-[0-9]+\""
                    )));
                }
                if !unchanged {
                    check_constructs(name, regex)?;
                }
                let compiled = regress::Regex::with_flags(regex, "").map_err(|e| {
                    MaskError(format!(
                        "mask `{name}`: the regular expression `{regex}` does not compile: {e}"
                    ))
                })?;
                Matcher::Regex(Box::new(compiled))
            }
        };
        Ok(Mask {
            name: name.to_owned(),
            token: format!("<{name}>"),
            matcher,
        })
    }

    /// Whether this mask is matched by a regular expression (slower, time-limited).
    pub(crate) fn is_regex(&self) -> bool {
        matches!(self.matcher, Matcher::Regex(_))
    }

    /// The end of this mask's match starting at `at` in `text`, if any. `at` is a word start.
    /// For a regular expression, `regex_starts` holds the starts and ends of its matches in
    /// `text` (found once per message).
    #[inline]
    fn match_at(&self, text: &[u8], at: usize, regex_matches: &[(usize, usize)]) -> Option<usize> {
        match &self.matcher {
            Matcher::IpPort => ipport(text, at),
            Matcher::Timestamp => timestamp(text, at),
            Matcher::Uuid => uuid(text, at),
            Matcher::Number => number(text, at),
            Matcher::Regex(_) => regex_matches
                .iter()
                .find(|(s, e)| *s == at && *e > *s)
                .map(|(_, e)| *e),
        }
    }
}

/// A custom mask's name: lowercase letters only, at most 50 of them.
fn check_name(name: &str) -> Result<(), MaskError> {
    if name.is_empty() || name.len() > 50 || !name.bytes().all(|b| b.is_ascii_lowercase()) {
        return Err(MaskError(format!(
            "mask name `{name}` must be 1 to 50 lowercase letters (a-z), nothing else: e.g. `orderid`"
        )));
    }
    Ok(())
}

/// Lookaround and backreferences are refused, as the public service documents.
fn check_constructs(name: &str, regex: &str) -> Result<(), MaskError> {
    for (construct, what) in [
        ("(?=", "lookahead"),
        ("(?!", "negative lookahead"),
        ("(?<=", "lookbehind"),
        ("(?<!", "negative lookbehind"),
    ] {
        if regex.contains(construct) {
            return Err(MaskError(format!(
                "mask `{name}` uses {what} `{construct}`, which masks do not support: use word boundaries (\\b) or character classes instead"
            )));
        }
    }
    let bytes = regex.as_bytes();
    for (i, pair) in bytes.windows(2).enumerate() {
        let escaped = i == 0 || bytes[i - 1] != b'\\';
        if pair[0] == b'\\'
            && escaped
            && (pair[1].is_ascii_digit() && pair[1] != b'0' || pair[1] == b'k')
        {
            return Err(MaskError(format!(
                "mask `{name}` uses a backreference `\\{}`, which masks do not support: repeat the group's pattern instead",
                pair[1] as char
            )));
        }
    }
    Ok(())
}

/// The masks of one reducer, in catalogue order (the first that matches at a place wins).
#[derive(Debug, Clone)]
pub(crate) struct Masks {
    pub masks: Vec<Mask>,
    /// Whether any mask is a regular expression.
    regexes: bool,
    /// Whether each byte can start a match of one of the scanners.
    starts: [bool; 256],
}

/// A masked span of a message: `start..end` is replaced by mask `mask`'s token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
    pub mask: u16,
}

impl Default for Masks {
    fn default() -> Masks {
        Masks::new(Vec::new())
    }
}

impl Masks {
    pub(crate) fn new(masks: Vec<Mask>) -> Masks {
        let mut starts = [false; 256];
        let regexes = masks.iter().any(Mask::is_regex);
        for mask in &masks {
            match mask.matcher {
                Matcher::IpPort | Matcher::Timestamp => {
                    for b in b'0'..=b'9' {
                        starts[b as usize] = true;
                    }
                }
                Matcher::Number => {
                    for b in b"0123456789+-.".iter() {
                        starts[*b as usize] = true;
                    }
                }
                Matcher::Uuid => {
                    for b in b"0123456789abcdefABCDEF".iter() {
                        starts[*b as usize] = true;
                    }
                }
                Matcher::Regex(_) => {}
            }
        }
        Masks {
            masks,
            regexes,
            starts,
        }
    }

    /// The masked spans of `text`, left to right, into `out` (cleared first). Fails when a
    /// regular-expression mask runs past its time limit.
    pub(crate) fn find(&self, text: &str, out: &mut Vec<Span>) -> Result<(), MaskError> {
        out.clear();
        if self.masks.is_empty() {
            return Ok(());
        }
        let bytes = text.as_bytes();
        // Regular expressions find their matches once per message.
        let mut regex_matches: Vec<Vec<(usize, usize)>> = Vec::new();
        let mut regex_starts = Vec::new();
        if self.regexes {
            let _deadline =
                crate::inputs::begin_deadline(web_time::Instant::now() + MASK_TIME_LIMIT);
            for mask in &self.masks {
                let found = match &mask.matcher {
                    Matcher::Regex(re) => {
                        let found: Vec<(usize, usize)> =
                            re.find_iter(text).map(|m| (m.start(), m.end())).collect();
                        if regress::interrupt::take_interrupted() {
                            return Err(MaskError(format!(
                                "mask `{}` took longer than {} ms on one message: simplify its regular expression (nested repetition such as (a+)+ backtracks without end)",
                                mask.name,
                                MASK_TIME_LIMIT.as_millis()
                            )));
                        }
                        regex_starts.extend(found.iter().map(|(s, _)| *s));
                        found
                    }
                    _ => Vec::new(),
                };
                regex_matches.push(found);
            }
            regex_starts.sort_unstable();
        }
        let mut at = 0usize;
        let mut word_start = true;
        while at < bytes.len() {
            let b = bytes[at];
            if word_start
                && (self.starts[b as usize]
                    || (self.regexes && regex_starts.binary_search(&at).is_ok()))
                && let Some((i, end)) = self.masks.iter().enumerate().find_map(|(i, mask)| {
                    let found = regex_matches.get(i).map_or(&[][..], Vec::as_slice);
                    mask.match_at(bytes, at, found).map(|end| (i, end))
                })
            {
                out.push(Span {
                    start: at,
                    end,
                    mask: i as u16,
                });
                // What follows starts a word as it would in the text itself.
                word_start = end == 0 || !WORD[bytes[end - 1] as usize];
                at = end.max(at + 1);
                continue;
            }
            word_start = !WORD[b as usize];
            at += 1;
            // Inside a word no mask starts: skip to its end.
            while at < bytes.len() && WORD[bytes[at] as usize] && !word_start {
                at += 1;
            }
        }
        // A regular-expression match may end inside a multi-byte character only if the
        // expression split one; keep spans on character boundaries.
        out.retain(|s| text.is_char_boundary(s.start) && text.is_char_boundary(s.end));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defaults() -> Masks {
        Masks::new(
            default_masks()
                .iter()
                .filter(|(n, _)| ["ipport", "timestamp", "uuid", "number"].contains(&n.as_str()))
                .map(|(n, r)| Mask::new(n, r, true).unwrap())
                .collect(),
        )
    }

    fn masked(masks: &Masks, text: &str) -> String {
        let mut spans = Vec::new();
        masks.find(text, &mut spans).unwrap();
        let mut out = String::new();
        let mut at = 0;
        for s in spans {
            out.push_str(&text[at..s.start]);
            out.push_str(&masks.masks[s.mask as usize].token);
            at = s.end;
        }
        out.push_str(&text[at..]);
        out
    }

    #[test]
    fn default_masks_replace_what_their_expressions_match() {
        let m = defaults();
        for (input, expected) in [
            ("from 10.0.0.1:8080 ok", "from <ipport> ok"),
            ("at 2024-04-26T15:30:45.123Z done", "at <timestamp> done"),
            (
                "at 2024-04-26 15:30:45,5 +02:00",
                "at <timestamp> <number>:<number>",
            ),
            ("at 2024-04-26 15:30:45+0200 x", "at <timestamp> x"),
            ("on 26/04/2024 15:30:45 PM x", "on <timestamp> x"),
            ("[26/Apr/2024:15:30:45 +0000] GET", "[<timestamp>] GET"),
            ("took 15:30:45", "took <timestamp>"),
            ("id 123e4567-e89b-12d3-a456-426614174000 x", "id <uuid> x"),
            ("id 123e4567e89b12d3a456426614174000", "id <uuid>"),
            (
                "n=-12.5e3 m=0x1F k=.5 j=7.",
                "n=<number> m=<number> k=<number> j=<number>.",
            ),
            ("user123 5ms 42", "user123 5ms <number>"),
            ("a-5 1.5.3", "a-<number> <number>.<number>"),
            ("v1.2.3.4", "v1.<number>.<number>"),
            ("", ""),
        ] {
            assert_eq!(masked(&m, input), expected, "{input}");
        }
    }

    #[test]
    fn custom_masks_are_regular_expressions_with_checked_names() {
        let order = Mask::new("orderid", "ORD-[0-9]+", false).unwrap();
        let m = Masks::new(vec![
            order,
            Mask::new("number", &default_masks()[3].1, true).unwrap(),
        ]);
        assert_eq!(
            masked(&m, "placed ORD-991 for 3"),
            "placed <orderid> for <number>"
        );
        for (name, regex, wanted) in [
            ("Order", "x", "lowercase letters"),
            ("order1", "x", "lowercase letters"),
            ("order", "", "empty"),
            ("order", "a(?=b)", "lookahead"),
            ("order", "(?<!a)b", "negative lookbehind"),
            ("order", "(a)\\1", "backreference"),
            ("order", "a(", "does not compile"),
        ] {
            let e = Mask::new(name, regex, false).unwrap_err();
            assert!(e.0.contains(wanted), "{name} {regex}: {}", e.0);
        }
    }

    #[test]
    fn a_catastrophic_custom_mask_stops_with_a_clear_error() {
        let m = Masks::new(vec![Mask::new("bad", "(a+)+$", false).unwrap()]);
        let text = format!("{}!", "a".repeat(40));
        let mut spans = Vec::new();
        let e = m.find(&text, &mut spans).unwrap_err();
        assert!(e.0.contains("took longer than"), "{}", e.0);
    }
}

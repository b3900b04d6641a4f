//! Words of a text as the index counts them: split on anything not alphanumeric and at
//! camelCase boundaries (`heartbeatToken` → `heartbeat`, `token`), lower-cased, English stop
//! words and one-letter words dropped, then stemmed (Snowball English: `tokens` → `token`).

use rust_stemmers::{Algorithm, Stemmer};

/// Words too common to tell documents apart.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "has", "have", "if", "in",
    "into", "is", "it", "its", "of", "on", "or", "that", "the", "their", "then", "there", "these",
    "this", "to", "was", "were", "what", "when", "which", "with",
];

/// Splits, normalizes and stems text; one per thread or per search.
pub struct Tokenizer {
    stemmer: Stemmer,
}

impl Default for Tokenizer {
    fn default() -> Self {
        Tokenizer {
            stemmer: Stemmer::create(Algorithm::English),
        }
    }
}

impl Tokenizer {
    /// Calls `each` with every term of `text`, in order (repeats included).
    pub fn for_each(&self, text: &str, mut each: impl FnMut(String)) {
        let mut word = String::new();
        let mut previous_lower = false;
        for c in text.chars().chain(std::iter::once(' ')) {
            if c.is_alphanumeric() {
                // camelCase: a capital after a lower-case letter starts a new word.
                if c.is_uppercase() && previous_lower {
                    self.emit(&mut word, &mut each);
                }
                previous_lower = c.is_lowercase() || c.is_ascii_digit();
                word.extend(c.to_lowercase());
            } else {
                previous_lower = false;
                self.emit(&mut word, &mut each);
            }
        }
    }

    /// Every term of `text`, in order.
    pub fn terms(&self, text: &str) -> Vec<String> {
        let mut terms = Vec::new();
        self.for_each(text, |t| terms.push(t));
        terms
    }

    fn emit(&self, word: &mut String, each: &mut impl FnMut(String)) {
        if word.chars().count() >= 2 && !STOP_WORDS.contains(&word.as_str()) {
            each(self.stemmer.stem(word).into_owned());
        }
        word.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::Tokenizer;

    #[test]
    fn splits_camel_case_lowercases_stems_and_drops_stop_words() {
        let t = Tokenizer::default();
        assert_eq!(
            t.terms("The heartbeatToken of `POST /v1/jobs/sync` tokens, Running"),
            [
                "heartbeat",
                "token",
                "post",
                "v1",
                "job",
                "sync",
                "token",
                "run"
            ]
        );
    }

    #[test]
    fn keeps_non_ascii_words() {
        let t = Tokenizer::default();
        assert_eq!(t.terms("Ünïcode données"), ["ünïcode", "donné"]);
    }
}

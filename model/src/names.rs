//! Names that become part of a storage path: one rule for all of them.
//!
//! A dataset's files live at `<organization>/<dataset id>/<table>/<partition>/<run id>-<n>.parquet`
//! in the data lake (docs/lake.md). Every name in that path is checked with [`check_path_name`]
//! where it enters: a load's `table` query parameter, the `table` of a job graph's lake vertices
//! ([`check_vertex_names`], part of `jobgraph_core::validate_job_graph`), a configured client's
//! organization, and the lake's writer itself (`jobgraph-lake`) for whatever reaches it.
//!
//! **The rule** ([`PATH_NAME_RULE`]): 1 to 128 characters, each an ASCII letter, a digit or
//! one of `- _ . : @ = + ~`, and not `.` or `..`. Such a name is always exactly one path
//! component: no separator (`/`, `\`), no escape (`%`), no white space or control character,
//! nothing that normalizes differently (non-ASCII), and no step out of its folder.
//!
//! ```
//! use jobgraph_model::names::{check_path_name, PATH_NAME_RULE};
//! assert!(check_path_name("table", "web-logs_2026.v1").is_ok());
//! let error = check_path_name("table", "../other").unwrap_err();
//! assert_eq!(
//!     error.to_string(),
//!     format!("table \"../other\" is not allowed: it holds '/' at character 3; a table is {PATH_NAME_RULE}")
//! );
//! ```

use serde_json::{Map, Value};

/// Longest name, in characters (bytes: every allowed character is ASCII).
pub const PATH_NAME_MAX: usize = 128;

/// The characters allowed besides ASCII letters and digits.
pub const PATH_NAME_PUNCTUATION: &str = "-_.:@=+~";

/// The rule in words, as every refusal states it.
pub const PATH_NAME_RULE: &str = "1 to 128 characters, each a letter (A-Z, a-z), a digit or one of - _ . : @ = + ~, and not `.` or `..`";

/// The rule's characters as an ECMA-262 (and Python) regular expression, for the OpenAPI
/// document: the documented schema is this `pattern` with `minLength` 1 and `maxLength`
/// [`PATH_NAME_MAX`]. No look-around, so that every generator of test data can follow it:
/// "not only dots" is spelled as "holds a character other than `.`, or is three dots or more".
pub const PATH_NAME_PATTERN: &str =
    r"^([A-Za-z0-9_.:@=+~-]*[A-Za-z0-9_:@=+~-][A-Za-z0-9_.:@=+~-]*|\.{3,})$";

/// What is wrong with a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NameProblem {
    /// The name is empty.
    Empty,
    /// The name is `.` or `..`.
    RelativeDirectory,
    /// A character outside the rule: the first one, and its position (1-based, in characters).
    Character {
        /// The character.
        character: char,
        /// Its position, counting from 1.
        at: usize,
    },
    /// More than [`PATH_NAME_MAX`] characters.
    TooLong {
        /// The name's length in characters.
        length: usize,
    },
}

impl std::fmt::Display for NameProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NameProblem::Empty => f.write_str("it is empty"),
            NameProblem::RelativeDirectory => f.write_str("it is a relative directory name"),
            NameProblem::Character { character, at } => {
                if character.is_ascii_graphic() || *character == ' ' {
                    write!(f, "it holds {character:?} at character {at}")
                } else {
                    write!(
                        f,
                        "it holds {character:?} (U+{:04X}) at character {at}",
                        u32::from(*character)
                    )
                }
            }
            NameProblem::TooLong { length } => write!(
                f,
                "it is {length} characters long, more than {PATH_NAME_MAX}"
            ),
        }
    }
}

/// A name refused by [`check_path_name`]: which name, its value (the first 64 characters),
/// what is wrong, and the rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} {} is not allowed: {problem}; a {what} is {PATH_NAME_RULE}", shown(.value))]
pub struct NameError {
    /// Which name (`table`, `organization`, `dataset id`, `run id`).
    pub what: &'static str,
    /// The value given.
    pub value: String,
    /// What is wrong with it.
    pub problem: NameProblem,
}

/// The value quoted, cut at 64 characters.
fn shown(value: &str) -> String {
    match value.char_indices().nth(64) {
        Some((cut, _)) => format!("{:?}…", &value[..cut]),
        None => format!("{value:?}"),
    }
}

/// Whether `c` is allowed in a name.
pub fn is_path_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || PATH_NAME_PUNCTUATION.contains(c)
}

/// Checks a name that becomes one component of a storage path against [`PATH_NAME_RULE`];
/// `what` names it in the error (`table`, `organization`, …).
pub fn check_path_name(what: &'static str, value: &str) -> Result<(), NameError> {
    let problem = if value.is_empty() {
        Some(NameProblem::Empty)
    } else if value == "." || value == ".." {
        Some(NameProblem::RelativeDirectory)
    } else if let Some((i, character)) = value
        .chars()
        .enumerate()
        .find(|(_, c)| !is_path_name_char(*c))
    {
        Some(NameProblem::Character {
            character,
            at: i + 1,
        })
    } else if value.len() > PATH_NAME_MAX {
        Some(NameProblem::TooLong {
            length: value.len(),
        })
    } else {
        None
    };
    match problem {
        None => Ok(()),
        Some(problem) => Err(NameError {
            what,
            value: value.to_owned(),
            problem,
        }),
    }
}

/// The vertex types whose `table` names a lake table.
pub const TABLE_VERTEX_TYPES: &[&str] = &[
    "logs-iceberg-table-source",
    "logs-iceberg-table-sink",
    "grepr-raw-log-source",
];

/// The graph-validation part of the rule: a lake vertex's `table`, when it is a string, is a
/// path name. `at` is the vertex's JSON pointer (`/vertices/2`); a problem is reported at
/// `<at>/table`, naming the vertex. Other shapes of `table` are the field rules' business.
pub fn check_vertex_names(
    fields: &Map<String, Value>,
    vertex_type: Option<&str>,
    at: &str,
    report: &mut impl FnMut(String, String),
) {
    if !vertex_type.is_some_and(|t| TABLE_VERTEX_TYPES.contains(&t)) {
        return;
    }
    if let Some(Value::String(table)) = fields.get("table")
        && let Err(e) = check_path_name("table", table)
    {
        let vertex = match fields.get("name").and_then(Value::as_str) {
            Some(name) => format!("vertex {name:?}"),
            None => "the vertex".to_owned(),
        };
        report(format!("{at}/table"), format!("{vertex}: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator of arbitrary strings: xorshift64* over a mix of allowed
    /// characters, dots, separators, escapes, white space, control characters and odd Unicode,
    /// of lengths 0 to 200 (with the edges 127..=129 often).
    pub(crate) struct Strings(u64);

    impl Strings {
        pub(crate) fn new(seed: u64) -> Self {
            Strings(seed.max(1))
        }

        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }

        pub(crate) fn string(&mut self) -> String {
            const ALLOWED: &str = "abcxyzABCXYZ0189-_.:@=+~";
            const ODD: &[char] = &[
                '/', '\\', '%', ' ', '\t', '\n', '\0', '\u{7f}', '?', '#', '*', '"', '\'', '<',
                '>', '|', '$', '{', '}', '[', ']', ',', ';', '!', '&', 'é', 'ß', '中', '😀',
                '\u{202E}', '\u{200B}', '\u{0301}', '\u{FEFF}', '\u{FF0F}', '\u{2215}', '\u{00A0}',
                '\u{1F}',
            ];
            let length = match self.below(10) {
                0 => 0,
                1 => 1 + self.below(3) as usize,
                2 => 127 + self.below(3) as usize,
                3 => self.below(200) as usize,
                _ => 1 + self.below(24) as usize,
            };
            let odd_rate = [0, 1, 5, 30][self.below(4) as usize];
            let dots_only = self.below(12) == 0;
            (0..length)
                .map(|_| {
                    if dots_only {
                        '.'
                    } else if self.below(100) < odd_rate {
                        ODD[self.below(ODD.len() as u64) as usize]
                    } else {
                        let i = self.below(ALLOWED.len() as u64) as usize;
                        char::from(ALLOWED.as_bytes()[i])
                    }
                })
                .collect()
        }
    }

    #[test]
    fn accepted_names_are_one_path_component_and_match_the_documented_pattern() {
        let pattern = regress::Regex::new(PATH_NAME_PATTERN).unwrap_or_else(|e| panic!("{e}"));
        let mut strings = Strings::new(0x5eed_1234);
        let (mut accepted, mut refused) = (0, 0);
        for _ in 0..20_000 {
            let name = strings.string();
            let documented = pattern.find(&name).is_some()
                && (1..=PATH_NAME_MAX).contains(&name.chars().count());
            match check_path_name("table", &name) {
                Ok(()) => {
                    accepted += 1;
                    assert!(documented, "{name:?} accepted but not documented");
                    let joined = std::path::Path::new("root").join(&name);
                    let components: Vec<_> = joined.components().collect();
                    assert_eq!(components.len(), 2, "{name:?}");
                    assert_eq!(
                        components[1].as_os_str(),
                        std::ffi::OsStr::new(&name),
                        "{name:?}"
                    );
                    assert!(!name.contains(['/', '\\', '%']));
                }
                Err(e) => {
                    refused += 1;
                    assert!(!documented, "{name:?} documented but refused: {e}");
                    let message = e.to_string();
                    assert!(message.contains(PATH_NAME_RULE), "{message}");
                    assert!(message.starts_with("table "), "{message}");
                }
            }
        }
        // The generator reaches both sides often.
        assert!(
            accepted > 5_000 && refused > 5_000,
            "{accepted} accepted, {refused} refused"
        );
    }

    #[test]
    fn each_kind_of_bad_name_is_named() {
        let cases = [
            ("", "it is empty"),
            (".", "relative directory"),
            ("..", "relative directory"),
            ("a/b", "'/' at character 2"),
            ("../x", "'/' at character 3"),
            ("a b", "' ' at character 2"),
            ("50%", "'%' at character 3"),
            ("a\\b", "'\\\\' at character 2"),
            ("é", "'é' (U+00E9) at character 1"),
            ("a\u{202E}", "(U+202E) at character 2"),
        ];
        for (name, expected) in cases {
            let message = check_path_name("table", name).unwrap_err().to_string();
            assert!(message.contains(expected), "{name:?}: {message}");
        }
        let long = "x".repeat(PATH_NAME_MAX + 1);
        let message = check_path_name("table", &long).unwrap_err().to_string();
        assert!(
            message.contains("129 characters long, more than 128"),
            "{message}"
        );
        assert!(
            message.contains(&format!("\"{}\"…", "x".repeat(64))),
            "{message}"
        );
        for name in [
            "logs",
            "...",
            ".hidden",
            "-",
            "a.b:c@d=e+f~g_h",
            &"x".repeat(PATH_NAME_MAX),
        ] {
            assert!(check_path_name("table", name).is_ok(), "{name:?}");
        }
    }

    #[test]
    fn lake_vertices_report_their_table_with_the_pointer_and_the_vertex() {
        let fields = |v: Value| v.as_object().cloned().unwrap_or_default();
        let mut problems = Vec::new();
        let mut report = |pointer: String, message: String| problems.push((pointer, message));
        check_vertex_names(
            &fields(serde_json::json!({"name": "out", "table": "a/b"})),
            Some("logs-iceberg-table-sink"),
            "/vertices/2",
            &mut report,
        );
        check_vertex_names(
            &fields(serde_json::json!({"name": "in", "table": "logs"})),
            Some("logs-iceberg-table-source"),
            "/vertices/0",
            &mut report,
        );
        check_vertex_names(
            &fields(serde_json::json!({"name": "f", "table": "a/b"})),
            Some("logs-filter"),
            "/vertices/1",
            &mut report,
        );
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, "/vertices/2/table");
        assert!(
            problems[0].1.starts_with("vertex \"out\": table \"a/b\""),
            "{}",
            problems[0].1
        );
    }
}

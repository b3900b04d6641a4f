//! OpenTelemetry severity numbers (1–24: TRACE 1–4, DEBUG 5–8, INFO 9–12, WARN 13–16, ERROR
//! 17–20, FATAL 21–24) from and to the level words of the protocols.
//!
//! Syslog's levels map as the OpenTelemetry log data model's appendix maps them: emergency →
//! FATAL (21), alert → ERROR3 (19), critical → ERROR2 (18), error → ERROR (17), warning → WARN
//! (13), notice → INFO2 (10), informational → INFO (9), debug → DEBUG (5).
//!
//! ```
//! use jobgraph_intake::severity;
//! assert_eq!(severity::from_text("Warning"), Some(13));
//! assert_eq!(severity::from_text("ERROR2"), Some(18));
//! assert_eq!(severity::from_syslog(3), Some(17));
//! assert_eq!(severity::short_name(18), Some("ERROR2"));
//! assert_eq!(severity::datadog_status(18), Some("critical"));
//! ```

/// The severity of a level word, case-insensitive, surrounding spaces ignored: the OpenTelemetry
/// short names (`TRACE` … `FATAL4`), syslog's (`emerg`/`emergency`, `alert`, `crit`/`critical`,
/// `err`/`error`, `warn`/`warning`, `notice`, `info`/`informational`, `debug`) and `fatal`,
/// `panic` (FATAL), `information` (INFO), `ok`/`success` (INFO, Datadog's OK). `None` for
/// anything else.
pub fn from_text(text: &str) -> Option<u8> {
    let text = text.trim();
    if text.is_empty() || text.len() > 16 {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    let word = match lower.as_str() {
        "emerg" | "emergency" | "panic" => return Some(21),
        "alert" => return Some(19),
        "crit" | "critical" => return Some(18),
        "err" => return Some(17),
        "warning" => return Some(13),
        "notice" => return Some(10),
        "information" | "informational" | "ok" | "success" => return Some(9),
        other => other,
    };
    // OpenTelemetry short names: a base word and an optional step 2–4.
    let (base, step) = match word.as_bytes().last() {
        Some(digit @ b'2'..=b'4') => (word.get(..word.len() - 1)?, digit - b'1'),
        _ => (word, 0),
    };
    let first = match base {
        "trace" => 1,
        "debug" => 5,
        "info" => 9,
        "warn" => 13,
        "error" => 17,
        "fatal" => 21,
        _ => return None,
    };
    Some(first + step)
}

/// The severity of a syslog level number (0 emergency … 7 debug).
pub fn from_syslog(level: u64) -> Option<u8> {
    match level {
        0 => Some(21),
        1 => Some(19),
        2 => Some(18),
        3 => Some(17),
        4 => Some(13),
        5 => Some(10),
        6 => Some(9),
        7 => Some(5),
        _ => None,
    }
}

/// The OpenTelemetry short name of a severity (`TRACE`, `TRACE2`, … `FATAL4`), which
/// [`from_text`] reads back as the same number.
pub fn short_name(severity: u8) -> Option<&'static str> {
    const NAMES: [&str; 24] = [
        "TRACE", "TRACE2", "TRACE3", "TRACE4", "DEBUG", "DEBUG2", "DEBUG3", "DEBUG4", "INFO",
        "INFO2", "INFO3", "INFO4", "WARN", "WARN2", "WARN3", "WARN4", "ERROR", "ERROR2", "ERROR3",
        "ERROR4", "FATAL", "FATAL2", "FATAL3", "FATAL4",
    ];
    NAMES.get(usize::from(severity).checked_sub(1)?).copied()
}

/// The Datadog `status` word of a severity: `trace` (1–4), `debug` (5–8), `info` (9, 11, 12),
/// `notice` (10), `warning` (13–16), `error` (17, 20), `critical` (18), `alert` (19),
/// `emergency` (21–24). [`from_text`] reads each back as the severity it comes from for 1, 5,
/// 9, 10, 13, 17, 18, 19 and 21; the other steps come back as their group's first or nearest.
pub fn datadog_status(severity: u8) -> Option<&'static str> {
    Some(match severity {
        1..=4 => "trace",
        5..=8 => "debug",
        10 => "notice",
        9..=12 => "info",
        13..=16 => "warning",
        18 => "critical",
        19 => "alert",
        17..=20 => "error",
        21..=24 => "emergency",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_names_read_back() {
        for n in 1..=24u8 {
            assert_eq!(from_text(short_name(n).unwrap()), Some(n));
            assert_eq!(from_text(&short_name(n).unwrap().to_lowercase()), Some(n));
        }
        assert_eq!(short_name(0), None);
        assert_eq!(short_name(25), None);
    }

    #[test]
    fn datadog_words_read_back() {
        for n in [1, 5, 9, 10, 13, 17, 18, 19, 21] {
            assert_eq!(from_text(datadog_status(n).unwrap()), Some(n));
        }
        for n in 1..=24u8 {
            let back = from_text(datadog_status(n).unwrap()).unwrap();
            assert_eq!((back - 1) / 4, (n - 1) / 4, "{n} stays in its group");
        }
        assert_eq!(datadog_status(0), None);
    }

    #[test]
    fn words() {
        assert_eq!(from_text(" EMERG "), Some(21));
        assert_eq!(from_text("crit"), Some(18));
        assert_eq!(from_text("warn"), Some(13));
        assert_eq!(from_text("OK"), Some(9));
        assert_eq!(from_text("trace5"), None);
        assert_eq!(from_text("2"), None);
        assert_eq!(from_text(""), None);
        assert_eq!(from_text("é"), None);
        assert_eq!(from_text("informationalxxxxxxxxx"), None);
        assert_eq!(from_syslog(8), None);
    }
}

//! Time zones of `date(…)`: fixed offsets (`+02:00`, `UTC+5`, `-0330`, `+hh:mm:ss`), the zone
//! abbreviations of [`ABBREVIATIONS`], and IANA zone names (`Europe/Paris`) from the IANA
//! database bundled into the binary by jiff (`tzdb-bundle-always`): the same database natively
//! and in WebAssembly, never the system's, so both give identical results.

use std::sync::OnceLock;

use jiff::civil::DateTime;
use jiff::tz::{TimeZone, TimeZoneDatabase};

/// Zone abbreviations understood in a date's text (`z`) and as the zone argument, with the
/// offset each names (seconds east of UTC). An abbreviation is that fixed offset: `EDT` is
/// always UTC−4, whatever the date. Ambiguous ones follow Java's US English names (`CST` is
/// Central Standard Time, `BST` British Summer Time); `IST` (India, Ireland or Israel) is left
/// out. Any other abbreviation does not match, as an unknown month name does not.
pub(super) const ABBREVIATIONS: [(&str, i32); 48] = [
    ("UTC", 0),
    ("GMT", 0),
    ("UT", 0),
    ("Z", 0),
    // North America.
    ("EST", -5 * H),
    ("EDT", -4 * H),
    ("CST", -6 * H),
    ("CDT", -5 * H),
    ("MST", -7 * H),
    ("MDT", -6 * H),
    ("PST", -8 * H),
    ("PDT", -7 * H),
    ("AKST", -9 * H),
    ("AKDT", -8 * H),
    ("HST", -10 * H),
    ("HDT", -9 * H),
    ("AST", -4 * H),
    ("ADT", -3 * H),
    ("NST", -3 * H - 30 * M),
    ("NDT", -2 * H - 30 * M),
    // South America.
    ("BRT", -3 * H),
    ("ART", -3 * H),
    // Europe and Africa.
    ("WET", 0),
    ("WEST", H),
    ("BST", H),
    ("CET", H),
    ("CEST", 2 * H),
    ("MET", H),
    ("MEST", 2 * H),
    ("EET", 2 * H),
    ("EEST", 3 * H),
    ("MSK", 3 * H),
    ("WAT", H),
    ("CAT", 2 * H),
    ("EAT", 3 * H),
    ("SAST", 2 * H),
    // Asia and Oceania.
    ("PKT", 5 * H),
    ("ICT", 7 * H),
    ("WIB", 7 * H),
    ("HKT", 8 * H),
    ("SGT", 8 * H),
    ("JST", 9 * H),
    ("KST", 9 * H),
    ("AWST", 8 * H),
    ("ACST", 9 * H + 30 * M),
    ("AEST", 10 * H),
    ("AEDT", 11 * H),
    ("NZST", 12 * H),
];
const H: i32 = 3600;
const M: i32 = 60;
/// The largest offset accepted (±18:00), as Java's `ZoneOffset`.
const MAX_OFFSET: i32 = 18 * H;

/// The zone a date is read in when its text carries no offset.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Zone {
    /// Seconds east of UTC.
    Fixed(i32),
    /// An IANA zone: the offset depends on the date (summer time).
    Named(TimeZone),
}

impl Zone {
    /// The zone argument of `date(…, "zone")`: an offset, an abbreviation or an IANA name.
    pub(super) fn parse(zone: &str) -> Option<Zone> {
        if let Some(seconds) = offset(zone) {
            return Some(Zone::Fixed(seconds));
        }
        // IANA names have a letter first and no spaces; the lookup ignores ASCII case.
        if !zone.starts_with(|c: char| c.is_ascii_alphabetic()) || zone.contains(' ') {
            return None;
        }
        database().get(zone).ok().map(Zone::Named)
    }

    /// Epoch milliseconds of a civil date-time in this zone; `None` when the fields do not make
    /// a date (30 February). A local time in a summer-time gap is read as the time just after
    /// it, and one in an overlap as the earlier of the two (Java's and jiff's "compatible").
    pub(super) fn millis(&self, civil: Civil) -> Option<i64> {
        let [year, month, day, hour, minute, second] = civil.fields;
        let leap = (second - 59).max(0);
        let dt = DateTime::new(
            i16::try_from(year).ok()?,
            i8::try_from(month).ok()?,
            i8::try_from(day).ok()?,
            i8::try_from(hour).ok()?,
            i8::try_from(minute).ok()?,
            i8::try_from(second.min(59)).ok()?,
            0,
        )
        .ok()?;
        let seconds = match self {
            Zone::Fixed(east) => {
                let utc = TimeZone::UTC.to_timestamp(dt).ok()?;
                utc.as_second() - i64::from(*east)
            }
            Zone::Named(tz) => tz.to_timestamp(dt).ok()?.as_second(),
        };
        Some((seconds + leap) * 1000 + civil.millis)
    }
}

/// The fields of a date as read from its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Civil {
    /// Year, month, day, hour, minute, second (60 is a leap second).
    pub fields: [i64; 6],
    /// Milliseconds within the second.
    pub millis: i64,
}

/// The bundled IANA database, opened once.
fn database() -> &'static TimeZoneDatabase {
    static DB: OnceLock<TimeZoneDatabase> = OnceLock::new();
    DB.get_or_init(TimeZoneDatabase::bundled)
}

/// Seconds east of UTC for an abbreviation or an offset: `EST`, `Z`, `+02:00`, `-0500`,
/// `+2`, `+hh:mm:ss`, `+hhmmss`, `UTC+2`, `GMT-03:30`, `UT+5`; within ±18:00.
pub(super) fn offset(zone: &str) -> Option<i32> {
    if let Some((_, seconds)) = ABBREVIATIONS.iter().find(|(name, _)| *name == zone) {
        return Some(*seconds);
    }
    let signed = ["UTC", "GMT", "UT"]
        .iter()
        .find_map(|p| zone.strip_prefix(p))
        .unwrap_or(zone);
    let (sign, digits) = match signed.as_bytes().first()? {
        b'+' => (1, &signed[1..]),
        b'-' => (-1, &signed[1..]),
        _ => return None,
    };
    if !digits.bytes().all(|b| b.is_ascii_digit() || b == b':') {
        return None;
    }
    let parts: Vec<&str> = if digits.contains(':') {
        digits.split(':').collect()
    } else {
        match digits.len() {
            1 | 2 => vec![digits],
            4 => vec![&digits[..2], &digits[2..]],
            6 => vec![&digits[..2], &digits[2..4], &digits[4..]],
            _ => return None,
        }
    };
    let valid = |p: &&str, max: usize| {
        !p.is_empty() && p.len() <= max && p.bytes().all(|b| b.is_ascii_digit())
    };
    let (h, rest) = parts.split_first()?;
    if !valid(h, 2) || rest.len() > 2 || !rest.iter().all(|p| p.len() == 2 && valid(p, 2)) {
        return None;
    }
    let mut seconds = h.parse::<i32>().ok()? * H;
    let mut unit = M;
    for part in rest {
        let v = part.parse::<i32>().ok()?;
        if v >= 60 {
            return None;
        }
        seconds += v * unit;
        unit = 1;
    }
    (seconds <= MAX_OFFSET).then_some(sign * seconds)
}

/// The regular-expression fragment of a `z` zone in a date's text: an abbreviation of
/// [`ABBREVIATIONS`] (longest first), optionally followed by an offset (`UTC+2`), or a bare
/// offset (`+0200`, `-03:30`).
pub(super) fn fragment() -> String {
    let mut names: Vec<&str> = ABBREVIATIONS.iter().map(|(n, _)| *n).collect();
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    format!(
        r"(?:(?:{})(?:[+-]\d{{1,2}}(?::?\d{{2}}){{0,2}})?|[+-]\d{{2}}(?::?\d{{2}}){{1,2}})",
        names.join("|")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets() {
        assert_eq!(offset("EDT"), Some(-4 * H));
        assert_eq!(offset("ADT"), Some(-3 * H));
        assert_eq!(offset("+3"), Some(3 * H));
        assert_eq!(offset("UTC+5"), Some(5 * H));
        assert_eq!(offset("UT-5"), Some(-5 * H));
        assert_eq!(offset("GMT-03:30"), Some(-(3 * H + 30 * M)));
        assert_eq!(offset("-0330"), Some(-(3 * H + 30 * M)));
        assert_eq!(offset("+05:30:15"), Some(5 * H + 30 * M + 15));
        assert_eq!(offset("+053015"), Some(5 * H + 30 * M + 15));
        assert_eq!(offset("+18:00"), Some(18 * H));
        assert_eq!(offset("+18:01"), None);
        assert_eq!(offset("+1:60"), None);
        assert_eq!(offset("XYZ"), None);
        assert_eq!(offset("+123"), None);
        // Not digits (and never a slice inside a character).
        assert_eq!(offset("+1é2"), None);
        assert_eq!(offset("+é"), None);
    }

    #[test]
    fn named_zones_follow_summer_time() {
        let paris = Zone::parse("Europe/Paris").unwrap();
        let summer = Civil {
            fields: [2016, 6, 16, 8, 29, 3],
            millis: 0,
        };
        // 08:29:03 in Paris in June is 06:29:03 UTC (CEST, UTC+2).
        assert_eq!(paris.millis(summer), Some(1_466_058_543_000));
        let winter = Civil {
            fields: [2016, 1, 16, 8, 29, 3],
            millis: 0,
        };
        assert_eq!(paris.millis(winter), Some(1_452_929_343_000));
        assert_eq!(Zone::parse("europe/paris"), Some(paris));
        assert!(Zone::parse("Mars/Olympus").is_none());
        assert_eq!(Zone::parse("+02:00"), Some(Zone::Fixed(2 * H)));
        // 30 February is not a date.
        let bad = Civil {
            fields: [2016, 2, 30, 0, 0, 0],
            millis: 0,
        };
        assert_eq!(Zone::Fixed(0).millis(bad), None);
    }

    #[test]
    fn the_fragment_matches_known_abbreviations_only() {
        let re = super::super::engine::compile(&format!("^{}$", fragment())).unwrap();
        for ok in ["ADT", "CEST", "UTC+2", "GMT-03:30", "+0200", "-03:30", "Z"] {
            assert!(
                super::super::engine::Subject::new(ok).find(&re).is_some(),
                "{ok}"
            );
        }
        for bad in ["XYZ", "adt", "IST", "+2"] {
            assert!(
                super::super::engine::Subject::new(bad).find(&re).is_none(),
                "{bad}"
            );
        }
    }
}

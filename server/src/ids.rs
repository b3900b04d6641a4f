//! Random identifiers and secrets, and time stamps (ISO 8601 UTC, ISO 8601 durations).

use std::time::{SystemTime, UNIX_EPOCH};

/// `n` bytes from the operating system's random source, URL-safe base64 without padding.
///
/// Fails only when the operating system has no random source.
pub fn random_token(n: usize) -> Result<String, getrandom::Error> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes)?;
    Ok(base64url(&bytes))
}

/// A new resource id: 12 random bytes (96 bits), 16 URL-safe characters, never starting with
/// `-` (a command line would read such an id as an option).
pub fn new_id() -> Result<String, getrandom::Error> {
    loop {
        let id = random_token(12)?;
        if !id.starts_with('-') {
            return Ok(id);
        }
    }
}

/// URL-safe base64 without padding (RFC 4648 §5).
pub fn base64url(bytes: &[u8]) -> String {
    use base64::Engine as _;
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `2026-11-23T13:10:37.123Z` for a time in milliseconds since the epoch (clamped to the years
/// -9999 to 9999).
pub fn iso8601(ms: i64) -> String {
    let ms = ms.clamp(
        jiff::Timestamp::MIN.as_millisecond(),
        jiff::Timestamp::MAX.as_millisecond(),
    );
    let ts = jiff::Timestamp::from_millisecond(ms).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    format!("{ts:.3}")
}

/// Reads an ISO 8601 / RFC 3339 time into milliseconds since the epoch: with an offset
/// (`2026-11-23T14:10:37.5+01:00`, `…Z`), or without one (a date and time, or a bare date),
/// read as UTC. Impossible dates (`2026-02-30`) are refused, not rolled over.
pub fn parse_iso8601(text: &str) -> Option<i64> {
    if let Ok(ts) = text.parse::<jiff::Timestamp>() {
        return Some(ts.as_millisecond());
    }
    let civil = text.parse::<jiff::civil::DateTime>().ok()?;
    let ts = jiff::tz::TimeZone::UTC.to_timestamp(civil).ok()?;
    Some(ts.as_millisecond())
}

/// Reads an ISO 8601 duration such as `PT24H`, `P1D`, `PT90M`, `P1DT12H`, `PT0.5S` into
/// milliseconds (a year is 365 days, a month 30).
pub fn parse_duration(text: &str) -> Option<i64> {
    let rest = text.strip_prefix(['P', 'p'])?;
    if rest.is_empty() {
        return None;
    }
    let mut total = 0f64;
    let mut in_time = false;
    // Elements read before and after `T`: each part that is present has at least one.
    let mut elements = [0u32; 2];
    let mut number = String::new();
    for c in rest.chars() {
        match c.to_ascii_uppercase() {
            'T' if !in_time && number.is_empty() => in_time = true,
            d if d.is_ascii_digit() || d == '.' || d == ',' => {
                number.push(if d == ',' { '.' } else { d });
            }
            unit => {
                let digits = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
                if !digits(number.chars().next()) || !digits(number.chars().last()) {
                    return None;
                }
                let value: f64 = number.parse().ok()?;
                number.clear();
                elements[usize::from(in_time)] += 1;
                let ms = match (in_time, unit) {
                    (false, 'Y') => 365.0 * 86_400_000.0,
                    (false, 'M') => 30.0 * 86_400_000.0,
                    (false, 'W') => 7.0 * 86_400_000.0,
                    (false, 'D') => 86_400_000.0,
                    (true, 'H') => 3_600_000.0,
                    (true, 'M') => 60_000.0,
                    (true, 'S') => 1000.0,
                    _ => return None,
                };
                total += value * ms;
            }
        }
    }
    // A duration longer than any clock can go back is as good as "since the beginning".
    let complete = number.is_empty() && elements[usize::from(in_time)] > 0;
    complete.then(|| {
        if total.is_finite() && total < 9.0e18 {
            total as i64
        } else {
            i64::MAX
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_rfc4648() {
        assert_eq!(base64url(b""), "");
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
        assert_eq!(base64url(&[0xfb, 0xff]), "-_8");
        for _ in 0..2000 {
            let id = new_id().unwrap();
            assert_eq!(id.len(), 16);
            assert!(!id.starts_with('-'), "{id}");
        }
    }

    #[test]
    fn timestamps_round_trip() {
        for ms in [0, 951_782_400_000, 1_795_446_637_123, 4_102_444_800_000] {
            let text = iso8601(ms);
            assert_eq!(parse_iso8601(&text), Some(ms), "{text}");
        }
        assert_eq!(iso8601(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            parse_iso8601("2026-11-23T14:10:37+01:00"),
            parse_iso8601("2026-11-23T13:10:37Z")
        );
        assert_eq!(
            parse_iso8601("2026-11-23"),
            parse_iso8601("2026-11-23T00:00Z")
        );
        assert_eq!(parse_iso8601("2026-13-01"), None);
        // Impossible dates are refused, not rolled over into the next month.
        assert_eq!(parse_iso8601("2026-02-30T00:00:00Z"), None);
        assert_eq!(parse_iso8601("2026-02-29"), None);
        assert_eq!(parse_iso8601("2026-04-31"), None);
        assert_eq!(parse_iso8601("1900-02-29"), None);
        assert!(parse_iso8601("2028-02-29").is_some());
        assert!(parse_iso8601("2000-02-29T12:00Z").is_some());
        assert_eq!(parse_iso8601("yesterday"), None);
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("PT24H"), Some(86_400_000));
        assert_eq!(parse_duration("P1DT12H"), Some(129_600_000));
        assert_eq!(parse_duration("PT0.5S"), Some(500));
        assert_eq!(parse_duration("PT"), None);
        assert_eq!(parse_duration("P1DT"), None);
        assert_eq!(parse_duration("PT.5S"), None);
        assert_eq!(parse_duration("p1d"), Some(86_400_000));
        assert_eq!(parse_duration("PT99999999999999999999H"), Some(i64::MAX));
        assert_eq!(parse_duration("P"), None);
        assert_eq!(parse_duration("PT5X"), None);
        assert_eq!(parse_duration("24H"), None);
    }
}

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
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let index = (n >> (18 - 6 * i)) & 63;
            out.push(char::from(ALPHABET[index as usize]));
        }
    }
    out
}

/// Milliseconds since the Unix epoch, now.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// Days since 1970-01-01 → (year, month, day) (Howard Hinnant's civil-from-days).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// (year, month, day) → days since 1970-01-01.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let month = i64::from(month);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `2026-11-23T13:10:37.123Z` for a time in milliseconds since the epoch.
pub fn iso8601(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rest = ms.rem_euclid(86_400_000);
    let (y, mo, d) = civil_from_days(days);
    let (h, mi, s, milli) = (
        rest / 3_600_000,
        rest / 60_000 % 60,
        rest / 1000 % 60,
        rest % 1000,
    );
    format!("{y:04}-{mo:02}-{d:02}T{h:02}:{mi:02}:{s:02}.{milli:03}Z")
}

/// How many days `month` (1–12) of `year` has (proleptic Gregorian calendar).
fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Reads `YYYY-MM-DDTHH:MM[:SS[.fff…]](Z|±HH:MM)` (or a bare date) into milliseconds since
/// the epoch.
pub fn parse_iso8601(text: &str) -> Option<i64> {
    let num = |s: &str| -> Option<i64> {
        (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
            .then(|| s.parse().ok())
            .flatten()
    };
    let (date, time) = match text.split_once(['T', 't', ' ']) {
        Some((date, time)) => (date, Some(time)),
        None => (text, None),
    };
    let mut parts = date.splitn(3, '-');
    let year = num(parts.next()?)?;
    let month = u32::try_from(num(parts.next()?)?).ok()?;
    let day = u32::try_from(num(parts.next()?)?).ok()?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let mut ms = days_from_civil(year, month, day) * 86_400_000;
    if let Some(time) = time {
        let (clock, offset_ms) = if let Some(clock) = time.strip_suffix(['Z', 'z']) {
            (clock, 0)
        } else if let Some(i) = time.rfind(['+', '-']) {
            let (clock, offset) = time.split_at(i);
            let sign = if offset.starts_with('-') { -1 } else { 1 };
            let (oh, om) = offset[1..].split_once(':').unwrap_or((&offset[1..], "0"));
            (clock, sign * (num(oh)? * 3_600_000 + num(om)? * 60_000))
        } else {
            (time, 0)
        };
        let mut fields = clock.splitn(3, ':');
        let h = num(fields.next()?)?;
        let mi = num(fields.next()?)?;
        let (s, frac) = match fields.next() {
            Some(sec) => match sec.split_once('.') {
                Some((s, f)) => (num(s)?, f),
                None => (num(sec)?, ""),
            },
            None => (0, ""),
        };
        if h > 23 || mi > 59 || s > 60 {
            return None;
        }
        let millis = if frac.is_empty() {
            0
        } else {
            let digits: String = frac.chars().chain("000".chars()).take(3).collect();
            num(&digits)?
        };
        ms += h * 3_600_000 + mi * 60_000 + s * 1000 + millis - offset_ms;
    }
    Some(ms)
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

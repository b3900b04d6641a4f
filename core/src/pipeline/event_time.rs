//! Event time for stages that work by time (the reducer's windows, the sampler's bucket):
//! `eventTimestamp`, else `receivedTimestamp`, as epoch milliseconds. Pure arithmetic, no time
//! zone database and no clock, so the same events give the same times natively and in
//! WebAssembly.

use jobgraph_model::LogEvent;
use serde_json::Value;

/// An event's time in epoch milliseconds: `eventTimestamp`, else `receivedTimestamp`; `None`
/// when neither reads as a time.
///
/// ```ignore
/// let event = LogEvent::from_value(json!({"eventTimestamp": "1970-01-01T00:00:01.5Z"})).unwrap();
/// assert_eq!(event_time_ms(&event), Some(1500));
/// ```
pub(crate) fn event_time_ms(event: &LogEvent) -> Option<i64> {
    event
        .event_timestamp
        .as_ref()
        .and_then(timestamp_ms)
        .or_else(|| event.received_timestamp.as_ref().and_then(timestamp_ms))
}

/// A timestamp value in epoch milliseconds: a number (epoch milliseconds; a fraction is cut)
/// or ISO 8601 text (`2026-11-27T10:00:00Z`, `…T10:00:00.123+01:00`, a space or `t` for `T`,
/// no offset meaning UTC, a date alone meaning its midnight UTC).
pub(crate) fn timestamp_ms(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64().or_else(|| {
            n.as_f64()
                .filter(|f| f.is_finite() && f.abs() < 9.0e15)
                .map(|f| f as i64)
        }),
        Value::String(s) => iso_ms(s),
        _ => None,
    }
}

/// ISO 8601 text in epoch milliseconds.
pub(crate) fn iso_ms(text: &str) -> Option<i64> {
    let b = text.trim().as_bytes();
    let mut at = 0usize;
    let num = |at: &mut usize, width: usize| -> Option<i64> {
        let digits = b.get(*at..*at + width)?;
        if !digits.iter().all(u8::is_ascii_digit) {
            return None;
        }
        *at += width;
        Some(
            digits
                .iter()
                .fold(0i64, |n, d| n * 10 + i64::from(d - b'0')),
        )
    };
    let expect =
        |at: &mut usize, c: u8| -> Option<()> { (b.get(*at) == Some(&c)).then(|| *at += 1) };
    let year = num(&mut at, 4)?;
    expect(&mut at, b'-')?;
    let month = num(&mut at, 2)?;
    expect(&mut at, b'-')?;
    let day = num(&mut at, 2)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let days = days_from_civil(year, month, day);
    if at == b.len() {
        return Some(days * 86_400_000);
    }
    if !matches!(b[at], b'T' | b't' | b' ') {
        return None;
    }
    at += 1;
    let hour = num(&mut at, 2)?;
    expect(&mut at, b':')?;
    let minute = num(&mut at, 2)?;
    let second = if b.get(at) == Some(&b':') {
        at += 1;
        num(&mut at, 2)?
    } else {
        0
    };
    if hour > 23 || minute > 59 || second > 60 {
        return None;
    }
    let mut millis = 0i64;
    if matches!(b.get(at), Some(b'.' | b',')) {
        at += 1;
        let start = at;
        while b.get(at).is_some_and(u8::is_ascii_digit) {
            if at - start < 3 {
                millis = millis * 10 + i64::from(b[at] - b'0');
            }
            at += 1;
        }
        let read = at - start;
        if read == 0 {
            return None;
        }
        for _ in read..3 {
            millis *= 10;
        }
    }
    let offset_minutes = match b.get(at) {
        None => 0,
        Some(b'Z' | b'z') => {
            at += 1;
            0
        }
        Some(&sign @ (b'+' | b'-')) => {
            at += 1;
            let h = num(&mut at, 2)?;
            if b.get(at) == Some(&b':') {
                at += 1;
            }
            let m = num(&mut at, 2)?;
            let minutes = h * 60 + m;
            if sign == b'-' { -minutes } else { minutes }
        }
        Some(_) => return None,
    };
    if at != b.len() {
        return None;
    }
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset_minutes * 60;
    Some(seconds * 1000 + millis)
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        4 | 6 | 9 | 11 => 30,
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let doy = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn iso_text_and_epoch_milliseconds_read_as_the_same_time() {
        assert_eq!(iso_ms("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(iso_ms("1970-01-01 00:00:01.123456"), Some(1123));
        assert_eq!(
            iso_ms("2026-11-27T10:00:00+01:00"),
            iso_ms("2026-11-27T09:00:00Z")
        );
        assert_eq!(
            iso_ms("2026-11-27T10:00-0130"),
            iso_ms("2026-11-27T11:30:00Z")
        );
        assert_eq!(iso_ms("2024-02-29"), Some(1_709_164_800_000));
        assert_eq!(
            timestamp_ms(&json!(1_709_164_800_000i64)),
            Some(1_709_164_800_000)
        );
        assert_eq!(timestamp_ms(&json!(1.9)), Some(1));
        for bad in [
            "2023-02-29",
            "2026-13-01",
            "2026-11-27T25:00:00Z",
            "yesterday",
            "2026-11-27T10:00:00Zjunk",
            "2026-11-27T10:00:00.",
        ] {
            assert_eq!(iso_ms(bad), None, "{bad}");
        }
    }
}

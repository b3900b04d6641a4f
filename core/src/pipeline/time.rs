//! Event times as epoch milliseconds: an event's `eventTimestamp` is epoch milliseconds or ISO
//! 8601 text (`docs/pipeline.md`, "Events"); the sampler's bucket and the remapper's timestamp
//! need it as a number. Pure integer arithmetic: the same answer natively and in WebAssembly,
//! no clock and no time-zone database.
//!
//! ```
//! use jobgraph_core::pipeline::epoch_millis;
//! assert_eq!(epoch_millis("1970-01-01T00:00:01Z"), Some(1_000));
//! assert_eq!(epoch_millis("2007-12-03T10:15:30.00Z"), Some(1_196_676_930_000));
//! assert_eq!(epoch_millis("2024-01-02T03:04:05.678+02:00"), Some(1_704_157_445_678));
//! assert_eq!(epoch_millis("2024-01-02"), Some(1_704_153_600_000));
//! assert_eq!(epoch_millis("2024-02-30T00:00:00Z"), None); // no such day
//! ```

use serde_json::Value;

/// Epoch milliseconds of an ISO 8601 date-time: `YYYY-MM-DD`, then optionally `T` (or `t` or a
/// space) and `hh:mm`, `:ss`, a fraction of any length after `.` or `,` (milliseconds kept,
/// the rest dropped), and a zone `Z`, `±hh`, `±hhmm` or `±hh:mm`. Without a zone the time is
/// UTC. `None` for anything else, a day or time that does not exist included.
pub fn epoch_millis(text: &str) -> Option<i64> {
    let mut at = Cursor {
        bytes: text.as_bytes(),
        i: 0,
    };
    let year = at.digits(4)?;
    at.expect(b'-')?;
    let month = at.digits(2)?;
    at.expect(b'-')?;
    let day = at.digits(2)?;
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    let mut millis = days_from_civil(year, month, day) * 86_400_000;
    if at.done() {
        return Some(millis);
    }
    if !matches!(at.next()?, b'T' | b't' | b' ') {
        return None;
    }
    let hour = at.digits(2)?;
    at.expect(b':')?;
    let minute = at.digits(2)?;
    let mut second = 0;
    if at.peek() == Some(b':') {
        at.i += 1;
        second = at.digits(2)?;
    }
    let mut fraction = 0;
    if matches!(at.peek(), Some(b'.' | b',')) {
        at.i += 1;
        let start = at.i;
        while at.peek().is_some_and(|b| b.is_ascii_digit()) {
            if at.i - start < 3 {
                fraction = fraction * 10 + i64::from(at.bytes[at.i] - b'0');
            }
            at.i += 1;
        }
        let read = at.i - start;
        if read == 0 {
            return None;
        }
        for _ in read..3 {
            fraction *= 10;
        }
    }
    // 24:00 and leap seconds are not accepted: they name no instant of their own here.
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    millis += ((hour * 60 + minute) * 60 + second) * 1_000 + fraction;
    match at.next() {
        None => Some(millis),
        Some(b'Z' | b'z') if at.done() => Some(millis),
        Some(sign @ (b'+' | b'-')) => {
            let hours = at.digits(2)?;
            if at.peek() == Some(b':') {
                at.i += 1;
            }
            let minutes = if at.done() { 0 } else { at.digits(2)? };
            if !at.done() || hours > 23 || minutes > 59 {
                return None;
            }
            let offset = (hours * 60 + minutes) * 60_000;
            Some(if sign == b'+' {
                millis - offset
            } else {
                millis + offset
            })
        }
        Some(_) => None,
    }
}

/// Epoch milliseconds of a JSON value: an integer as it is, or ISO 8601 text
/// ([`epoch_millis`]); `None` for anything else (a fraction, an object, text that is not a
/// date-time).
pub(crate) fn value_millis(value: &Value) -> Option<i64> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => epoch_millis(s),
        _ => None,
    }
}

/// An event's time in epoch milliseconds: `eventTimestamp`, else `receivedTimestamp`
/// (epoch milliseconds, or ISO 8601 text); `None` when neither reads as a time (the reducer's windows).
pub fn event_time_ms(event: &jobgraph_model::LogEvent) -> Option<i64> {
    event
        .event_timestamp
        .as_ref()
        .and_then(value_millis)
        .or_else(|| event.received_timestamp.as_ref().and_then(value_millis))
}

struct Cursor<'a> {
    bytes: &'a [u8],
    i: usize,
}

impl Cursor<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.i).copied()
    }
    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.i += 1;
        Some(b)
    }
    fn done(&self) -> bool {
        self.i == self.bytes.len()
    }
    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.next()? == byte).then_some(())
    }
    /// Exactly `n` ASCII digits as a number.
    fn digits(&mut self, n: usize) -> Option<i64> {
        let piece = self.bytes.get(self.i..self.i + n)?;
        if !piece.iter().all(u8::is_ascii_digit) {
            return None;
        }
        self.i += n;
        Some(
            piece
                .iter()
                .fold(0, |acc, d| acc * 10 + i64::from(d - b'0')),
        )
    }
}

fn leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if leap(year) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (years 0–9999 here).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    // Count from March 1st, so that the leap day ends a (shifted) year; eras are 400 years.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y - era * 400;
    let shifted_month = (month + 9) % 12; // March = 0
    let day_of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_agree_with_known_dates() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(days_from_civil(2000, 3, 1), 11_017);
        assert_eq!(days_from_civil(2024, 2, 29), 19_782);
        assert_eq!(days_from_civil(0, 1, 1), -719_528);
        // Every day of four centuries follows the one before.
        let mut previous = days_from_civil(1899, 12, 31);
        for year in 1900..2300 {
            for month in 1..=12 {
                for day in 1..=days_in_month(year, month) {
                    let today = days_from_civil(year, month, day);
                    assert_eq!(today, previous + 1, "{year}-{month}-{day}");
                    previous = today;
                }
            }
        }
    }

    #[test]
    fn forms_of_iso_8601() {
        let base = 1_704_164_645_000; // 2024-01-02T03:04:05Z
        assert_eq!(epoch_millis("2024-01-02T03:04:05Z"), Some(base));
        assert_eq!(epoch_millis("2024-01-02t03:04:05z"), Some(base));
        assert_eq!(epoch_millis("2024-01-02 03:04:05"), Some(base));
        assert_eq!(epoch_millis("2024-01-02T03:04:05.6Z"), Some(base + 600));
        assert_eq!(
            epoch_millis("2024-01-02T03:04:05,678999Z"),
            Some(base + 678)
        );
        assert_eq!(epoch_millis("2024-01-02T03:04Z"), Some(base - 5_000));
        assert_eq!(epoch_millis("2024-01-02T05:04:05+02"), Some(base));
        assert_eq!(epoch_millis("2024-01-02T05:04:05+0200"), Some(base));
        assert_eq!(epoch_millis("2024-01-02T01:34:05-01:30"), Some(base));
        assert_eq!(epoch_millis("1969-12-31T23:59:59.999Z"), Some(-1));
    }

    #[test]
    fn what_is_not_a_time() {
        for text in [
            "",
            "2024",
            "2024-1-02",
            "2024-13-01",
            "2023-02-29",
            "2024-01-02T",
            "2024-01-02T24:00:00Z",
            "2024-01-02T03:60Z",
            "2024-01-02T03:04:05.Z",
            "2024-01-02T03:04:05Zjunk",
            "2024-01-02T03:04:05+2",
            "2024-01-02T03:04:05+02:00:00",
            "2024-01-02T03:04:05 UTC",
            "２０２４-01-02",
        ] {
            assert_eq!(epoch_millis(text), None, "{text:?}");
        }
    }

    #[test]
    fn values() {
        assert_eq!(
            value_millis(&serde_json::json!(1765481730000_i64)),
            Some(1765481730000)
        );
        assert_eq!(
            value_millis(&serde_json::json!("1970-01-01T00:00:00Z")),
            Some(0)
        );
        assert_eq!(value_millis(&serde_json::json!(1.5)), None);
        assert_eq!(value_millis(&serde_json::json!({"ms": 1})), None);
        assert_eq!(value_millis(&serde_json::json!(" ")), None);
    }
}

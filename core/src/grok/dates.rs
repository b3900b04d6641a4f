//! `date("format"[, "zone"])`: Java `DateTimeFormatter` / `SimpleDateFormat` symbols turned
//! into a regular-expression fragment that matches such dates, and a parser that turns the
//! matched text into epoch milliseconds. Zones (offsets, abbreviations, IANA names) are in
//! [`super::zones`].

use super::zones::{self, Civil, Zone};

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
const DAYS: &str = "(?:[Mm]on|[Tt]ue|[Ww]ed|[Tt]hu|[Ff]ri|[Ss]at|[Ss]un)";
const DAYS_FULL: &str =
    "(?:[Mm]onday|[Tt]uesday|[Ww]ednesday|[Tt]hursday|[Ff]riday|[Ss]aturday|[Ss]unday)";

/// One piece of a date format.
#[derive(Debug, Clone, PartialEq)]
enum Item {
    Year(usize),
    Month(usize),
    Day(usize),
    Hour24(usize),
    Hour12(usize),
    Minute,
    Second,
    Fraction(usize),
    AmPm,
    Weekday(usize),
    /// `Z` (+0200), `X`..`XXX` (Z or +02 / +0200 / +02:00), `z` (a zone name).
    Offset(char, usize),
    Literal(String),
}

/// A compiled date format.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct DateFormat {
    items: Vec<Item>,
    /// The zone when the text carries no offset (the zone argument, else UTC).
    zone: Zone,
}

impl DateFormat {
    /// Parses a Java date format and the optional zone argument.
    pub(super) fn new(format: &str, zone: Option<&str>) -> Result<Self, String> {
        let zone = match zone {
            None => Zone::Fixed(0),
            Some(z) => Zone::parse(z).ok_or_else(|| {
                format!("unknown time zone \"{z}\": use an IANA name such as \"Europe/Paris\", UTC, GMT, an offset such as \"+02:00\", \"+3\" or \"UTC+2\", or an abbreviation such as EST (docs/grok.md, \"Dates and zones\")")
            })?,
        };
        let chars: Vec<char> = format.chars().collect();
        let mut items = Vec::new();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            if c == '\'' {
                let Some(len) = chars[i + 1..].iter().position(|&q| q == '\'') else {
                    return Err(format!(
                        "unterminated quoted literal in date format \"{format}\": close it with '"
                    ));
                };
                let text: String = if len == 0 {
                    "'".into()
                } else {
                    chars[i + 1..i + 1 + len].iter().collect()
                };
                items.push(Item::Literal(text));
                i += len + 2;
                continue;
            }
            let run = chars[i..].iter().take_while(|&&d| d == c).count();
            let item = match c {
                'y' | 'u' => Item::Year(run),
                'M' | 'L' => Item::Month(run),
                'd' => Item::Day(run),
                'H' => Item::Hour24(run),
                'h' => Item::Hour12(run),
                'm' => Item::Minute,
                's' => Item::Second,
                'S' => Item::Fraction(run),
                'a' => Item::AmPm,
                'E' => Item::Weekday(run),
                'Z' | 'X' | 'x' | 'z' => Item::Offset(c, run),
                c if c.is_ascii_alphabetic() => {
                    return Err(format!(
                        "unsupported date symbol '{c}' in \"{format}\": use y, M, d, H, h, m, s, S, a, E, Z, X or z, and quote literal letters ('T')"
                    ));
                }
                _ => Item::Literal(chars[i..i + run].iter().collect()),
            };
            items.push(item);
            i += run;
        }
        Ok(DateFormat { items, zone })
    }

    /// The fragment that matches dates of this format (no capturing group).
    pub(super) fn fragment(&self) -> String {
        let mut out = String::new();
        for item in &self.items {
            match item {
                Item::Year(2) => out.push_str(r"\d{2}"),
                Item::Year(_) => out.push_str(r"\d{4}"),
                Item::Month(n) if *n >= 3 => {
                    out.push_str("(?:");
                    for (k, m) in MONTHS.iter().enumerate() {
                        if k > 0 {
                            out.push('|');
                        }
                        let (first, rest) = m.split_at(1);
                        let rest = if *n == 3 { &rest[..2] } else { rest };
                        out.push_str(&format!("[{}{}]{rest}", first.to_uppercase(), first));
                    }
                    out.push(')');
                }
                Item::Month(1) | Item::Day(1) | Item::Hour24(1) | Item::Hour12(1) => {
                    out.push_str(r"\d{1,2}");
                }
                Item::Month(_) | Item::Day(_) | Item::Hour24(_) | Item::Hour12(_) => {
                    out.push_str(r"\d{2}");
                }
                Item::Minute | Item::Second => out.push_str(r"\d{2}"),
                Item::Fraction(n) => out.push_str(&format!(r"\d{{{n}}}")),
                Item::AmPm => out.push_str("(?:[AaPp][Mm])"),
                Item::Weekday(n) if *n >= 4 => out.push_str(DAYS_FULL),
                Item::Weekday(_) => out.push_str(DAYS),
                Item::Offset('Z', _) | Item::Offset('x', _) => out.push_str(r"[+-]\d{2}:?\d{2}"),
                Item::Offset('X', _) => out.push_str(r"(?:Z|[+-]\d{2}(?::?\d{2})?)"),
                Item::Offset(..) => out.push_str(&zones::fragment()),
                Item::Literal(text) => out.push_str(&regress::escape(text)),
            }
        }
        out
    }

    /// Epoch milliseconds of `text` (which the fragment matched), or `None` when a field is out
    /// of range (month 13, hour 25, 30 February…). A format without a year uses
    /// `current_year`; one without any date field (a time only) is read on 1970-01-01, as
    /// Datadog does.
    pub(super) fn millis(&self, text: &str, current_year: impl Fn() -> i64) -> Option<i64> {
        let mut rest = text;
        let (mut year, mut month, mut day) = (None, 1, 1);
        let (mut hour, mut minute, mut second, mut millis) = (0, 0, 0, 0);
        let mut pm = None;
        let mut offset = None;
        for item in &self.items {
            match item {
                Item::Year(n) => {
                    let v = take_digits(&mut rest, if *n == 2 { 2 } else { 4 })?;
                    year = Some(if *n == 2 { 2000 + v } else { v });
                }
                Item::Month(n) if *n >= 3 => {
                    let lower = rest.get(..3)?.to_ascii_lowercase();
                    let k = MONTHS.iter().position(|m| m.starts_with(&lower))?;
                    let len = if *n == 3 { 3 } else { MONTHS[k].len() };
                    rest = rest.get(len..)?;
                    month = k as i64 + 1;
                }
                Item::Month(n) => month = take_digits(&mut rest, (*n).max(2))?,
                Item::Day(n) => day = take_digits(&mut rest, (*n).max(2))?,
                Item::Hour24(n) | Item::Hour12(n) => hour = take_digits(&mut rest, (*n).max(2))?,
                Item::Minute => minute = take_digits(&mut rest, 2)?,
                Item::Second => second = take_digits(&mut rest, 2)?,
                Item::Fraction(n) => {
                    let v = take_digits(&mut rest, *n)?;
                    millis = match n {
                        1 => v * 100,
                        2 => v * 10,
                        3 => v,
                        n => v / 10_i64.pow(u32::try_from(n - 3).ok()?),
                    };
                }
                Item::AmPm => {
                    pm = Some(rest.get(..1)?.eq_ignore_ascii_case("p"));
                    rest = rest.get(2..)?;
                }
                Item::Weekday(_) => {
                    let len = rest.chars().take_while(char::is_ascii_alphabetic).count();
                    rest = &rest[len..];
                }
                Item::Offset(..) => {
                    let len = rest
                        .char_indices()
                        .find(|(_, c)| !(c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | ':')))
                        .map_or(rest.len(), |(i, _)| i);
                    offset = Some(zones::offset(&rest[..len])?);
                    rest = &rest[len..];
                }
                Item::Literal(text) => rest = rest.strip_prefix(text.as_str())?,
            }
        }
        if let Some(pm) = pm {
            if !(1..=12).contains(&hour) {
                return None;
            }
            hour = hour % 12 + if pm { 12 } else { 0 };
        }
        let has_date = self
            .items
            .iter()
            .any(|i| matches!(i, Item::Year(_) | Item::Month(_) | Item::Day(_)));
        let year = match year {
            Some(y) => y,
            None if has_date => current_year(),
            None => 1970,
        };
        if hour > 23 || minute > 59 || second > 60 {
            return None;
        }
        let civil = Civil {
            fields: [year, month, day, hour, minute, second],
            millis,
        };
        match offset {
            Some(east) => Zone::Fixed(east).millis(civil),
            None => self.zone.millis(civil),
        }
    }
}

fn take_digits(rest: &mut &str, max: usize) -> Option<i64> {
    let len = rest
        .bytes()
        .take(max)
        .take_while(u8::is_ascii_digit)
        .count();
    if len == 0 {
        return None;
    }
    let v = rest[..len].parse().ok()?;
    *rest = &rest[len..];
    Some(v)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
pub(super) fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The current UTC year (for formats without a year, as Datadog does).
pub(super) fn current_year() -> i64 {
    let secs = web_time::SystemTime::now()
        .duration_since(web_time::SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    // Invert days_from_civil coarsely: the year whose 1 January is the last one not after today.
    let mut year = 1970 + days / 366;
    while days_from_civil(year + 1, 1, 1) <= days {
        year += 1;
    }
    year
}

/// Epoch milliseconds of an ISO 8601 date-time (`2024-01-02T03:04:05.678Z`, `+02:00` offsets,
/// date only, space instead of `T`), for `isoDateTimeToMillis`.
pub(super) fn iso_millis(text: &str) -> Option<i64> {
    let b = text.as_bytes();
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let s = text.get(r)?;
        s.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| s.parse().ok())?
    };
    if b.len() < 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (year, month, day) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let mut ms = 0;
    let mut offset = 0;
    if b.len() > 10 {
        if !matches!(b[10], b'T' | b' ') || b.len() < 16 || b[13] != b':' {
            return None;
        }
        let (h, m) = (num(11..13)?, num(14..16)?);
        let mut i = 16;
        let mut s = 0;
        if b.get(i) == Some(&b':') {
            s = num(17..19)?;
            i = 19;
            if matches!(b.get(i), Some(b'.' | b',')) {
                let len = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
                let frac = format!("{:0<3}", &text[i + 1..i + 1 + len.min(3)]);
                ms = frac.parse::<i64>().ok()?;
                i += 1 + len;
            }
        }
        let zone = &text[i..];
        if !zone.is_empty() {
            offset = i64::from(zones::offset(zone)?);
        }
        if h > 23 || m > 59 || s > 60 {
            return None;
        }
        ms += ((h * 60 + m) * 60 + s - offset) * 1000;
    }
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return None;
    }
    Some(days_from_civil(year, month, day) * 86_400_000 + ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(format: &str, zone: Option<&str>, text: &str) -> Option<i64> {
        let f = DateFormat::new(format, zone).ok()?;
        let re = super::super::engine::compile(&format!("^{}$", f.fragment())).ok()?;
        super::super::engine::Subject::new(text).find(&re)?;
        f.millis(text, || 2000)
    }

    #[test]
    fn formats_and_zones() {
        assert_eq!(
            parse("yyyy-MM-dd HH:mm:ss", None, "2024-01-02 03:04:05"),
            Some(1_704_164_645_000)
        );
        assert_eq!(
            parse("dd/MMM/yyyy:HH:mm:ss Z", None, "10/Oct/2000:13:55:36 -0700"),
            Some(971_211_336_000)
        );
        assert_eq!(
            parse(
                "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
                None,
                "2024-01-02T03:04:05.678+02:00"
            ),
            Some(1_704_157_445_678)
        );
        assert_eq!(
            parse("MM/dd/yyyy h:mm a", Some("UTC"), "01/02/2024 3:04 PM"),
            Some(1_704_207_840_000)
        );
        assert_eq!(
            parse("yyyy-MM-dd HH:mm", Some("+01:00"), "2024-01-02 03:04"),
            Some(1_704_161_040_000)
        );
        assert_eq!(
            parse("MMM d HH:mm:ss", None, "Jan 2 03:04:05"),
            Some(946_782_245_000)
        );
        assert!(DateFormat::new("yyyy", Some("Mars/Olympus")).is_err());
        // A time only is read on the epoch day; a named zone follows summer time.
        assert_eq!(parse("HH:mm:ss", None, "14:20:15"), Some(51_615_000));
        assert_eq!(parse("hh:mm:ss a", None, "02:20:15 PM"), Some(51_615_000));
        assert_eq!(
            parse("yyyy-MM-dd HH:mm", Some("Europe/Paris"), "2016-06-16 08:29"),
            Some(1_466_058_540_000)
        );
        assert_eq!(
            parse(
                "yyyy-MM-dd HH:mm:ss.SSS z",
                None,
                "2007-08-31 19:22:22.427 ADT"
            ),
            Some(1_188_598_942_427)
        );
        // An abbreviation not in the table does not match; 30 February sets nothing.
        assert_eq!(parse("HH:mm z", None, "10:00 XYZ"), None);
        assert!(
            DateFormat::new("yyyy-MM-dd", None)
                .unwrap()
                .millis("2016-02-30", || 2000)
                .is_none()
        );
        assert_eq!(
            iso_millis("2024-01-02T03:04:05.678Z"),
            Some(1_704_164_645_678)
        );
        assert_eq!(iso_millis("2024-01-02"), Some(1_704_153_600_000));
        assert!(current_year() >= 2024);
    }
}

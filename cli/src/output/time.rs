//! Timestamps in a time zone (`--timezone`, default the system's).

use jiff::tz::TimeZone;

use super::Format;

/// Fields that hold timestamps: shown in the time zone by table and csv, left out by
/// `--no-timestamps`.
pub const TIMESTAMP_KEYS: &[&str] = &[
    "createdAt",
    "updatedAt",
    "eventTimestamp",
    "receivedTimestamp",
    "startedAt",
    "endedAt",
];

/// A time zone by IANA name (`Europe/Paris`), `UTC`/`Z`, `local`, or a fixed offset
/// (`+01:00`, `-0530`).
pub fn parse_timezone(text: &str) -> Result<TimeZone, String> {
    let text = text.trim();
    match text {
        "" | "local" | "system" => return Ok(TimeZone::system()),
        "UTC" | "utc" | "Z" | "z" => return Ok(TimeZone::UTC),
        _ => {}
    }
    if let Some(offset) = parse_offset(text) {
        return Ok(TimeZone::fixed(offset));
    }
    TimeZone::get(text).map_err(|_| {
        format!(
            "unknown time zone {text:?}: use an IANA name (Europe/Paris), UTC or an offset (+01:00)"
        )
    })
}

fn parse_offset(text: &str) -> Option<jiff::tz::Offset> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) || !(digits.len() == 2 || digits.len() == 4) {
        return None;
    }
    let hours: i32 = digits.get(..2)?.parse().ok()?;
    let minutes: i32 = digits
        .get(2..)
        .filter(|m| !m.is_empty())
        .map_or(Some(0), |m| m.parse().ok())?;
    if hours > 23 || minutes > 59 {
        return None;
    }
    jiff::tz::Offset::from_seconds(sign * (hours * 3600 + minutes * 60)).ok()
}

/// `text` (an ISO 8601 instant) in `zone`: `2026-11-23 14:10:37` in a table,
/// `2026-11-23T14:10:37.123+01:00` in csv; `None` when it is not an instant.
pub fn localize(text: &str, zone: &TimeZone, format: Format) -> Option<String> {
    let instant: jiff::Timestamp = text.parse().ok()?;
    let zoned = instant.to_zoned_datetime(zone.clone());
    Some(match format {
        Format::Table => zoned.strftime("%Y-%m-%d %H:%M:%S").to_string(),
        _ => format!(
            "{}.{:03}{}",
            zoned.strftime("%Y-%m-%dT%H:%M:%S"),
            zoned.millisecond(),
            zoned.strftime("%:z")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zones_and_offsets() {
        let t = "2026-11-23T13:10:37.123Z";
        let paris = parse_timezone("Europe/Paris").unwrap();
        assert_eq!(
            localize(t, &paris, Format::Table).unwrap(),
            "2026-11-23 14:10:37"
        );
        let off = parse_timezone("-05:30").unwrap();
        assert_eq!(
            localize(t, &off, Format::Csv).unwrap(),
            "2026-11-23T07:40:37.123-05:30"
        );
        assert!(parse_timezone("Mars/Olympus").is_err());
        assert!(parse_timezone("+25:00").is_err());
        assert_eq!(localize("not a time", &TimeZone::UTC, Format::Table), None);
    }
}

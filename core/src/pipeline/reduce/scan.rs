//! The byte scanners of the four default masks that are on (`ipport`, `timestamp`, `uuid`,
//! `number`): each follows the public service's regular expression (which uses lookbehind and
//! atomic groups, beyond a linear-time engine) and returns where its match starting at a word
//! start ends. Used by [`super::mask`].

/// A letter, digit or `_` (ASCII): what `\w` matches in the default masks.
#[inline]
pub(crate) fn is_word(b: u8) -> bool {
    WORD[b as usize]
}

/// [`is_word`] of every byte.
pub(super) static WORD: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_';
        b += 1;
    }
    table
};

#[inline]
fn digits(text: &[u8], at: usize, min: usize, max: usize) -> Option<usize> {
    let mut end = at;
    while end < text.len() && end - at < max && text[end].is_ascii_digit() {
        end += 1;
    }
    (end - at >= min).then_some(end)
}

#[inline]
fn byte(text: &[u8], at: usize, want: u8) -> Option<usize> {
    (text.get(at) == Some(&want)).then_some(at + 1)
}

#[inline]
fn space(text: &[u8], at: usize) -> Option<usize> {
    matches!(
        text.get(at),
        Some(b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
    )
    .then_some(at + 1)
}

/// `(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?`
pub(super) fn ipport(text: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    for _ in 0..3 {
        i = digits(text, i, 1, 3)?;
        i = byte(text, i, b'.')?;
    }
    i = digits(text, i, 1, 3)?;
    if let Some(after) = byte(text, i, b':').and_then(|j| digits(text, j, 1, 5)) {
        i = after;
    }
    Some(i)
}

/// `[.,]\d{1,12}`, optional.
fn fraction(text: &[u8], at: usize) -> usize {
    match text.get(at) {
        Some(b'.' | b',') => digits(text, at + 1, 1, 12).unwrap_or(at),
        _ => at,
    }
}

/// `\s?[AP]M`, optional.
fn meridiem(text: &[u8], at: usize) -> usize {
    let try_at = |i: usize| -> Option<usize> {
        match text.get(i) {
            Some(b'A' | b'P') => byte(text, i + 1, b'M'),
            _ => None,
        }
    };
    space(text, at)
        .and_then(try_at)
        .or_else(|| try_at(at))
        .unwrap_or(at)
}

/// The `timestamp` mask's four forms, tried in its order.
pub(super) fn timestamp(text: &[u8], at: usize) -> Option<usize> {
    iso_like(text, at)
        .or_else(|| slashed_date(text, at))
        .or_else(|| clock(text, at))
        .or_else(|| common_log(text, at))
}

/// `\d{4}-\d{2}-\d{2}(?:T|\s)\d{2}:\d{2}:\d{2}(?:[.,]\d{1,12})?(?:Z|[+-]\d{2}:?\d{2}|\sUTC)?`
fn iso_like(text: &[u8], at: usize) -> Option<usize> {
    let mut i = digits(text, at, 4, 4)?;
    i = byte(text, i, b'-')?;
    i = digits(text, i, 2, 2)?;
    i = byte(text, i, b'-')?;
    i = digits(text, i, 2, 2)?;
    i = byte(text, i, b'T').or_else(|| space(text, i))?;
    i = digits(text, i, 2, 2)?;
    i = byte(text, i, b':')?;
    i = digits(text, i, 2, 2)?;
    i = byte(text, i, b':')?;
    i = digits(text, i, 2, 2)?;
    i = fraction(text, i);
    let zone = byte(text, i, b'Z')
        .or_else(|| {
            let j = match text.get(i) {
                Some(b'+' | b'-') => i + 1,
                _ => return None,
            };
            let j = digits(text, j, 2, 2)?;
            let j = byte(text, j, b':').unwrap_or(j);
            digits(text, j, 2, 2)
        })
        .or_else(|| {
            let j = space(text, i)?;
            (text.get(j..j + 3) == Some(b"UTC")).then_some(j + 3)
        });
    Some(zone.unwrap_or(i))
}

/// `\d{1,4}/\d{1,2}/\d{1,4}(,?\s\d{1,2}:\d{2}:\d{1,2}(?:[.,]\d{1,12})?(?:\s?[AP]M)?)?`
fn slashed_date(text: &[u8], at: usize) -> Option<usize> {
    let mut i = digits(text, at, 1, 4)?;
    i = byte(text, i, b'/')?;
    i = digits(text, i, 1, 2)?;
    i = byte(text, i, b'/')?;
    i = digits(text, i, 1, 4)?;
    let time = (|| {
        let j = byte(text, i, b',').unwrap_or(i);
        let j = space(text, j)?;
        let j = digits(text, j, 1, 2)?;
        let j = byte(text, j, b':')?;
        let j = digits(text, j, 2, 2)?;
        let j = byte(text, j, b':')?;
        let j = digits(text, j, 1, 2)?;
        Some(meridiem(text, fraction(text, j)))
    })();
    Some(time.unwrap_or(i))
}

/// `\d{1,2}:\d{2}:\d{1,2}(?:[.,]\d{1,12})?(?:\s?[AP]M)?`
fn clock(text: &[u8], at: usize) -> Option<usize> {
    let mut i = digits(text, at, 1, 2)?;
    i = byte(text, i, b':')?;
    i = digits(text, i, 2, 2)?;
    i = byte(text, i, b':')?;
    i = digits(text, i, 1, 2)?;
    Some(meridiem(text, fraction(text, i)))
}

/// `\d{2}/[A-Za-z]{3}/\d{4}(?:[:\s]\d{2}:\d{2}:\d{2}(?:\s\+[0-9]{4})?)?`
fn common_log(text: &[u8], at: usize) -> Option<usize> {
    let mut i = digits(text, at, 2, 2)?;
    i = byte(text, i, b'/')?;
    if !text.get(i..i + 3)?.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    i = byte(text, i + 3, b'/')?;
    i = digits(text, i, 4, 4)?;
    let time = (|| {
        let j = byte(text, i, b':').or_else(|| space(text, i))?;
        let j = digits(text, j, 2, 2)?;
        let j = byte(text, j, b':')?;
        let j = digits(text, j, 2, 2)?;
        let j = byte(text, j, b':')?;
        let j = digits(text, j, 2, 2)?;
        let zone = space(text, j)
            .and_then(|k| byte(text, k, b'+'))
            .and_then(|k| digits(text, k, 4, 4));
        Some(zone.unwrap_or(j))
    })();
    Some(time.unwrap_or(i))
}

#[inline]
fn hex(text: &[u8], at: usize, n: usize) -> Option<usize> {
    let run = text.get(at..at + n)?;
    run.iter().all(u8::is_ascii_hexdigit).then_some(at + n)
}

/// Whether `at` ends a word: the end of the text or a character that is not `\w`.
#[inline]
fn word_end(text: &[u8], at: usize) -> bool {
    text.get(at).is_none_or(|b| !is_word(*b))
}

/// `[a-fA-F0-9]{8}[-,_:]?[a-fA-F0-9]{4}[-,_:]?…{4}[-,_:]?…{4}[-,_:]?[a-fA-F0-9]{12}`, then no
/// word character.
pub(super) fn uuid(text: &[u8], at: usize) -> Option<usize> {
    let mut i = hex(text, at, 8)?;
    for n in [4, 4, 4, 12] {
        if matches!(text.get(i), Some(b'-' | b',' | b'_' | b':')) {
            i += 1;
        }
        i = hex(text, i, n)?;
    }
    word_end(text, i).then_some(i)
}

/// The `number` mask: `0x` and up to 100 hexadecimal digits, or a decimal number with an
/// optional sign, fraction and exponent (up to 100 digits each), then no word character. Its
/// decimal part is an atomic group: the longest form wins and is not given back.
pub(super) fn number(text: &[u8], at: usize) -> Option<usize> {
    if text.get(at) == Some(&b'0') && matches!(text.get(at + 1), Some(b'x' | b'X')) {
        let mut i = at + 2;
        while i < text.len() && i - (at + 2) < 100 && text[i].is_ascii_hexdigit() {
            i += 1;
        }
        if i > at + 2 && word_end(text, i) {
            return Some(i);
        }
    }
    let mut i = at;
    if matches!(text.get(i), Some(b'+' | b'-')) {
        i += 1;
    }
    let whole_end = digits(text, i, 0, 100).unwrap_or(i);
    let mut end = whole_end;
    if text.get(whole_end) == Some(&b'.')
        && let Some(fraction_end) = digits(text, whole_end + 1, 1, 100)
    {
        end = fraction_end;
        if matches!(text.get(end), Some(b'e' | b'E')) {
            let mut k = end + 1;
            if matches!(text.get(k), Some(b'+' | b'-')) {
                k += 1;
            }
            if let Some(exp_end) = digits(text, k, 1, 100) {
                end = exp_end;
            }
        }
    } else if whole_end == i {
        return None;
    }
    word_end(text, end).then_some(end)
}

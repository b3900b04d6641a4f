//! `useragent`: a small heuristic User-Agent parser (no regex database, to keep the WebAssembly
//! module small): the browser's family and version, the operating system's family and the
//! device category (`Mobile`, `Tablet`, `Bot`, `Desktop`, `Other`).

use serde_json::{Map, Value, json};

/// Browser tokens, most specific first: (token in the text, family).
const BROWSERS: [(&str, &str); 11] = [
    ("Edg/", "Edge"),
    ("Edge/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("CriOS/", "Chrome Mobile iOS"),
    ("Chrome/", "Chrome"),
    ("Version/", "Safari"),
    ("MSIE ", "IE"),
    ("curl/", "curl"),
    ("Googlebot/", "Googlebot"),
];

/// Operating-system tokens, most specific first: (token, family).
const SYSTEMS: [(&str, &str); 8] = [
    ("Windows", "Windows"),
    ("iPhone", "iOS"),
    ("iPad", "iOS"),
    ("Android", "Android"),
    ("CrOS", "Chrome OS"),
    ("Mac OS X", "Mac OS X"),
    ("Linux", "Linux"),
    ("Macintosh", "Mac OS X"),
];

/// `{browser: {family, major?, minor?, patch?}, os: {family}, device: {category}}`.
pub(super) fn parse(agent: &str) -> Value {
    let mut browser = Map::new();
    let found = BROWSERS.iter().find(|(token, _)| agent.contains(token));
    match found {
        Some((token, family)) => {
            browser.insert("family".into(), Value::from(*family));
            let start = agent.find(token).map_or(0, |i| i + token.len());
            let version: &str = agent[start..]
                .split(|c: char| !(c.is_ascii_digit() || c == '.'))
                .next()
                .unwrap_or_default();
            for (key, part) in ["major", "minor", "patch"].iter().zip(version.split('.')) {
                if !part.is_empty() {
                    browser.insert((*key).into(), Value::from(part));
                }
            }
        }
        None => {
            browser.insert("family".into(), Value::from("Other"));
        }
    }
    let os = SYSTEMS
        .iter()
        .find(|(token, _)| agent.contains(token))
        .map_or("Other", |(_, family)| *family);
    let lower = agent.to_ascii_lowercase();
    let category = if ["bot", "spider", "crawl", "curl/", "wget/"]
        .iter()
        .any(|t| lower.contains(t))
    {
        "Bot"
    } else if lower.contains("ipad") || lower.contains("tablet") {
        "Tablet"
    } else if lower.contains("mobi") || lower.contains("iphone") || lower.contains("android") {
        "Mobile"
    } else if os == "Other" {
        "Other"
    } else {
        "Desktop"
    };
    json!({"browser": browser, "os": {"family": os}, "device": {"category": category}})
}

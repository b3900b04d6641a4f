//! jobgraph's grok engine beside the `grok` crate (Oniguruma) on the same 3-rule parser and the
//! same generated access log, one thread. Prints lines/s of each (median of the runs) and
//! checks that both engines pick the same rule for every line and extract the same text.
//!
//! Usage: cargo run --release -- [LINES (default 1000000)] [RUNS (default 3)]

use std::time::Instant;

use serde_json::{Map, Value};

/// The three rules, Logstash patterns that both engines read the same way. First match wins.
const RULES: [(&str, &str); 3] = [
    (
        "app",
        r"%{TIMESTAMP_ISO8601:timestamp} %{LOGLEVEL:level} \[%{NOTSPACE:thread}\] %{GREEDYDATA:msg}",
    ),
    (
        "combined",
        r#"%{IPORHOST:clientip} %{USER:ident} %{USER:auth} \[%{HTTPDATE:timestamp}\] "%{WORD:verb} %{NOTSPACE:request} HTTP/%{NUMBER:httpversion}" %{NUMBER:response} (?:%{NUMBER:bytes}|-) %{QS:referrer} %{QS:agent}"#,
    ),
    (
        "common",
        r#"%{IPORHOST:clientip} %{USER:ident} %{USER:auth} \[%{HTTPDATE:timestamp}\] "%{WORD:verb} %{NOTSPACE:request} HTTP/%{NUMBER:httpversion}" %{NUMBER:response} (?:%{NUMBER:bytes}|-)"#,
    ),
];

/// A small deterministic generator (xorshift64*), so every run parses the same lines.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }
}

const PATHS: [&str; 8] = [
    "/",
    "/index.html",
    "/api/v1/orders",
    "/api/v1/orders/1234/items?limit=50",
    "/static/app.3f9c2b.js",
    "/images/logo.png",
    "/checkout/confirm",
    "/search?q=red+shoes&page=2",
];
const AGENTS: [&str; 4] = [
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
    "curl/8.4.0",
    "Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0",
];
const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// 70 % combined access log, 20 % common, 10 % application lines.
fn line(rng: &mut Rng) -> String {
    let kind = rng.below(10);
    if kind == 0 {
        let level = rng.pick(&["INFO", "WARN", "ERROR", "DEBUG"]);
        return format!(
            "2026-11-{:02}T{:02}:{:02}:{:02}.{:03}Z {level} [worker-{}] order {} processed in {} ms",
            1 + rng.below(28),
            rng.below(24),
            rng.below(60),
            rng.below(60),
            rng.below(1000),
            rng.below(16),
            rng.below(1_000_000),
            rng.below(900)
        );
    }
    let ip = format!(
        "{}.{}.{}.{}",
        1 + rng.below(223),
        rng.below(256),
        rng.below(256),
        1 + rng.below(254)
    );
    let user = if rng.below(5) == 0 { "alice" } else { "-" };
    let date = format!(
        "{:02}/{}/2026:{:02}:{:02}:{:02} +0000",
        1 + rng.below(28),
        MONTHS[rng.below(12) as usize],
        rng.below(24),
        rng.below(60),
        rng.below(60)
    );
    let verb = rng.pick(&["GET", "GET", "GET", "POST", "PUT", "DELETE"]);
    let path = rng.pick(&PATHS);
    let status = rng.pick(&["200", "200", "200", "304", "404", "500", "201"]);
    let bytes = if rng.below(10) == 0 {
        "-".to_owned()
    } else {
        rng.below(100_000).to_string()
    };
    let common = format!("{ip} - {user} [{date}] \"{verb} {path} HTTP/1.1\" {status} {bytes}");
    if kind <= 2 {
        return common;
    }
    let referrer = if rng.below(3) == 0 {
        "-".to_owned()
    } else {
        format!("https://shop.example.com{}", rng.pick(&PATHS))
    };
    format!("{common} \"{referrer}\" \"{}\"", rng.pick(&AGENTS))
}

/// What one engine made of every line: the rule per line (or none) and a checksum of the
/// extracted text, plus the time it took.
struct Outcome {
    rules: Vec<Option<usize>>,
    extracted_bytes: usize,
    seconds: f64,
}

fn run_jobgraph(lines: &[String]) -> Outcome {
    let text: String = RULES
        .iter()
        .map(|(name, pattern)| format!("{name} {pattern}\n"))
        .collect();
    let parser = match jobgraph_core::grok::GrokParser::new(&text, "") {
        Ok(parser) => parser,
        Err(e) => {
            eprintln!("jobgraph: the rules do not compile: {e}");
            std::process::exit(1);
        }
    };
    let mut rules = Vec::with_capacity(lines.len());
    let mut extracted_bytes = 0;
    let start = Instant::now();
    for line in lines {
        match parser.parse(line) {
            Ok(Some(found)) => {
                extracted_bytes += text_bytes(&found.attributes);
                rules.push(RULES.iter().position(|(n, _)| *n == found.matching_rule_name));
            }
            Ok(None) => rules.push(None),
            Err(e) => {
                eprintln!("jobgraph: {e}");
                rules.push(None);
            }
        }
    }
    Outcome {
        rules,
        extracted_bytes,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// Bytes of the strings in extracted attributes (numbers as their text).
fn text_bytes(map: &Map<String, Value>) -> usize {
    map.values()
        .map(|v| match v {
            Value::String(s) => s.len(),
            Value::Object(o) => text_bytes(o),
            other => other.to_string().len(),
        })
        .sum()
}

fn run_oniguruma(lines: &[String]) -> Outcome {
    let grok = grok::Grok::with_default_patterns();
    let patterns: Vec<grok::Pattern> = RULES
        .iter()
        .map(|(name, pattern)| match grok.compile(&format!("^{pattern}$"), true) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("grok crate: rule {name} does not compile: {e}");
                std::process::exit(1);
            }
        })
        .collect();
    let mut rules = Vec::with_capacity(lines.len());
    let mut extracted_bytes = 0;
    let start = Instant::now();
    for line in lines {
        let mut found = None;
        for (i, pattern) in patterns.iter().enumerate() {
            if let Some(matches) = pattern.match_against(line) {
                // The same work as an event's attributes: every capture into a JSON object.
                let mut attributes = Map::new();
                for (name, value) in matches.iter() {
                    attributes.insert(name.to_owned(), Value::String(value.to_owned()));
                }
                extracted_bytes += text_bytes(&attributes);
                found = Some(i);
                break;
            }
        }
        rules.push(found);
    }
    Outcome {
        rules,
        extracted_bytes,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(3).max(1);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let lines: Vec<String> = (0..count).map(|_| line(&mut rng)).collect();
    let bytes: usize = lines.iter().map(|l| l.len() + 1).sum();
    println!(
        "{count} lines, {:.1} MB, rules: {}",
        bytes as f64 / 1e6,
        RULES.map(|r| r.0).join(", ")
    );
    let mut ours = Vec::new();
    let mut theirs = Vec::new();
    for run in 1..=runs {
        let a = run_jobgraph(&lines);
        let b = run_oniguruma(&lines);
        if run == 1 {
            let differ = a.rules.iter().zip(&b.rules).filter(|(x, y)| x != y).count();
            let mut per_rule = [0usize; 4];
            for r in &a.rules {
                per_rule[r.unwrap_or(3)] += 1;
            }
            println!(
                "matches per rule (jobgraph): app {}, combined {}, common {}, none {}; lines where the engines differ: {differ}",
                per_rule[0], per_rule[1], per_rule[2], per_rule[3]
            );
            println!(
                "extracted text: jobgraph {} bytes (numbers converted), grok crate {} bytes",
                a.extracted_bytes, b.extracted_bytes
            );
        }
        println!(
            "run {run}: jobgraph {:.0} lines/s ({:.2} s), grok crate (Oniguruma) {:.0} lines/s ({:.2} s)",
            count as f64 / a.seconds,
            a.seconds,
            count as f64 / b.seconds,
            b.seconds
        );
        ours.push(count as f64 / a.seconds);
        theirs.push(count as f64 / b.seconds);
    }
    let (ours, theirs) = (median(ours), median(theirs));
    println!(
        "median: jobgraph {ours:.0} lines/s, grok crate (Oniguruma) {theirs:.0} lines/s: jobgraph at {:.2}x",
        ours / theirs
    );
}

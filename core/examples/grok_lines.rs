//! Grok throughput: N synthetic Apache combined-log lines through a 3-rule parser, one core.
//! Prints lines/s; run with `cargo run --release -p jobgraph-core --example grok_lines [N [RULES_FILE]]`
//! (another rules file to compare rules on the same lines).

use std::time::Instant;

use jobgraph_core::grok::GrokParser;

const RULES: &str = r#"
error_line \[%{date("EEE MMM dd HH:mm:ss yyyy"):eventTimestamp}\] \[%{word:severity}\] %{data:message}
json_line \{%{data}\}
access_combined %{ipOrHost:network.client.ip} %{notSpace:http.ident} %{notSpace:http.auth} \[%{date("dd/MMM/yyyy:HH:mm:ss Z"):eventTimestamp}\] "%{word:http.method} %{notSpace:http.url} HTTP/%{number:http.version}" %{integer:http.status_code} %{integer:network.bytes_written} "%{data:http.referer}" "%{data:http.useragent}"
"#;

fn line(i: usize) -> String {
    let paths = [
        "/",
        "/index.html",
        "/api/v1/users?id=42",
        "/static/app.js",
        "/login",
    ];
    let agents = [
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
        "curl/8.4.0",
        "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
    ];
    format!(
        r#"10.{}.{}.{} - user{} [10/Oct/2023:13:{:02}:{:02} -0700] "GET {} HTTP/1.1" {} {} "http://example.com/start" "{}""#,
        i % 256,
        (i / 7) % 256,
        (i / 13) % 256,
        i % 100,
        i % 60,
        (i / 60) % 60,
        paths[i % paths.len()],
        [200, 404, 500, 301][i % 4],
        1000 + i % 5000,
        agents[i % agents.len()]
    )
}

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(200_000);
    let rules = match std::env::args().nth(2) {
        Some(path) => std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        }),
        None => RULES.to_owned(),
    };
    let parser = match GrokParser::new(&rules, "") {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    };
    let lines: Vec<String> = (0..n).map(line).collect();
    let start = Instant::now();
    let mut matched = 0_usize;
    for l in &lines {
        if let Ok(Some(m)) = parser.parse(l) {
            matched += 1;
            std::hint::black_box(m);
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{n} lines, {matched} matched, {secs:.3} s, {:.0} lines/s",
        n as f64 / secs
    );
}

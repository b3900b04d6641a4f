//! `jobgraph-load`: N keep-alive connections send one request over and over for a while, then
//! print requests/s, latency percentiles and the statuses seen.
//!
//! ```text
//! jobgraph-load --addr 127.0.0.1:8080 --connections 32 --seconds 10 \
//!     --method POST --path /v1/templates/test --header "Authorization: Bearer $TOKEN" \
//!     --body-file test.json
//! ```
//!
//! In the body, `{n}` is replaced by a number unique to each request (so that a cache cannot
//! answer repeated requests). In headers, `{n}` is replaced by that number too, and `{ip}` by
//! an IPv4 address made of it (10.x.y.z: e.g. `--header 'X-Forwarded-For: {ip}'` for requests
//! from many addresses through a trusted proxy).
//! `--connection-header 'K: V'`, repeated, gives connection `i` the `i mod count`-th of them
//! (one organization's token per connection, for example).

use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

struct Options {
    /// Where connections go, round robin (`--addr` repeated: replicas behind no balancer).
    addrs: Vec<SocketAddr>,
    connections: usize,
    seconds: f64,
    method: String,
    path: String,
    headers: Vec<String>,
    /// One of these per connection, round robin.
    connection_headers: Vec<String>,
    body: Option<String>,
}

fn usage() -> String {
    "usage: jobgraph-load --addr HOST:PORT [--addr HOST:PORT]... [--connections 32] [--seconds 10] [--method GET] \
     --path PATH [--header 'K: V']... [--connection-header 'K: V']... [--body-file FILE]"
        .into()
}

fn parse() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        addrs: Vec::new(),
        connections: 32,
        seconds: 10.0,
        method: "GET".into(),
        path: String::new(),
        headers: Vec::new(),
        connection_headers: Vec::new(),
        body: None,
    };
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--addr" => options
                .addrs
                .push(value()?.parse().map_err(|e| format!("--addr: {e}"))?),
            "--connections" => {
                options.connections = value()?
                    .parse()
                    .map_err(|e| format!("--connections: {e}"))?;
            }
            "--seconds" => {
                options.seconds = value()?.parse().map_err(|e| format!("--seconds: {e}"))?
            }
            "--method" => options.method = value()?,
            "--path" => options.path = value()?,
            "--header" => options.headers.push(value()?),
            "--connection-header" => options.connection_headers.push(value()?),
            "--body-file" => {
                let file = value()?;
                options.body =
                    Some(std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?);
            }
            _ => return Err(usage()),
        }
    }
    if options.path.is_empty() || options.connections == 0 {
        return Err(usage());
    }
    if options.addrs.is_empty() {
        options.addrs.push(SocketAddr::from(([127, 0, 0, 1], 8080)));
    }
    Ok(options)
}

fn request_bytes(options: &Options, connection: usize, n: u64) -> Vec<u8> {
    let mut head = format!(
        "{} {} HTTP/1.1\r\nHost: {}\r\n",
        options.method, options.path, options.addrs[0]
    );
    let own = (!options.connection_headers.is_empty())
        .then(|| &options.connection_headers[connection % options.connection_headers.len()]);
    for header in options.headers.iter().chain(own) {
        let [_, b, c, d] = u32::try_from(n % (1 << 24)).unwrap_or(0).to_be_bytes();
        let header = header
            .replace("{n}", &n.to_string())
            .replace("{ip}", &format!("10.{b}.{c}.{d}"));
        head.push_str(&header);
        head.push_str("\r\n");
    }
    let body = options
        .body
        .as_ref()
        .map(|b| b.replace("{n}", &n.to_string()));
    if let Some(body) = &body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            body.len()
        ));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    if let Some(body) = body {
        bytes.extend_from_slice(body.as_bytes());
    }
    bytes
}

/// Sends one request and reads its response (Content-Length framed): the status.
async fn exchange(stream: &mut BufReader<TcpStream>, request: &[u8]) -> std::io::Result<u16> {
    stream.get_mut().write_all(request).await?;
    let mut status = 0;
    let mut length = 0usize;
    let mut line = String::new();
    loop {
        line.clear();
        if stream.read_line(&mut line).await? == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let trimmed = line.trim_end();
        if trimmed.is_empty() {
            break;
        }
        if status == 0 {
            status = trimmed
                .split_whitespace()
                .nth(1)
                .and_then(|s| s.parse().ok())
                .unwrap_or(0);
        } else if let Some((k, v)) = trimmed.split_once(':')
            && k.eq_ignore_ascii_case("content-length")
        {
            length = v.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).await?;
    Ok(status)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let index = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[index.min(sorted.len() - 1)]
}

#[tokio::main]
async fn main() -> ExitCode {
    let options = match parse() {
        Ok(options) => Arc::new(options),
        Err(message) => {
            eprintln!("{message}");
            return ExitCode::from(2);
        }
    };
    let counter = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let end = started + Duration::from_secs_f64(options.seconds);
    let tasks: Vec<_> = (0..options.connections)
        .map(|connection| {
            let (options, counter) = (Arc::clone(&options), Arc::clone(&counter));
            let addr = options.addrs[connection % options.addrs.len()];
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                let mut statuses: BTreeMap<u16, u64> = BTreeMap::new();
                let mut errors = 0u64;
                let mut stream = None;
                while Instant::now() < end {
                    if stream.is_none() {
                        match TcpStream::connect(addr).await {
                            Ok(s) => {
                                let _ = s.set_nodelay(true);
                                stream = Some(BufReader::new(s));
                            }
                            Err(_) => {
                                errors += 1;
                                tokio::time::sleep(Duration::from_millis(10)).await;
                                continue;
                            }
                        }
                    }
                    let n = counter.fetch_add(1, Ordering::Relaxed);
                    let request = request_bytes(&options, connection, n);
                    let sent = Instant::now();
                    let Some(s) = stream.as_mut() else { continue };
                    match exchange(s, &request).await {
                        Ok(status) => {
                            latencies.push(sent.elapsed());
                            *statuses.entry(status).or_default() += 1;
                        }
                        Err(_) => {
                            errors += 1;
                            stream = None;
                        }
                    }
                }
                (latencies, statuses, errors)
            })
        })
        .collect();
    let mut latencies = Vec::new();
    let mut statuses: BTreeMap<u16, u64> = BTreeMap::new();
    let mut errors = 0;
    for task in tasks {
        if let Ok((l, s, e)) = task.await {
            latencies.extend(l);
            for (status, n) in s {
                *statuses.entry(status).or_default() += n;
            }
            errors += e;
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    latencies.sort_unstable();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{} {}: {} requests in {:.1} s over {} connections = {:.0} req/s; p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms; statuses {:?}; errors {}",
        options.method,
        options.path,
        latencies.len(),
        elapsed,
        options.connections,
        latencies.len() as f64 / elapsed,
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.90)),
        ms(percentile(&latencies, 0.99)),
        ms(latencies.last().copied().unwrap_or_default()),
        statuses,
        errors
    );
    ExitCode::SUCCESS
}

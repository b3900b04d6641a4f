//! A synchronous job's answer read record by record over a raw connection, so a test decides
//! when (and whether) to read, as a slow or vanished client would.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::Value;

use crate::common::Server;

/// An open answer of `POST /v1/jobs/sync`.
pub struct SyncStream {
    pub status: u16,
    reader: BufReader<TcpStream>,
    chunked: bool,
    pending: Vec<u8>,
    /// Bytes of `pending` already read as records.
    read: usize,
    done: bool,
}

/// Sends the job and reads the answer's head.
pub fn open_sync(server: &Server, token: &str, job: &Value) -> SyncStream {
    let body = job.to_string();
    let mut stream = TcpStream::connect(server.addr).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    let head = format!(
        "POST /v1/jobs/sync HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        body.len()
    );
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    let status = line
        .split_whitespace()
        .nth(1)
        .unwrap_or("0")
        .parse()
        .unwrap_or(0);
    let mut chunked = false;
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if line.trim().is_empty() {
            break;
        }
        if line.to_ascii_lowercase().starts_with("transfer-encoding:") && line.contains("chunked") {
            chunked = true;
        }
    }
    SyncStream {
        status,
        reader,
        chunked,
        pending: Vec::new(),
        read: 0,
        done: false,
    }
}

impl SyncStream {
    /// The body of an error answer.
    pub fn error_body(&mut self) -> String {
        let mut text = String::new();
        let _ = self.reader.read_to_string(&mut text);
        text
    }

    fn fill(&mut self) -> bool {
        if self.done {
            return false;
        }
        if !self.chunked {
            let mut buf = [0u8; 65536];
            let n = self.reader.read(&mut buf).unwrap_or(0);
            self.pending.extend_from_slice(&buf[..n]);
            self.done = n == 0;
            return n > 0;
        }
        let mut size = String::new();
        if self.reader.read_line(&mut size).unwrap_or(0) == 0 {
            self.done = true;
            return false;
        }
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            self.done = true;
            return false;
        }
        let mut chunk = vec![0u8; n + 2];
        self.reader.read_exact(&mut chunk).unwrap();
        self.pending.extend_from_slice(&chunk[..n]);
        true
    }

    /// The next record, `None` at the end.
    pub fn next_record(&mut self) -> Option<Value> {
        loop {
            let rest = &self.pending[self.read..];
            if let Some(i) = rest.windows(2).position(|w| w == b"\r\n") {
                // Read in place: a piece of the answer holds hundreds of one-event records,
                // and dropping each from the front would copy the rest every time.
                let line = &rest[..i];
                self.read += i + 2;
                if !line.is_empty() {
                    return Some(serde_json::from_slice(line).expect("a JSON record"));
                }
                continue;
            }
            self.pending.drain(..self.read);
            self.read = 0;
            if !self.fill() {
                return None;
            }
        }
    }

    /// Every remaining record.
    pub fn read_all(&mut self) -> Vec<Value> {
        std::iter::from_fn(|| self.next_record()).collect()
    }
}

/// Posts a heartbeat token, as the public client does.
pub fn heartbeat(server: &Server, token: &str, beat: &str) {
    let r = crate::common::request(
        server.addr,
        "POST",
        "/v1/jobs/sync/heartbeat",
        &[
            ("Authorization".into(), format!("Bearer {token}")),
            ("Content-Type".into(), "text/plain".into()),
        ],
        Some(beat.as_bytes()),
    );
    assert_eq!(r.status, 204, "{}", r.body);
}

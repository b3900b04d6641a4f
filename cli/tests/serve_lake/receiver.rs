//! A stand-in vendor intake for the delivery tests: `tests/peers/vendor_receiver.py`, which
//! decodes what a sink sends with the vendor's own library and writes one JSON line per item.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::intake::{python, workspace};

/// A stand-in vendor intake that decodes with the vendor's own library, until dropped.
pub(crate) struct Receiver {
    child: Child,
    pub(crate) port: u16,
    out: PathBuf,
    _dir: tempfile::TempDir,
}

impl Receiver {
    pub(crate) fn start(kind: &str, extra: &[&str]) -> Receiver {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("received.jsonl");
        let mut child = Command::new(python())
            .arg(workspace().join("tests/peers/vendor_receiver.py"))
            .args([
                "--kind",
                kind,
                "--port",
                "0",
                "--out",
                out.to_str().unwrap(),
            ])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the receiver starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let port = serde_json::from_str::<Value>(&line).expect("{\"port\": P}")["port"]
            .as_u64()
            .unwrap() as u16;
        Receiver {
            child,
            port,
            out,
            _dir: dir,
        }
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Every line written so far.
    pub(crate) fn lines(&self) -> Vec<Value> {
        read_lines(&self.out)
    }

    /// The decoded items, once there are `n` (up to 60 s).
    pub(crate) fn items(&self, n: usize) -> Vec<Value> {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let items: Vec<Value> = self
                .lines()
                .into_iter()
                .filter(|l| l.get("item").is_some())
                .collect();
            if items.len() >= n || Instant::now() > deadline {
                return items;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

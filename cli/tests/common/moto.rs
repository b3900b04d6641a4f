//! moto's S3-compatible server on a loopback port (`target/lake-venv/bin/moto_server`, made
//! by scripts/setup.sh): started per test that needs it, killed when dropped.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running moto server.
pub struct Moto {
    child: Child,
    pub port: u16,
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Moto {
    /// Starts moto with bucket `bucket`; `None` (after a loud SKIPPED line) when the venv is
    /// missing outside CI. In CI a missing venv fails the test.
    pub fn start(test: &str, bucket: &str) -> Option<Moto> {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let program = root.join("target/lake-venv/bin/moto_server");
        if !program.exists() {
            assert!(
                std::env::var_os("CI").is_none(),
                "{} is missing on CI: scripts/setup.sh makes it",
                program.display()
            );
            eprintln!(
                "\n**** SKIPPED {test}: no {} (run scripts/setup.sh) ****\n",
                program.display()
            );
            return None;
        }
        let port = {
            let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
            listener.local_addr().expect("its address").port()
        };
        let child = Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("moto_server starts");
        let mut moto = Moto { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = moto.child.try_wait() {
                panic!("moto_server exited: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "moto_server did not listen within 60 s"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect to moto");
        let request = format!(
            "PUT /{bucket} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        assert!(
            answer.starts_with("HTTP/1.1 200"),
            "create bucket: {answer}"
        );
        moto.port = port;
        Some(moto)
    }

    /// `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }
}

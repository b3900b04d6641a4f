//! Helpers of the service tests: start the real `jobgraph serve` binary on a loopback port
//! (ready when it prints `ready`), a minimal HTTP/1.1 client over `std::net` (`http`), and the
//! shared server of the CLI and client tests (`clients`).

#![allow(dead_code)]

pub mod clients;
mod http;
pub mod moto;

pub use http::{Response, request, try_request};

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, Once};
use std::time::Duration;

use serde_json::{Value, json};

/// The workspace's root.
pub fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The peers' Python (scripts/setup.sh makes it; `JOBGRAPH_PEERS_PYTHON` overrides it).
pub fn peers_python() -> PathBuf {
    let python = std::env::var_os("JOBGRAPH_PEERS_PYTHON")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace().join("target/peers-venv/bin/python"));
    assert!(
        python.exists(),
        "{} is missing: run scripts/setup.sh (it installs the real peers of the tests)",
        python.display()
    );
    python
}

/// Runs a peer script of `tests/peers`: its one-line JSON summary (asserting it succeeded).
pub fn peer(script: &str, args: &[&str]) -> Value {
    let out = Command::new(peers_python())
        .arg(workspace().join("tests/peers").join(script))
        .args(args)
        .output()
        .expect("the peer runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let summary: Value = stdout
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .unwrap_or_else(|| {
            panic!(
                "{script} printed no summary: {stdout}\n{}",
                String::from_utf8_lossy(&out.stderr)
            )
        });
    assert!(
        out.status.success() && summary["ok"] == true,
        "{script} failed: {summary}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    summary
}

/// Servers still running when the test binary exits are killed (the harness exits through
/// `exit`, which runs `atexit` handlers): shared servers live in statics, never dropped.
static RUNNING: Mutex<Vec<u32>> = Mutex::new(Vec::new());

extern "C" fn kill_servers() {
    if let Ok(pids) = RUNNING.lock() {
        for pid in pids.iter() {
            // SAFETY: kill(2) with a pid this process spawned; no memory is touched.
            unsafe {
                libc::kill(*pid as libc::pid_t, libc::SIGKILL);
            }
        }
    }
}

/// The URL of a NATS server with JetStream (`nats-server -js`) the whole test binary shares,
/// started on first use on a port of its own with its store in a temporary folder, and killed
/// when the binary exits.
pub fn nats_url() -> String {
    static SHARED: std::sync::OnceLock<Mutex<Nats>> = std::sync::OnceLock::new();
    let shared = SHARED.get_or_init(|| {
        let port = free_port();
        let store =
            std::env::temp_dir().join(format!("jobgraph-nats-{}-{port}", std::process::id()));
        Mutex::new(Nats::start(port, &store))
    });
    shared.lock().unwrap_or_else(|e| e.into_inner()).url()
}

/// A port nothing listens on (yet).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port()
}

/// A `nats-server -js` of a test: `JOBGRAPH_TEST_NATS_SERVER`, or the one `scripts/setup.sh`
/// installs (`target/peers-venv/bin/nats-server`), or `nats-server` on PATH. Killed when
/// dropped (and when the binary exits).
pub struct Nats {
    child: Child,
    port: u16,
}

impl Nats {
    /// Starts it on `port` with its JetStream store in `store`, once it greets connections.
    pub fn start(port: u16, store: &Path) -> Nats {
        let workspace = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
        let binary = std::env::var_os("JOBGRAPH_TEST_NATS_SERVER")
            .map(PathBuf::from)
            .or_else(|| {
                let venv = workspace.join("target/peers-venv/bin/nats-server");
                venv.exists().then_some(venv)
            })
            .unwrap_or_else(|| PathBuf::from("nats-server"));
        let child = Command::new(&binary)
            .args(["-js", "-a", "127.0.0.1", "-p", &port.to_string(), "-sd"])
            .arg(store)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| {
                panic!(
                    "cannot start {} (scripts/setup.sh installs it): {e}",
                    binary.display()
                )
            });
        RUNNING.lock().unwrap().push(child.id());
        // Ready when it greets a connection with its INFO line.
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        loop {
            if let Ok(stream) = std::net::TcpStream::connect(("127.0.0.1", port)) {
                let mut line = String::new();
                let _ = stream.set_read_timeout(Some(Duration::from_secs(2)));
                if BufReader::new(stream).read_line(&mut line).is_ok() && line.starts_with("INFO") {
                    break;
                }
            }
            assert!(
                std::time::Instant::now() < deadline,
                "nats-server did not start on port {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Nats { child, port }
    }

    /// `nats://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// Kills it (`kill -9`).
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Writes a file only its owner may read (a `--config` file with secrets must be).
pub fn write_private(path: &Path, text: &str) {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    options.mode(0o600);
    let mut file = options.open(path).expect("a private file");
    file.write_all(text.as_bytes()).expect("written");
}

/// The PostgreSQL server the suite runs on instead of SQLite, when
/// `JOBGRAPH_TEST_DATABASE_URL` is set (`postgres://USER@HOST:PORT/DB` of a throwaway cluster:
/// `scripts/pg-cluster.sh`).
pub fn postgres_url() -> Option<String> {
    std::env::var("JOBGRAPH_TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
}

/// `--database URL` of a database of its own for a server on `data` (named after the folder,
/// so that a server started again on it finds its data), created when missing; nothing without
/// [`postgres_url`].
pub fn postgres_args(data: &Path) -> Vec<String> {
    let Some(base) = postgres_url() else {
        return Vec::new();
    };
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data.hash(&mut hasher);
    let name = format!("jg_{:016x}", hasher.finish());
    vec!["--database".into(), postgres_database(&base, &name)]
}

/// The URL of database `name` on the server of `base`, created when missing (with `psql`).
pub fn postgres_database(base: &str, name: &str) -> String {
    let psql = |sql: &str| {
        let out = Command::new("psql")
            .args([base, "-qtA", "-v", "ON_ERROR_STOP=1", "-c", sql])
            .output()
            .expect("psql (from PostgreSQL's client package) on PATH");
        assert!(
            out.status.success(),
            "psql {sql:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    if psql(&format!(
        "SELECT 1 FROM pg_database WHERE datname = '{name}'"
    )) != "1"
    {
        psql(&format!("CREATE DATABASE {name}"));
    }
    let (server, _) = base.rsplit_once('/').expect("a URL ending in /DATABASE");
    format!("{server}/{name}")
}

/// A running `jobgraph serve`.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    pub data: PathBuf,
    /// The `ID:SECRET` it generated, if it did.
    pub generated: Option<(String, String)>,
    /// Its stdout lines up to `ready`.
    pub banner: Vec<String>,
    _dir: Option<tempfile::TempDir>,
}

impl Server {
    /// Starts the server in a new temporary data folder.
    pub fn start(args: &[&str]) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let data = dir.path().to_owned();
        let mut server = Server::start_in(&data, args);
        server._dir = Some(dir);
        server
    }

    /// Starts the server on `data` (kept after it stops); its log goes to `data/server.log`.
    pub fn start_in(data: &Path, args: &[&str]) -> Server {
        static ATEXIT: Once = Once::new();
        ATEXIT.call_once(|| {
            // SAFETY: registers a plain extern "C" function.
            unsafe {
                libc::atexit(kill_servers);
            }
        });
        std::fs::create_dir_all(data).expect("data dir");
        let log = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(data.join("server.log"))
            .expect("log file");
        let mut child = Command::new(env!("CARGO_BIN_EXE_jobgraph"))
            .arg("serve")
            .args(["--addr", "127.0.0.1:0", "--data"])
            .arg(data.join("db"))
            .args(if args.contains(&"--database") {
                Vec::new()
            } else {
                postgres_args(data)
            })
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(log))
            .spawn()
            .expect("start jobgraph serve");
        RUNNING.lock().unwrap().push(child.id());
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        let mut banner = Vec::new();
        let mut addr = None;
        let mut generated = None;
        let mut expect_credential = false;
        for line in lines.by_ref() {
            let line = line.expect("read stdout");
            if expect_credential {
                let (id, secret) = line.split_once(':').expect("ID:SECRET");
                generated = Some((id.to_owned(), secret.to_owned()));
                expect_credential = false;
            }
            if line.starts_with("generated a client") {
                expect_credential = true;
            }
            if let Some(rest) = line.strip_prefix("listening on http://") {
                let text = rest.split_whitespace().next().unwrap();
                addr = Some(text.parse().expect("address"));
            }
            let ready = line == "ready";
            banner.push(line);
            if ready {
                break;
            }
        }
        // Keep reading stdout so that the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        Server {
            child,
            addr: addr.unwrap_or_else(|| {
                panic!("no address printed: {banner:?}; log: {}", read_log(data))
            }),
            data: data.to_owned(),
            generated,
            banner,
            _dir: None,
        }
    }

    /// Starts the server in a new temporary data folder with a `--config` file holding
    /// `settings` (JSON, without secrets).
    pub fn start_with_config(settings: &Value, args: &[&str]) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = dir.path().join("config.json");
        write_private(&config, &settings.to_string());
        let config = config.to_string_lossy().into_owned();
        let mut all = vec!["--config", config.as_str()];
        all.extend_from_slice(args);
        let data = dir.path().join("data");
        let mut server = Server::start_in(&data, &all);
        server._dir = Some(dir);
        server
    }

    /// The server's stderr so far, every line logged before this call included: the server
    /// writes its log in batches, so this sends a `GET /healthz` marked with a request id of
    /// its own and waits (up to 10 s) for that request's line, which comes after every line
    /// logged before it. A server that does not answer (stopped) is read as it is.
    pub fn log(&self) -> String {
        static MARKS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = MARKS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let id = format!("log-mark-{}-{n}-end", std::process::id());
        let headers = [("X-Request-Id".to_owned(), id.clone())];
        if try_request(self.addr, "GET", "/healthz", &headers, None).is_none() {
            return read_log(&self.data);
        }
        let mark = format!("request_id={id}");
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let log = read_log(&self.data);
            if log.contains(&mark) || std::time::Instant::now() > deadline {
                return log;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Log lines holding every one of `parts` (each request is one line:
    /// `method=… path=… status=… latency_ms=… org=…`).
    pub fn log_lines(&self, parts: &[&str]) -> usize {
        self.log()
            .lines()
            .filter(|line| parts.iter().all(|p| line.contains(p)))
            .count()
    }

    /// Waits (up to 10 s) until at least `n` log lines hold `parts`, then returns how many
    /// do: the log line of a request may be written just after its answer was sent.
    pub fn wait_log_lines(&self, parts: &[&str], n: usize) -> usize {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        loop {
            let count = self.log_lines(parts);
            if count >= n || std::time::Instant::now() > deadline {
                return count;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// `http://ADDR`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// A request; a connection that fails or closes without an answer is status 0.
    pub fn try_call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Response {
        let mut headers = Vec::new();
        if let Some(token) = token {
            headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
        }
        let body = body.map(|b| {
            headers.push(("Content-Type".into(), "application/json".into()));
            b.to_string().into_bytes()
        });
        try_request(self.addr, method, path, &headers, body.as_deref()).unwrap_or(Response {
            status: 0,
            headers: Vec::new(),
            body: String::new(),
        })
    }

    /// A request.
    pub fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<&Value>,
    ) -> Response {
        let mut headers = Vec::new();
        if let Some(token) = token {
            headers.push(("Authorization".to_owned(), format!("Bearer {token}")));
        }
        let body = body.map(|b| {
            headers.push(("Content-Type".into(), "application/json".into()));
            b.to_string().into_bytes()
        });
        request(self.addr, method, path, &headers, body.as_deref())
    }

    /// An access token for a client.
    pub fn token(&self, id: &str, secret: &str) -> String {
        let response = self.call(
            "POST",
            "/oauth/token",
            None,
            Some(&json!({"client_id": id, "client_secret": secret,
                         "audience": "service", "grant_type": "client_credentials"})),
        );
        assert_eq!(response.status, 200, "{}", response.body);
        response.json()["access_token"]
            .as_str()
            .expect("access_token")
            .to_owned()
    }

    /// Kills it with SIGKILL and waits.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn read_log(data: &Path) -> String {
    std::fs::read_to_string(data.join("server.log")).unwrap_or_default()
}

#[allow(unused_imports)] // not every suite sends templates
pub use jobgraph_testkit::fixtures::{filter_template, job_using};

//! A person's login in the browser (`docs/api.md`, "People, login and roles"): the login form
//! opens in a browser and comes back to a listener of this process on a loopback port; the
//! code it brings is exchanged (with the PKCE verifier only this process knows) for tokens
//! kept in the token cache, which every later command uses and refreshes. `jobgraph login`
//! runs it, and so does the first command of an `authMethod: oauth` configuration.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

use crate::context::Context;
use crate::failure::Failure;
use crate::session::{PUBLIC_CLIENT, Session};
use crate::settings::home_dir;

/// Logs a person in: the login form opened in the browser (or its address printed, with
/// `no_browser`), the redirect awaited on a loopback port for up to `timeout` seconds, the
/// code exchanged and the tokens kept in the token cache.
pub fn log_in(no_browser: bool, timeout: u64, ctx: &Context) -> Result<(), Failure> {
    let session = Session::open_with(ctx, Some(PUBLIC_CLIENT))?;
    if !session.settings.auth_cache {
        return Err(Failure::usage(
            "this configuration has authCache: false, so a login would be forgotten at once: save it with the token cache on",
        ));
    }
    let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| {
        Failure::failed(format!(
            "cannot listen on a loopback port for the login: {e}"
        ))
    })?;
    let port = listener
        .local_addr()
        .map_err(|e| Failure::failed(e.to_string()))?
        .port();
    let redirect = format!("http://127.0.0.1:{port}/callback");
    let started = session
        .client
        .begin_login(&redirect)
        .map_err(|e| session.failure(e))?;
    let to = match &session.settings.conf {
        Some(name) => format!("{} (configuration {name:?})", session.client.api_base_url()),
        None => session.client.api_base_url().to_owned(),
    };
    eprintln!(
        "Log in to {to} in a browser on this machine:\n\n  {}\n",
        started.url()
    );
    if !no_browser && !open_browser(started.url()) {
        eprintln!("(no browser could be opened: open the address above yourself)");
    }
    eprintln!("Waiting for the login to come back to {redirect} (Ctrl-C gives up)…");
    let deadline = Instant::now() + Duration::from_secs(timeout.max(1));
    let (code, state) = wait_for_redirect(&listener, deadline)?;
    session
        .runtime
        .block_on(session.client.finish_login(&started, &code, &state))
        .map_err(|e| session.failure(e))?;
    eprintln!(
        "Logged in. The tokens are kept in {} (owner only) and refreshed by themselves; `jobgraph logout` forgets them.",
        home_dir()?.join("auth").display()
    );
    Ok(())
}

/// Opens `url` in the desktop's browser (`xdg-open`, `open` on macOS): whether one started.
fn open_browser(url: &str) -> bool {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .is_ok()
}

/// Serves the loopback listener until the login comes back to `/callback`: its `code` and
/// `state`, or its `error`. Other requests (a browser's `/favicon.ico`) get a 404.
fn wait_for_redirect(
    listener: &TcpListener,
    deadline: Instant,
) -> Result<(String, String), Failure> {
    listener
        .set_nonblocking(true)
        .map_err(|e| Failure::failed(e.to_string()))?;
    loop {
        match listener.accept() {
            Ok((stream, _)) => {
                if let Some(outcome) = answer(stream)? {
                    return outcome;
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                if Instant::now() >= deadline {
                    return Err(Failure::failed(
                        "no login came back in time (--timeout): run `jobgraph login` again",
                    ));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            Err(e) => return Err(Failure::failed(format!("the login listener failed: {e}"))),
        }
    }
}

type Outcome = Result<(String, String), Failure>;

/// Reads one request; `Some` when it was the login coming back.
fn answer(stream: TcpStream) -> Result<Option<Outcome>, Failure> {
    stream
        .set_nonblocking(false)
        .and_then(|()| stream.set_read_timeout(Some(Duration::from_secs(5))))
        .map_err(|e| Failure::failed(e.to_string()))?;
    let mut reader = BufReader::new(&stream);
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return Ok(None);
    }
    // The rest of the head (up to a bound), unread requests stall some browsers.
    let mut header = String::new();
    for _ in 0..100 {
        header.clear();
        if reader.read_line(&mut header).map_or(true, |n| n == 0) || header.trim().is_empty() {
            break;
        }
    }
    let target = line.split_whitespace().nth(1).unwrap_or_default();
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let mut stream = &stream;
    if path != "/callback" {
        let _ = stream
            .write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return Ok(None);
    }
    let field = |name: &str| {
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(k, _)| *k == name)
            .map(|(_, v)| percent_decode(v))
    };
    let (outcome, page) = match (field("code"), field("state"), field("error")) {
        (Some(code), Some(state), None) => (
            Ok((code, state)),
            "<h1>Logged in</h1><p>You may close this window and go back to the terminal.</p>",
        ),
        (_, _, error) => {
            let why = match (error, field("error_description")) {
                (Some(e), Some(d)) => format!("{e}: {d}"),
                (Some(e), None) => e,
                _ => "the login came back without a code".into(),
            };
            (
                Err(Failure::failed(format!("the login failed: {why}"))),
                "<h1>The login failed</h1><p>See the terminal.</p>",
            )
        }
    };
    let body = format!("<!doctype html><meta charset=utf-8><title>jobgraph</title>{page}");
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nCache-Control: no-store\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    Ok(Some(outcome))
}

/// `%XX` and `+` decoded (invalid escapes kept as they are).
fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::percent_decode;

    #[test]
    fn query_values_are_percent_decoded() {
        assert_eq!(percent_decode("a%2Fb+c%3D"), "a/b c=");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%é"), "%é");
    }
}

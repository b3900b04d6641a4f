//! A person's login in progress ([`Client::begin_login`](super::Client::begin_login)): the
//! PKCE verifier (RFC 7636, S256) and `state` it was started with, and the authorization
//! address to open in a browser.
//!
//! ```
//! use jobgraph_sdk::client::Client;
//! let client = Client::builder("http://127.0.0.1:8080")
//!     .credentials(jobgraph_sdk::client::Credentials::without_secret("jobgraph-cli"))
//!     .build()
//!     .unwrap();
//! let login = client.begin_login("http://127.0.0.1:53117/callback").unwrap();
//! assert!(login.url().starts_with("http://127.0.0.1:8080/oauth/authorize?response_type=code"));
//! assert!(login.url().contains("code_challenge_method=S256"));
//! ```

use sha2::{Digest, Sha256};

use super::credentials::Secret;
use super::error::ClientError;

/// A login started: open [`Login::url`], then give the redirect's `code` and `state` to
/// [`Client::finish_login`](super::Client::finish_login).
#[derive(Debug)]
pub struct Login {
    pub(super) verifier: Secret,
    pub(super) state: String,
    pub(super) redirect_uri: String,
    url: String,
}

/// `n` random bytes as base64url without padding.
fn random(n: usize) -> Result<String, ClientError> {
    let mut bytes = vec![0u8; n];
    getrandom::fill(&mut bytes)
        .map_err(|e| ClientError::Config(format!("no random source for the login: {e}")))?;
    Ok(base64url(&bytes))
}

fn base64url(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut out = String::with_capacity(bytes.len() * 4 / 3 + 2);
    for chunk in bytes.chunks(3) {
        let n =
            chunk.iter().fold(0u32, |acc, b| (acc << 8) | u32::from(*b)) << (8 * (3 - chunk.len()));
        for i in 0..=chunk.len() {
            out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
        }
    }
    out
}

fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

impl Login {
    pub(super) fn new(
        auth_base_url: &str,
        client_id: &str,
        redirect_uri: &str,
    ) -> Result<Login, ClientError> {
        let verifier = random(48)?;
        let challenge = base64url(&Sha256::digest(verifier.as_bytes()));
        let state = random(16)?;
        let query = [
            ("response_type", "code"),
            ("client_id", client_id),
            ("redirect_uri", redirect_uri),
            ("scope", "profile email offline_access"),
            ("code_challenge", &challenge),
            ("code_challenge_method", "S256"),
            ("state", &state),
        ]
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&");
        Ok(Login {
            verifier: Secret::new(verifier),
            state,
            redirect_uri: redirect_uri.to_owned(),
            url: format!(
                "{}/oauth/authorize?{query}",
                auth_base_url.trim_end_matches('/')
            ),
        })
    }

    /// The address to open in a browser.
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The `state` the redirect must bring back.
    pub fn state(&self) -> &str {
        &self.state
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_and_the_s256_challenge_of_rfc_7636_appendix_b() {
        let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
        assert_eq!(
            base64url(&Sha256::digest(verifier.as_bytes())),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
        );
        assert_eq!(base64url(b"f"), "Zg");
        assert_eq!(base64url(b"fo"), "Zm8");
        assert_eq!(base64url(b"foo"), "Zm9v");
    }

    #[test]
    fn a_login_has_a_fresh_verifier_and_state() {
        let a = Login::new("http://h/", "cli", "http://127.0.0.1:1/cb").unwrap();
        let b = Login::new("http://h/", "cli", "http://127.0.0.1:1/cb").unwrap();
        assert_ne!(a.state, b.state);
        assert!(a.url.starts_with("http://h/oauth/authorize?response_type=code&client_id=cli&redirect_uri=http%3A%2F%2F127.0.0.1%3A1%2Fcb"));
        assert!(!format!("{a:?}").contains(a.verifier.expose()));
    }
}

//! Client credentials: the client id and its secret, which never shows in `Debug` output.

use std::fmt;

/// A secret string (a client secret or an access token).
///
/// `Debug` prints `<redacted>`; there is no `Display`. [`Secret::expose`] is the one way to
/// read it, so every use is visible in the code.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    /// Wraps a secret.
    pub fn new(value: impl Into<String>) -> Self {
        Secret(value.into())
    }

    /// The secret itself: for the one place that has to send it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Self {
        Secret(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Self {
        Secret(value.to_owned())
    }
}

/// OAuth 2.0 client credentials: the client id and, when a new token may be needed, its
/// secret.
///
/// Without a secret the client can still use a token a [`TokenStore`](super::TokenStore)
/// holds; when that one has expired, calls fail with
/// [`ClientError::MissingSecret`](super::ClientError::MissingSecret).
#[derive(Clone, PartialEq, Eq)]
pub struct Credentials {
    /// The client id.
    pub client_id: String,
    /// The client secret.
    pub secret: Option<Secret>,
}

impl Credentials {
    /// Credentials with a secret.
    pub fn new(client_id: impl Into<String>, secret: impl Into<Secret>) -> Self {
        Credentials {
            client_id: client_id.into(),
            secret: Some(secret.into()),
        }
    }

    /// A client id without a secret (cached tokens only).
    pub fn without_secret(client_id: impl Into<String>) -> Self {
        Credentials {
            client_id: client_id.into(),
            secret: None,
        }
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Credentials")
            .field("client_id", &self.client_id)
            .field("secret", &self.secret.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

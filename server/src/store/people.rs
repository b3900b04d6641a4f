//! The records of people logging in (migration 8, `docs/api.md` "People, login and roles"):
//! users of an organization, the authorization codes of the login form, and the refresh
//! tokens, each of a *family* (the tokens one login gave, rotated at every refresh).

/// A person of an organization, with the Argon2id hash of their password.
#[derive(Clone, PartialEq, Eq)]
pub struct UserRecord {
    /// The organization.
    pub organization: String,
    /// Their name (`editedBy` of what they write, `user.getName()` in scripts).
    pub name: String,
    /// PHC string of the password's Argon2id hash; never the password.
    pub secret_hash: String,
    /// Their organization role (`Admin`, `Member`, `Reader`, or empty) and team roles.
    pub grants: crate::store::Grants,
}

impl std::fmt::Debug for UserRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserRecord")
            .field("organization", &self.organization)
            .field("name", &self.name)
            .field("grants", &self.grants)
            .finish_non_exhaustive()
    }
}

/// An authorization code the login form gave, stored by its SHA-256.
#[derive(Clone, PartialEq, Eq)]
pub struct CodeRecord {
    /// SHA-256 of the code.
    pub code_hash: [u8; 32],
    /// The client it was given to.
    pub client_id: String,
    /// The redirect URI it was sent to (the token request must name it again).
    pub redirect_uri: String,
    /// The PKCE `code_challenge` (S256).
    pub challenge: String,
    /// The person's organization.
    pub organization: String,
    /// The person.
    pub user: String,
    /// The family of the tokens it gives (revoked when the code is used twice).
    pub family: String,
    /// Expiry, ms since the epoch.
    pub expires_at_ms: i64,
}

impl std::fmt::Debug for CodeRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeRecord")
            .field("client_id", &self.client_id)
            .field("organization", &self.organization)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// A refresh token, stored by its SHA-256.
#[derive(Clone, PartialEq, Eq)]
pub struct RefreshRecord {
    /// SHA-256 of the token.
    pub token_hash: [u8; 32],
    /// Its family: the tokens of one login.
    pub family: String,
    /// The client it was issued to.
    pub client_id: String,
    /// The person's organization.
    pub organization: String,
    /// The person.
    pub user: String,
    /// Expiry, ms since the epoch.
    pub expires_at_ms: i64,
}

impl std::fmt::Debug for RefreshRecord {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RefreshRecord")
            .field("client_id", &self.client_id)
            .field("user", &self.user)
            .finish_non_exhaustive()
    }
}

/// What taking a code or a refresh token found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Taken<T> {
    /// It was good and is now used.
    Fresh(T),
    /// It was used before: its family (revoke it).
    Reused(String),
    /// Unknown or expired.
    Unknown,
}

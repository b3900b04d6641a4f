//! Client secrets: their Argon2id hashes, their verification (on the `hash_pool`'s threads),
//! and the decoy hash verified for unknown client ids.

use std::sync::OnceLock;

use argon2::Argon2;
use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{PasswordHasher, PasswordVerifier};

use crate::ids::random_token;

/// Why a secret could not be hashed.
#[derive(Debug, thiserror::Error)]
#[error("cannot hash the client secret: {0}")]
pub struct HashError(String);

/// The Argon2id hash (PHC string) of a client secret, with a random salt.
pub fn hash_secret(secret: &str) -> Result<String, HashError> {
    Argon2::default()
        .hash_password(secret.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| HashError(e.to_string()))
}

/// Whether `secret` matches the PHC string `hash` (constant-time comparison inside argon2).
pub fn verify_secret(secret: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|parsed| {
        Argon2::default()
            .verify_password(secret.as_bytes(), &parsed)
            .is_ok()
    })
}

/// A hash that matches no secret, verified for unknown clients so that an unknown id costs
/// the same time as a wrong secret (same Argon2id parameters as every stored hash).
pub(crate) fn decoy_hash() -> &'static str {
    static DECOY: OnceLock<String> = OnceLock::new();
    DECOY.get_or_init(|| {
        let secret = random_token(32).unwrap_or_else(|_| "decoy".into());
        hash_secret(&secret).unwrap_or_default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_hash_and_verify() {
        let hash = hash_secret("s3cret").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(!hash.contains("s3cret"));
        assert!(verify_secret("s3cret", &hash));
        assert!(!verify_secret("s3cret!", &hash));
        assert!(!verify_secret("s3cret", "not a hash"));
        assert!(!verify_secret("", decoy_hash()));
    }
}

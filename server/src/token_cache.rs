//! Access tokens already checked, so that a request costs no database read: the state holds
//! the cache, the `Caller` extractor in `auth` fills and reads it.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use sha2::{Digest, Sha256};

use super::ids::now_ms;
use super::store::TokenRecord;

/// The SHA-256 of a token: what the store and the cache key it by.
pub fn sha256(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// Tokens checked recently: SHA-256 → (organization, client, expiry).
#[derive(Clone, Default)]
pub struct TokenCache(Arc<RwLock<HashMap<[u8; 32], Arc<TokenRecord>>>>);

impl TokenCache {
    const MAX: usize = 100_000;

    pub fn get(&self, hash: &[u8; 32]) -> Option<Arc<TokenRecord>> {
        self.0.read().ok()?.get(hash).cloned()
    }

    pub fn put(&self, record: TokenRecord) {
        if let Ok(mut map) = self.0.write() {
            if map.len() >= Self::MAX {
                let now = now_ms();
                map.retain(|_, t| t.expires_at_ms > now);
                if map.len() >= Self::MAX {
                    map.clear();
                }
            }
            map.insert(record.token_hash, Arc::new(record));
        }
    }
}

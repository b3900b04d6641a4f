//! Access tokens already checked, so that a request costs no database read: the state holds
//! the cache, the `Caller` extractor in `auth` fills and reads it.
//!
//! An entry is trusted for [`TokenCache::RECHECK`] at most, then read from the store again:
//! a token revoked through another instance (replicas sharing one PostgreSQL database) stops
//! working here within that time. A revocation on this instance removes its entry at once.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};

use crate::ids::now_ms;
use crate::store::TokenRecord;

/// The SHA-256 of a token: what the store and the cache key it by.
pub fn sha256(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A checked token and when the store was read for it.
type Entry = (Arc<TokenRecord>, Instant);

/// Tokens checked recently: SHA-256 → (organization, client, expiry), with when it was read.
#[derive(Clone, Default)]
pub struct TokenCache(Arc<RwLock<HashMap<[u8; 32], Entry>>>);

impl TokenCache {
    const MAX: usize = 100_000;
    /// How long an entry is trusted before the store is asked again.
    pub const RECHECK: Duration = Duration::from_secs(30);

    pub fn get(&self, hash: &[u8; 32]) -> Option<Arc<TokenRecord>> {
        let map = self.0.read().ok()?;
        let (record, read_at) = map.get(hash)?;
        (read_at.elapsed() < Self::RECHECK).then(|| Arc::clone(record))
    }

    pub fn put(&self, record: TokenRecord) {
        if let Ok(mut map) = self.0.write() {
            if map.len() >= Self::MAX {
                let now = now_ms();
                map.retain(|_, (t, read_at)| {
                    t.expires_at_ms > now && read_at.elapsed() < Self::RECHECK
                });
                if map.len() >= Self::MAX {
                    map.clear();
                }
            }
            map.insert(record.token_hash, (Arc::new(record), Instant::now()));
        }
    }

    /// Forgets one token (revoked).
    pub fn remove(&self, hash: &[u8; 32]) {
        if let Ok(mut map) = self.0.write() {
            map.remove(hash);
        }
    }
}

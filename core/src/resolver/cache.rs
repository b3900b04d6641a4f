//! The execution cache: results of template executions, reused across resolutions for live
//! previews.
//!
//! An entry is keyed by everything a script's result depends on: the template id, version and
//! [`Template::source_hash`](crate::Template::source_hash), the input values after defaults,
//! draft mode, the user name and the limits. Scripts that read the clock or `Math.random` are
//! never stored ([`crate::ScriptOutput::nondeterministic`]); failures are never stored. The
//! cache is bounded by entries and by bytes (the compact JSON size of the results), evicting
//! the least recently used.

use std::sync::{Arc, Mutex, PoisonError};

use lru::LruCache;
use serde_json::{Map, Value};

use crate::sandbox::Limits;

/// Bounds of an [`ExecutionCache`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CacheLimits {
    /// Results kept at most. 0 disables the cache.
    pub max_entries: usize,
    /// Total compact-JSON bytes of the results kept at most.
    pub max_bytes: usize,
}

impl Default for CacheLimits {
    /// 1024 results and 16 MiB.
    fn default() -> Self {
        CacheLimits {
            max_entries: 1024,
            max_bytes: 16 * 1024 * 1024,
        }
    }
}

/// Counters of an [`ExecutionCache`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CacheStats {
    /// Results kept now.
    pub entries: usize,
    /// Their compact-JSON bytes.
    pub bytes: usize,
    /// Executions answered from the cache since it was made (or cleared).
    pub hits: u64,
    /// Executions that had to run.
    pub misses: u64,
}

/// Results of template executions shared by every [`crate::Resolver`] given the same cache
/// (cloning shares it). Thread-safe.
///
/// ```
/// use jobgraph_core::{CacheLimits, ExecutionCache};
/// let cache = ExecutionCache::new(CacheLimits { max_entries: 100, max_bytes: 1 << 20 });
/// assert_eq!(cache.stats().entries, 0);
/// cache.clear();
/// ```
#[derive(Clone)]
pub struct ExecutionCache {
    inner: Arc<Mutex<Inner>>,
}

impl std::fmt::Debug for ExecutionCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecutionCache")
            .field("stats", &self.stats())
            .finish()
    }
}

struct Inner {
    entries: Option<LruCache<CacheKey, Entry, rustc_hash::FxBuildHasher>>,
    limits: CacheLimits,
    stats: CacheStats,
}

struct Entry {
    value: Arc<Value>,
    bytes: usize,
}

/// What a script's result depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct CacheKey {
    template_id: String,
    version: u64,
    source_hash: String,
    draft: bool,
    user: String,
    limits: Limits,
    inputs: String,
}

impl CacheKey {
    pub fn new(
        template: &crate::Template,
        source_hash: &str,
        inputs: &Map<String, Value>,
        draft: bool,
        user: &str,
        limits: &Limits,
    ) -> Self {
        CacheKey {
            template_id: template.id.clone(),
            version: template.version,
            source_hash: source_hash.to_owned(),
            draft,
            user: user.to_owned(),
            limits: *limits,
            inputs: serde_json::to_string(inputs).unwrap_or_default(),
        }
    }
}

impl ExecutionCache {
    /// An empty cache with these bounds.
    pub fn new(limits: CacheLimits) -> Self {
        let entries = std::num::NonZeroUsize::new(limits.max_entries)
            .map(|n| LruCache::with_hasher(n, rustc_hash::FxBuildHasher));
        ExecutionCache {
            inner: Arc::new(Mutex::new(Inner {
                entries,
                limits,
                stats: CacheStats::default(),
            })),
        }
    }

    /// A cache that keeps nothing.
    pub fn disabled() -> Self {
        Self::new(CacheLimits {
            max_entries: 0,
            max_bytes: 0,
        })
    }

    /// Forgets every result and resets the counters.
    pub fn clear(&self) {
        let mut inner = self.lock();
        if let Some(entries) = inner.entries.as_mut() {
            entries.clear();
        }
        inner.stats = CacheStats::default();
    }

    /// Entries, bytes, hits and misses.
    pub fn stats(&self) -> CacheStats {
        self.lock().stats
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The stored result for `key`, counting a hit or a miss.
    pub(crate) fn get(&self, key: &CacheKey) -> Option<Arc<Value>> {
        let mut inner = self.lock();
        let found = inner
            .entries
            .as_mut()
            .and_then(|entries| entries.get(key).map(|e| Arc::clone(&e.value)));
        if found.is_some() {
            inner.stats.hits += 1;
        } else {
            inner.stats.misses += 1;
        }
        found
    }

    /// Stores a result, evicting the least recently used until it fits.
    pub(crate) fn insert(&self, key: CacheKey, value: Arc<Value>) {
        let bytes = compact_len(&value).saturating_add(key.inputs.len());
        let mut inner = self.lock();
        let Inner {
            entries,
            limits,
            stats,
        } = &mut *inner;
        let Some(entries) = entries.as_mut() else {
            return;
        };
        if bytes > limits.max_bytes {
            return;
        }
        if let Some(old) = entries.pop(&key) {
            stats.bytes -= old.bytes;
        }
        while stats.bytes + bytes > limits.max_bytes {
            match entries.pop_lru() {
                Some((_, old)) => stats.bytes -= old.bytes,
                None => break,
            }
        }
        if let Some((_, old)) = entries.push(key, Entry { value, bytes }) {
            stats.bytes -= old.bytes;
        }
        stats.bytes += bytes;
        stats.entries = entries.len();
    }
}

/// Length of the compact JSON text of `value`, without building it.
pub(crate) fn compact_len(value: &Value) -> usize {
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => usize::MAX,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn key(n: usize) -> CacheKey {
        let template = crate::Template {
            id: "t".into(),
            version: 1,
            ..Default::default()
        };
        let mut inputs = Map::new();
        inputs.insert("n".into(), json!(n));
        CacheKey::new(&template, "h", &inputs, false, "u", &Limits::default())
    }

    #[test]
    fn bounded_by_entries_and_bytes_lru_first() {
        let cache = ExecutionCache::new(CacheLimits {
            max_entries: 3,
            max_bytes: 1000,
        });
        for n in 0..4 {
            cache.insert(key(n), Arc::new(json!({"n": n})));
        }
        assert_eq!(cache.stats().entries, 3);
        assert!(cache.get(&key(0)).is_none(), "the oldest was evicted");
        assert!(cache.get(&key(3)).is_some());
        // Touch 1, then add a big one: 2 goes first (least recently used), then 1.
        assert!(cache.get(&key(1)).is_some());
        cache.insert(key(9), Arc::new(json!({"s": "x".repeat(900)})));
        let stats = cache.stats();
        assert!(stats.bytes <= 1000, "{stats:?}");
        assert!(cache.get(&key(2)).is_none());
        assert!(cache.get(&key(9)).is_some());
        // A result larger than the whole cache is not kept.
        cache.insert(key(10), Arc::new(json!({"s": "x".repeat(2000)})));
        assert!(cache.get(&key(10)).is_none());
        cache.clear();
        assert_eq!(cache.stats(), CacheStats::default());
    }

    #[test]
    fn disabled_keeps_nothing() {
        let cache = ExecutionCache::disabled();
        cache.insert(key(1), Arc::new(json!(1)));
        assert!(cache.get(&key(1)).is_none());
        assert_eq!(cache.stats().misses, 1);
    }
}

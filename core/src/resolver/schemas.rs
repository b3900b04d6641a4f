//! Compiled `inputSchema`s kept across resolutions.
//!
//! Compiling a schema (which first validates it against the draft 2020-12 meta-schema) costs
//! ~0.3 ms natively and ~6 ms in the npm package: more than the scripts of a 50-operation job
//! in a live preview that re-resolves on every keystroke. The compiled form of the schemas met
//! is kept process-wide ([`shared`]), keyed by their JSON text, so that a template fetched
//! again, by any resolver (the npm package and the service build one per call), or a new version
//! with the same schema, is not compiled again. A compiled schema is a pure function of its
//! text, so sharing it between resolvers, users or tenants shows nothing but timing.

use std::num::NonZeroUsize;
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use lru::LruCache;
use serde_json::Value;

use crate::inputs::{InputSchema, SchemaError};

/// Distinct schemas kept; past it the least recently used is compiled again when next met.
const CAPACITY: NonZeroUsize = NonZeroUsize::new(256).expect("256 is not zero");

/// The process-wide cache.
pub(crate) fn shared() -> &'static SchemaCache {
    static SHARED: LazyLock<SchemaCache> = LazyLock::new(SchemaCache::default);
    &SHARED
}

/// A bounded map from a schema's JSON text to its compiled form.
pub(crate) struct SchemaCache {
    compiled: Mutex<LruCache<String, Arc<InputSchema>, rustc_hash::FxBuildHasher>>,
}

impl std::fmt::Debug for SchemaCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let len = self
            .compiled
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        f.debug_struct("SchemaCache").field("len", &len).finish()
    }
}

impl Default for SchemaCache {
    fn default() -> Self {
        SchemaCache {
            compiled: Mutex::new(LruCache::with_hasher(CAPACITY, rustc_hash::FxBuildHasher)),
        }
    }
}

impl SchemaCache {
    /// The compiled `schema`, from the cache or compiled now (errors are not kept).
    pub fn compile(&self, schema: Option<&Value>) -> Result<Arc<InputSchema>, SchemaError> {
        let Some(value) = schema else {
            return InputSchema::compile(None).map(Arc::new);
        };
        let key = value.to_string();
        if let Some(hit) = self.lock().get(&key) {
            return Ok(Arc::clone(hit));
        }
        // Compiled outside the lock: another thread may compile the same schema meanwhile,
        // which costs time once and changes nothing.
        let compiled = Arc::new(InputSchema::compile(Some(value))?);
        self.lock().put(key, Arc::clone(&compiled));
        Ok(compiled)
    }

    fn lock(
        &self,
    ) -> std::sync::MutexGuard<'_, LruCache<String, Arc<InputSchema>, rustc_hash::FxBuildHasher>>
    {
        // A panic while holding the lock leaves a valid map behind.
        self.compiled.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn same_text_compiles_once_and_errors_are_not_kept() {
        let cache = SchemaCache::default();
        let schema = json!({"type": "object", "properties": {"a": {"type": "integer"}}});
        let first = cache.compile(Some(&schema)).unwrap();
        let second = cache.compile(Some(&schema.clone())).unwrap();
        assert!(Arc::ptr_eq(&first, &second));
        let other = json!({"type": "object"});
        assert!(!Arc::ptr_eq(&first, &cache.compile(Some(&other)).unwrap()));
        let broken = json!({"type": 12});
        assert!(cache.compile(Some(&broken)).is_err());
        assert!(cache.compile(Some(&broken)).is_err());
        assert_eq!(cache.lock().len(), 2);
    }
}

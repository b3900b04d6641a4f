//! The answers of `GET /v1/templates/{id}?latest=true` read recently, kept while this process
//! alone writes the database ([`crate::store::Store::sole_writer`]: SQLite opened for the
//! service alone), so that a read of a hot template costs no database read, no parse of its
//! fields and no serialization (together ~30 % of such a read's CPU time, seen with `perf`).
//! The caller is authenticated and the answer is its organization's, as without the cache.
//!
//! An update or a delete of a template forgets its answer once the store has answered, whatever
//! the outcome, even when the request is dropped meanwhile (its deadline passed, its client
//! left): [`LatestTemplates::write`] runs the write and the forget in a task of their own. A read that started before
//! a forget never puts its answer back: a put carries the generation read before the store was
//! asked, and every forget starts a new generation. With replicas or other processes sharing
//! the database there is no cache: their writes would not be seen.
//!
//! ```ignore
//! // (crate-private: the same as the unit tests below)
//! use jobgraph_server::latest_templates::LatestTemplates;
//!
//! let cache = LatestTemplates::new(true);
//! let generation = cache.generation();
//! cache.put(generation, "acme", "t1", b"{\"items\":[]}".to_vec().into());
//! assert!(cache.get("acme", "t1").is_some());
//! assert!(cache.get("globex", "t1").is_none(), "an organization's own answers only");
//! cache.forget("acme", "t1");
//! assert!(cache.get("acme", "t1").is_none());
//! ```

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, PoisonError, RwLock};

use axum::body::Bytes;

/// Answers kept at most; past it the cache starts again empty.
const MAX_ANSWERS: usize = 10_000;
/// Bytes of answers kept at most; past it the cache starts again empty.
const MAX_BYTES: usize = 32 * 1024 * 1024;

/// Organization → template id → the answer of its latest version.
#[derive(Default)]
struct Answers {
    by_organization: HashMap<String, HashMap<String, Bytes>>,
    count: usize,
    bytes: usize,
}

#[derive(Default)]
struct Inner {
    generation: AtomicU64,
    answers: RwLock<Answers>,
}

/// The latest-version answers kept, or nothing when the database has other writers.
#[derive(Clone)]
pub struct LatestTemplates(Option<Arc<Inner>>);

impl LatestTemplates {
    /// A cache when `sole_writer`, else one that keeps nothing.
    pub fn new(sole_writer: bool) -> Self {
        LatestTemplates(sole_writer.then(Arc::default))
    }

    /// The kept answer of organization `org`'s template `id`.
    pub fn get(&self, org: &str, id: &str) -> Option<Bytes> {
        let inner = self.0.as_ref()?;
        let answers = inner.answers.read().unwrap_or_else(PoisonError::into_inner);
        answers.by_organization.get(org)?.get(id).cloned()
    }

    /// The generation to hand to [`LatestTemplates::put`]: read it before asking the store.
    pub fn generation(&self) -> u64 {
        self.0
            .as_ref()
            .map_or(0, |inner| inner.generation.load(Ordering::Acquire))
    }

    /// Keeps `answer`, read from the store after `generation` was read, unless a template
    /// was updated or deleted since.
    pub fn put(&self, generation: u64, org: &str, id: &str, answer: Bytes) {
        let Some(inner) = self.0.as_ref() else {
            return;
        };
        let mut answers = inner
            .answers
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        // Under the lock, which every forget takes after starting its generation.
        if inner.generation.load(Ordering::Acquire) != generation {
            return;
        }
        if answers.count >= MAX_ANSWERS || answers.bytes + answer.len() > MAX_BYTES {
            *answers = Answers::default();
        }
        answers.count += 1;
        answers.bytes += answer.len();
        let previous = answers
            .by_organization
            .entry(org.to_owned())
            .or_default()
            .insert(id.to_owned(), answer);
        if let Some(previous) = previous {
            answers.count -= 1;
            answers.bytes -= previous.len();
        }
    }

    /// Runs `write` (an update or a delete of organization `org`'s template `id`) to its end
    /// in a task of its own, then forgets the template's answer: a request dropped while the
    /// store writes cannot leave the old answer kept.
    pub async fn write<T: Send + 'static>(
        &self,
        org: String,
        id: String,
        write: impl Future<Output = T> + Send + 'static,
    ) -> Result<T, tokio::task::JoinError> {
        let cache = self.clone();
        tokio::spawn(async move {
            let written = write.await;
            cache.forget(&org, &id);
            written
        })
        .await
    }

    /// Forgets the answer of organization `org`'s template `id` (updated or deleted), and
    /// keeps any read that started before from putting one back.
    pub fn forget(&self, org: &str, id: &str) {
        let Some(inner) = self.0.as_ref() else {
            return;
        };
        inner.generation.fetch_add(1, Ordering::AcqRel);
        let mut answers = inner
            .answers
            .write()
            .unwrap_or_else(PoisonError::into_inner);
        let removed = answers
            .by_organization
            .get_mut(org)
            .and_then(|templates| templates.remove(id));
        if let Some(removed) = removed {
            answers.count -= 1;
            answers.bytes -= removed.len();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(text: &str) -> Bytes {
        Bytes::from(text.to_owned())
    }

    #[test]
    fn a_read_that_started_before_a_forget_puts_nothing_back() {
        let cache = LatestTemplates::new(true);
        let before = cache.generation();
        cache.forget("acme", "t1"); // an update committed while the read was at the store
        cache.put(before, "acme", "t1", answer("version 1"));
        assert!(cache.get("acme", "t1").is_none());
        let after = cache.generation();
        cache.put(after, "acme", "t1", answer("version 2"));
        assert_eq!(cache.get("acme", "t1").unwrap(), "version 2");
    }

    #[test]
    fn without_a_sole_writer_nothing_is_kept() {
        let cache = LatestTemplates::new(false);
        cache.put(cache.generation(), "acme", "t1", answer("x"));
        assert!(cache.get("acme", "t1").is_none());
    }

    #[test]
    fn the_cache_starts_again_when_full_and_counts_what_it_holds() {
        let cache = LatestTemplates::new(true);
        for n in 0..MAX_ANSWERS {
            cache.put(cache.generation(), "acme", &format!("t{n}"), answer("a"));
        }
        assert!(cache.get("acme", "t0").is_some());
        cache.put(cache.generation(), "acme", "one-more", answer("b"));
        assert!(cache.get("acme", "t0").is_none(), "started again");
        assert!(cache.get("acme", "one-more").is_some());
        // Replacing an answer counts it once.
        cache.put(cache.generation(), "acme", "one-more", answer("ccc"));
        let inner = cache.0.as_ref().unwrap();
        let answers = inner.answers.read().unwrap();
        assert_eq!((answers.count, answers.bytes), (1, 3));
        drop(answers);
        let big = Bytes::from(vec![b'x'; MAX_BYTES]);
        cache.put(cache.generation(), "acme", "big", big);
        assert!(
            cache.get("acme", "one-more").is_none(),
            "over the bytes: started again"
        );
    }
}

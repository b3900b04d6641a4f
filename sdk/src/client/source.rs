//! [`RemoteSource`]: the templates stored in the service as a
//! [`TemplateSource`](jobgraph_model::TemplateSource), so that a job resolves locally exactly
//! as the service would resolve it.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use jobgraph_model::{FetchError, Template, TemplateSource};

use super::{Client, ClientError};

/// Templates fetched from the service: `GET /v1/templates/{id}?latest=true` or
/// `?version=N`.
///
/// The resolver asks for every template of a nesting level at once and each `id`/version at
/// most once per resolution; the requests of a level run concurrently. Versions are immutable,
/// so a version fetched once (pinned, or as the latest) is kept and never fetched again by
/// this source; the latest version is asked for each time it is needed, since it moves.
///
/// ```no_run
/// use jobgraph_core::Resolver;
/// use jobgraph_sdk::client::{Client, Credentials, RemoteSource};
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let client = Client::builder("http://127.0.0.1:8080")
///     .credentials(Credentials::new("ci", "…"))
///     .build()?;
/// let resolver = Resolver::builder(RemoteSource::new(client)).user("ci").build();
/// let job = serde_json::json!({"vertices": [
///     {"type": "template-operation", "name": "errors", "templateId": "mF3k2V9qTzX1bQ7w"}]});
/// let resolved = resolver.resolve_document(&job).await?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct RemoteSource {
    client: Client,
    versions: Mutex<HashMap<(String, u64), Template>>,
    requests: AtomicUsize,
    outstanding: AtomicUsize,
    peak: AtomicUsize,
}

/// What a [`RemoteSource`] did so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SourceStats {
    /// Requests sent to the service.
    pub requests: usize,
    /// The most fetches asked for and not yet answered at once: the resolver asks for a
    /// level's templates together and awaits them together, so their requests overlap.
    pub peak_outstanding: usize,
}

/// One fetch asked for and not answered yet (counted from `fetch` until its future ends or
/// is dropped).
struct Outstanding<'a>(&'a AtomicUsize);

impl<'a> Outstanding<'a> {
    fn new(count: &'a AtomicUsize, peak: &AtomicUsize) -> Self {
        let now = count.fetch_add(1, Ordering::Relaxed) + 1;
        peak.fetch_max(now, Ordering::Relaxed);
        Outstanding(count)
    }
}

impl Drop for Outstanding<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl RemoteSource {
    /// A source over `client`.
    pub fn new(client: Client) -> Self {
        RemoteSource {
            client,
            versions: Mutex::new(HashMap::new()),
            requests: AtomicUsize::new(0),
            outstanding: AtomicUsize::new(0),
            peak: AtomicUsize::new(0),
        }
    }

    /// The client it fetches with.
    pub fn client(&self) -> &Client {
        &self.client
    }

    /// Requests sent so far, and the most fetches outstanding at once.
    pub fn stats(&self) -> SourceStats {
        SourceStats {
            requests: self.requests.load(Ordering::Relaxed),
            peak_outstanding: self.peak.load(Ordering::Relaxed),
        }
    }

    fn kept(&self, id: &str, version: u64) -> Option<Template> {
        self.versions
            .lock()
            .ok()?
            .get(&(id.to_owned(), version))
            .cloned()
    }

    fn keep(&self, template: &Template) {
        if let Ok(mut versions) = self.versions.lock() {
            versions.insert((template.id.clone(), template.version), template.clone());
        }
    }

    async fn request(&self, id: &str, version: Option<u64>) -> Result<Template, ClientError> {
        self.requests.fetch_add(1, Ordering::Relaxed);
        let result = match version {
            None => self.client.latest_template(id).await,
            Some(v) => self.client.template_version(id, v).await,
        };
        Ok(result?.into_template())
    }
}

impl TemplateSource for RemoteSource {
    fn fetch(
        &self,
        id: &str,
        version: Option<u64>,
    ) -> impl Future<Output = Result<Template, FetchError>> {
        let id = id.to_owned();
        let outstanding = Outstanding::new(&self.outstanding, &self.peak);
        async move {
            let _outstanding = outstanding;
            if let Some(v) = version
                && let Some(template) = self.kept(&id, v)
            {
                return Ok(template);
            }
            match self.request(&id, version).await {
                Ok(template) => {
                    self.keep(&template);
                    Ok(template)
                }
                Err(e) if e.is_not_found() => Err(FetchError::NotFound),
                Err(e) => Err(FetchError::Failed(e.to_string())),
            }
        }
    }
}

//! The lake root: an object store and a prefix, opened from a directory or a URL.

use std::path::PathBuf;
use std::sync::Arc;

use object_store::ObjectStore;
use object_store::local::LocalFileSystem;
use object_store::path::Path;

use crate::LakeError;

/// Settings for an `s3://` lake; settings left `None` come from the `AWS_*` environment
/// variables (object_store's `AmazonS3Builder::from_env`).
#[derive(Clone, Default)]
pub struct S3Options {
    /// An S3-compatible endpoint (`http://127.0.0.1:9000`); `None`: AWS.
    pub endpoint: Option<String>,
    /// The region; `None`: from the environment, else `us-east-1`.
    pub region: Option<String>,
    /// The access key id.
    pub access_key_id: Option<String>,
    /// The secret access key (never printed: `Debug` redacts it).
    pub secret_access_key: Option<String>,
    /// Whether a plain `http://` endpoint is allowed (tests, local servers).
    pub allow_http: bool,
}

impl std::fmt::Debug for S3Options {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("S3Options")
            .field("endpoint", &self.endpoint)
            .field("region", &self.region)
            .field("access_key_id", &self.access_key_id)
            .field(
                "secret_access_key",
                &self.secret_access_key.as_ref().map(|_| "<redacted>"),
            )
            .field("allow_http", &self.allow_http)
            .finish()
    }
}

/// A lake root: an object store and the prefix under which every table lives. Cheap to clone.
#[derive(Clone, Debug)]
pub struct Lake {
    pub(crate) store: Arc<dyn ObjectStore>,
    /// The prefix inside the store (empty for a local directory, which is the store's root).
    pub(crate) prefix: Path,
    /// The local directory of a `file://` lake (garbage collection walks it for staging files).
    pub(crate) local_root: Option<PathBuf>,
    url: String,
}

impl Lake {
    /// A lake in a local directory, created if missing.
    pub fn local(dir: &std::path::Path) -> Result<Lake, LakeError> {
        let io = |source| LakeError::Io {
            path: dir.display().to_string(),
            source,
        };
        std::fs::create_dir_all(dir).map_err(io)?;
        let dir = std::fs::canonicalize(dir).map_err(io)?;
        let store = LocalFileSystem::new_with_prefix(&dir).map_err(|source| LakeError::Store {
            path: dir.display().to_string(),
            source,
        })?;
        Ok(Lake {
            store: Arc::new(store),
            prefix: Path::default(),
            url: format!("file://{}", dir.display()),
            local_root: Some(dir),
        })
    }

    /// A lake at a URL: `file:///absolute/path` or `s3://bucket/prefix` (the latter needs the
    /// crate's feature `s3`; without it the answer is an error saying so).
    pub fn open(url: &str, s3: &S3Options) -> Result<Lake, LakeError> {
        let bad = |reason: &str| LakeError::BadUrl {
            url: url.to_owned(),
            reason: reason.to_owned(),
        };
        if let Some(path) = url.strip_prefix("file://") {
            if !path.starts_with('/') {
                return Err(bad(
                    "a file URL needs an absolute path (file:///var/lib/jobgraph/lake)",
                ));
            }
            return Lake::local(std::path::Path::new(path));
        }
        if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(bad("no bucket (s3://bucket/prefix)"));
            }
            let prefix = prefix.trim_end_matches('/');
            let prefix = Path::parse(prefix).map_err(|e| bad(&format!("bad prefix: {e}")))?;
            return open_s3(url, bucket, prefix, s3);
        }
        Err(bad(
            "unsupported scheme: use file:///absolute/path or s3://bucket/prefix",
        ))
    }

    /// The root URL (`file:///…` or `s3://bucket/prefix`), without credentials.
    pub fn describe(&self) -> String {
        self.url.clone()
    }

    /// The store path of an object path relative to the root.
    pub(crate) fn object_path(&self, relative: &str) -> Result<Path, LakeError> {
        let full = if self.prefix.as_ref().is_empty() {
            relative.to_owned()
        } else {
            format!("{}/{relative}", self.prefix)
        };
        Path::parse(&full).map_err(|e| LakeError::Store {
            path: relative.to_owned(),
            source: e.into(),
        })
    }

    /// The path relative to the root of a store path under it.
    pub(crate) fn relative<'a>(&self, location: &'a Path) -> &'a str {
        let full = location.as_ref();
        let prefix = self.prefix.as_ref();
        if prefix.is_empty() {
            full
        } else {
            full.strip_prefix(prefix)
                .map(|r| r.trim_start_matches('/'))
                .unwrap_or(full)
        }
    }
}

#[cfg(feature = "s3")]
fn open_s3(url: &str, bucket: &str, prefix: Path, s3: &S3Options) -> Result<Lake, LakeError> {
    use object_store::aws::AmazonS3Builder;
    // reqwest is built with `rustls-no-provider`: rustls needs a process-wide crypto provider
    // (*ring*, as jobgraph-sdk installs). An `Err` means one is installed already.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut builder = AmazonS3Builder::from_env()
        .with_bucket_name(bucket)
        .with_allow_http(s3.allow_http);
    if let Some(endpoint) = &s3.endpoint {
        builder = builder.with_endpoint(endpoint);
    }
    if let Some(region) = &s3.region {
        builder = builder.with_region(region);
    }
    if let Some(key) = &s3.access_key_id {
        builder = builder.with_access_key_id(key);
    }
    if let Some(secret) = &s3.secret_access_key {
        builder = builder.with_secret_access_key(secret);
    }
    let store = builder.build().map_err(|e| LakeError::BadUrl {
        url: url.to_owned(),
        reason: format!("cannot configure S3: {e}"),
    })?;
    Ok(Lake {
        store: Arc::new(store),
        prefix,
        local_root: None,
        url: url.to_owned(),
    })
}

#[cfg(not(feature = "s3"))]
fn open_s3(url: &str, _bucket: &str, _prefix: Path, _s3: &S3Options) -> Result<Lake, LakeError> {
    Err(LakeError::BadUrl {
        url: url.to_owned(),
        reason: "this build has no S3 support: build jobgraph-lake with the cargo feature `s3`"
            .to_owned(),
    })
}

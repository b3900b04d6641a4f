//! [`DiskTokenStore`]: tokens kept in a folder (the CLI's `~/.jobgraph/auth/`), one file per
//! client id and auth URL, owner-only, written atomically.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::token::{AccessToken, TokenKey, TokenStore};

/// Tokens in files: `<dir>/<client id>-<hash of client id and auth URL>.json`.
///
/// The folder is created mode 0700 and each file mode 0600 (on Unix); a file is written to a
/// temporary name beside it and renamed, so a reader never sees half a token. Only the token
/// is written, never the client secret. Removing the folder forces new tokens.
#[derive(Debug, Clone)]
pub struct DiskTokenStore {
    dir: PathBuf,
}

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct TokenFile {
    client_id: String,
    auth_base_url: String,
    access_token: String,
    /// Unix time in milliseconds.
    issued_at: u64,
    /// Unix time in milliseconds.
    expires_at: u64,
    /// A person's refresh token (from a login).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    refresh_token: Option<String>,
}

fn ms(time: SystemTime) -> u64 {
    time.duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
}

fn from_ms(ms: u64) -> SystemTime {
    UNIX_EPOCH + Duration::from_millis(ms)
}

impl DiskTokenStore {
    /// A store in `dir` (created on the first save).
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        DiskTokenStore { dir: dir.into() }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of `key`.
    pub fn path_for(&self, key: &TokenKey) -> PathBuf {
        let safe: String = key
            .client_id
            .chars()
            .take(64)
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let mut hash = Sha256::new();
        hash.update(key.client_id.as_bytes());
        hash.update([0]);
        hash.update(key.auth_base_url.as_bytes());
        let digest = hash.finalize();
        let short: String = digest[..8].iter().map(|b| format!("{b:02x}")).collect();
        self.dir.join(format!("{safe}-{short}.json"))
    }

    fn create_dir(&self) -> std::io::Result<()> {
        fs::create_dir_all(&self.dir)?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&self.dir, fs::Permissions::from_mode(0o700))?;
        }
        Ok(())
    }
}

impl TokenStore for DiskTokenStore {
    fn load(&self, key: &TokenKey) -> Option<AccessToken> {
        let text = fs::read(self.path_for(key)).ok()?;
        let file: TokenFile = serde_json::from_slice(&text).ok()?;
        if file.client_id != key.client_id || file.auth_base_url != key.auth_base_url {
            return None;
        }
        let token = AccessToken::new(
            file.access_token,
            from_ms(file.issued_at),
            from_ms(file.expires_at),
        );
        Some(match file.refresh_token {
            Some(refresh) => token.with_refresh_token(refresh),
            None => token,
        })
    }

    fn save(&self, key: &TokenKey, token: &AccessToken) -> std::io::Result<()> {
        self.create_dir()?;
        let path = self.path_for(key);
        let file = TokenFile {
            client_id: key.client_id.clone(),
            auth_base_url: key.auth_base_url.clone(),
            access_token: token.secret().expose().to_owned(),
            issued_at: ms(token.issued_at()),
            expires_at: ms(token.expires_at()),
            refresh_token: token.refresh_token().map(|r| r.expose().to_owned()),
        };
        let bytes = serde_json::to_vec_pretty(&file).map_err(std::io::Error::other)?;
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let temp = self
            .dir
            .join(format!(".{name}.{}.{nanos}.tmp", std::process::id()));
        let mut options = fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        let written = options.open(&temp).and_then(|mut out| {
            out.write_all(&bytes)?;
            out.sync_all()
        });
        if let Err(e) = written.and_then(|()| fs::rename(&temp, &path)) {
            let _ = fs::remove_file(&temp);
            return Err(e);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_owner_only_per_client_and_url() {
        let home = tempfile::tempdir().unwrap();
        let store = DiskTokenStore::new(home.path().join("auth"));
        let key = TokenKey {
            client_id: "ci/bot".into(),
            auth_base_url: "http://127.0.0.1:8080".into(),
        };
        assert!(store.load(&key).is_none());
        let t0 = UNIX_EPOCH + Duration::from_millis(1_700_000_000_123);
        let token = AccessToken::new("tok", t0, t0 + Duration::from_secs(60));
        store.save(&key, &token).unwrap();
        assert_eq!(store.load(&key), Some(token));
        let path = store.path_for(&key);
        assert!(
            path.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("ci_bot-"),
            "{path:?}"
        );
        let other = TokenKey {
            auth_base_url: "http://127.0.0.1:9090".into(),
            ..key.clone()
        };
        assert_ne!(store.path_for(&other), path);
        assert!(store.load(&other).is_none());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&path), 0o600);
            assert_eq!(mode(store.dir()), 0o700);
        }
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(store.dir()).unwrap().count(), 1);
    }
}

//! Garbage collection: objects no manifest row references.

use std::collections::HashSet;
use std::time::{Duration, SystemTime};

use futures_util::StreamExt;
use object_store::ObjectStoreExt;

use crate::ids::check_id;
use crate::{Lake, LakeError};

/// The `(organization, dataset)` folders under the root.
pub(crate) async fn datasets(lake: &Lake) -> Result<Vec<(String, String)>, LakeError> {
    let list = |prefix: Option<object_store::path::Path>| {
        let store = std::sync::Arc::clone(&lake.store);
        async move {
            store
                .list_with_delimiter(prefix.as_ref())
                .await
                .map_err(|source| LakeError::Store {
                    path: prefix.map(|p| p.to_string()).unwrap_or_default(),
                    source,
                })
        }
    };
    let root = if lake.prefix.as_ref().is_empty() {
        None
    } else {
        Some(lake.prefix.clone())
    };
    let mut found = Vec::new();
    for org in list(root).await?.common_prefixes {
        let Some(org_name) = org.filename().map(str::to_owned) else {
            continue;
        };
        if check_id("organization", &org_name).is_err() {
            continue;
        }
        for dataset in list(Some(org)).await?.common_prefixes {
            if let Some(name) = dataset.filename()
                && check_id("dataset id", name).is_ok()
            {
                found.push((org_name.clone(), name.to_owned()));
            }
        }
    }
    Ok(found)
}

pub(crate) async fn collect(
    lake: &Lake,
    organization: &str,
    dataset_id: &str,
    keep: &HashSet<String>,
    grace: Duration,
) -> Result<usize, LakeError> {
    check_id("organization", organization)?;
    check_id("dataset id", dataset_id)?;
    let relative = format!("{organization}/{dataset_id}");
    let prefix = lake.object_path(&relative)?;
    let now = SystemTime::now();
    let cutoff_us = now
        .checked_sub(grace)
        .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map(|d| i64::try_from(d.as_micros()).unwrap_or(i64::MAX))
        .unwrap_or(i64::MIN);
    let store_error = |path: &str, source| LakeError::Store {
        path: path.to_owned(),
        source,
    };
    let mut doomed = Vec::new();
    let mut listing = lake.store.list(Some(&prefix));
    while let Some(meta) = listing.next().await {
        let meta = meta.map_err(|e| store_error(&relative, e))?;
        let path = lake.relative(&meta.location).to_owned();
        if !keep.contains(&path) && meta.last_modified.timestamp_micros() < cutoff_us {
            doomed.push(meta.location);
        }
    }
    drop(listing);
    let mut deleted = 0;
    for location in doomed {
        match lake.store.delete(&location).await {
            Ok(()) => deleted += 1,
            Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => return Err(store_error(lake.relative(&location), e)),
        }
    }
    if let Some(root) = &lake.local_root {
        let cutoff = now.checked_sub(grace).unwrap_or(SystemTime::UNIX_EPOCH);
        deleted += remove_staging(&root.join(organization).join(dataset_id), cutoff)?;
    }
    Ok(deleted)
}

/// Deletes a local lake's staging files (`name#N`, left by a crash mid-write; listings hide
/// them) modified before `cutoff`.
fn remove_staging(dir: &std::path::Path, cutoff: SystemTime) -> Result<usize, LakeError> {
    let io = |path: &std::path::Path, source| LakeError::Io {
        path: path.display().to_string(),
        source,
    };
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(io(dir, e)),
    };
    let mut deleted = 0;
    for entry in entries {
        let entry = entry.map_err(|e| io(dir, e))?;
        let path = entry.path();
        let kind = entry.file_type().map_err(|e| io(&path, e))?;
        if kind.is_dir() {
            deleted += remove_staging(&path, cutoff)?;
        } else if kind.is_file() && entry.file_name().to_string_lossy().contains('#') {
            let modified = entry
                .metadata()
                .and_then(|m| m.modified())
                .map_err(|e| io(&path, e))?;
            if modified < cutoff {
                std::fs::remove_file(&path).map_err(|e| io(&path, e))?;
                deleted += 1;
            }
        }
    }
    Ok(deleted)
}

//! Garbage collection of the lake: at start and every `lake.gcIntervalSeconds`, the files of
//! every dataset folder that no manifest row names (a run that crashed before it could delete
//! what it wrote, a commit that failed) are deleted once older than `lake.gcGraceSeconds`.
//! Files of deleted datasets stay: their manifest rows do (docs/lake.md, "Writing").

use std::collections::HashSet;
use std::time::Duration;

use crate::state::AppState;

/// Collects garbage now, then every `gcIntervalSeconds`, for as long as the service runs.
pub(crate) fn start(state: AppState) {
    let interval = Duration::from_secs(state.config.lake.gc_interval_seconds.max(1));
    tokio::spawn(async move {
        loop {
            match collect(&state).await {
                Ok(0) => {}
                Ok(n) => tracing::info!("lake: deleted {n} file(s) no manifest names"),
                Err(e) => tracing::warn!("lake: garbage collection stopped: {e}"),
            }
            tokio::time::sleep(interval).await;
        }
    });
}

/// One pass over every dataset folder: how many files were deleted.
async fn collect(state: &AppState) -> Result<usize, String> {
    let Some(lake) = &state.lake else {
        return Ok(0);
    };
    let grace = Duration::from_secs(state.config.lake.gc_grace_seconds);
    let mut deleted = 0;
    for (organization, dataset) in lake.datasets().await.map_err(|e| e.to_string())? {
        let keep: HashSet<String> = state
            .store
            .lake_files(organization.clone(), dataset.clone(), None, None, None)
            .await
            .map_err(|e| format!("{organization}/{dataset}: {e}"))?
            .into_iter()
            .map(|f| f.path)
            .collect();
        deleted += lake
            .collect_garbage(&organization, &dataset, &keep, grace)
            .await
            .map_err(|e| e.to_string())?;
    }
    Ok(deleted)
}

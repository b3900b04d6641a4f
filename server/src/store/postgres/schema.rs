//! The PostgreSQL side of [`MIGRATIONS`]: applied at start under an advisory lock, so that
//! replicas starting together apply each migration once. `jobgraph_migrations` records what
//! was applied; all pending migrations run in one transaction (DDL is transactional in
//! PostgreSQL), so a crash leaves the schema as it was.

use tokio_postgres::Client;

use crate::ids::now_ms;
use crate::store::StoreError;
use crate::store::schema::{MIGRATIONS, MigrationError};
use crate::store::sql::Dialect;

/// The advisory lock key of migrations (any constant shared by every replica).
const MIGRATION_LOCK: i64 = 0x6a6f_6267_7261_7068; // "jobgraph"

/// Brings the schema up to date; returns how many migrations this call applied.
pub(super) async fn migrate(client: &mut Client) -> Result<usize, StoreError> {
    let tx = client.transaction().await?;
    tx.batch_execute(&format!("SELECT pg_advisory_xact_lock({MIGRATION_LOCK})"))
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS jobgraph_migrations (
            version    INTEGER PRIMARY KEY,
            applied_at BIGINT NOT NULL
        )",
    )
    .await?;
    let applied: i32 = tx
        .query_one(
            "SELECT COALESCE(MAX(version), 0)::INTEGER FROM jobgraph_migrations",
            &[],
        )
        .await?
        .try_get(0)?;
    let applied = usize::try_from(applied).unwrap_or(0);
    if applied > MIGRATIONS.len() {
        let too_new = MigrationError::TooNew { found: applied };
        return Err(StoreError::Backend(too_new.to_string()));
    }
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(applied) {
        tx.batch_execute(&migration.text(Dialect::Postgres)).await?;
        let version = i32::try_from(index + 1).unwrap_or(i32::MAX);
        tx.execute(
            "INSERT INTO jobgraph_migrations (version, applied_at) VALUES ($1, $2)",
            &[&version, &now_ms()],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(MIGRATIONS.len() - applied)
}

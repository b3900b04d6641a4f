//! The SQLite side of [`MIGRATIONS`]: `PRAGMA user_version` holds the number of migrations
//! applied; each runs in its own transaction with the version bump, so a crash leaves the
//! database at one version or the next.

use rusqlite::Connection;

use crate::store::schema::{MIGRATIONS, MigrationError, SCHEMA_VERSION};
use crate::store::sql::Dialect;

fn database(error: rusqlite::Error) -> MigrationError {
    MigrationError::Database(error.to_string())
}

/// Applies every migration the database lacks.
pub(super) fn migrate(connection: &mut Connection) -> Result<(), MigrationError> {
    let found: i64 = connection
        .query_row("PRAGMA user_version", [], |row| row.get(0))
        .map_err(database)?;
    let found = usize::try_from(found).unwrap_or(0);
    if found > SCHEMA_VERSION {
        return Err(MigrationError::TooNew { found });
    }
    for (index, migration) in MIGRATIONS.iter().enumerate().skip(found) {
        let mut apply = || -> rusqlite::Result<()> {
            let tx =
                connection.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            tx.execute_batch(&migration.text(Dialect::Sqlite))?;
            let version = i64::try_from(index + 1).unwrap_or(i64::MAX);
            tx.pragma_update(None, "user_version", version)?;
            tx.commit()
        };
        apply().map_err(database)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrates_once_and_refuses_newer() {
        let mut db = Connection::open_in_memory().unwrap();
        migrate(&mut db).unwrap();
        migrate(&mut db).unwrap();
        let version: i64 = db
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION as i64);
        db.pragma_update(None, "user_version", SCHEMA_VERSION as i64 + 1)
            .unwrap();
        let refused = migrate(&mut db).unwrap_err();
        assert!(matches!(refused, MigrationError::TooNew { .. }));
        assert!(
            refused.to_string().contains("run a newer jobgraph"),
            "{refused}"
        );
    }
}

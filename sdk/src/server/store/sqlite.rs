//! [`SqliteStore`]: the [`Store`] on an embedded SQLite database (WAL journal).
//!
//! One writer connection (writes are serialized by SQLite anyway; each is one `BEGIN
//! IMMEDIATE` transaction) and a few reader connections that read concurrently with it under
//! WAL. Every call runs on tokio's blocking pool, never on the async workers.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rusqlite::{Connection, OpenFlags, OptionalExtension, Row, TransactionBehavior, params};
use serde_json::Value;

use super::migrations::{MigrationError, migrate};
use super::{
    ClientRecord, JobFields, JobFilter, JobRecord, NewTemplateVersion, Store, StoreError,
    StoreFuture, TemplateRecord, TokenRecord,
};
use crate::server::ids::now_ms;

/// When SQLite syncs the WAL to disk (`PRAGMA synchronous`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Synchronous {
    /// At every commit: an acknowledged write survives a crash of the process and of the
    /// machine (power loss). The default.
    #[default]
    Full,
    /// At checkpoints: an acknowledged write survives a crash of the process (`kill -9`), and
    /// the last commits may be lost on power loss. Faster writes.
    Normal,
}

/// The SQLite [`Store`].
#[derive(Clone)]
pub struct SqliteStore {
    inner: Arc<Inner>,
}

struct Inner {
    writer: Mutex<Connection>,
    readers: Vec<Mutex<Connection>>,
    next_reader: AtomicUsize,
}

impl std::fmt::Debug for SqliteStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SqliteStore")
            .field("readers", &self.inner.readers.len())
            .finish_non_exhaustive()
    }
}

/// Why the database could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// SQLite refused.
    #[error("cannot open the database: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The schema could not be brought up to date.
    #[error("cannot migrate the database: {0}")]
    Migration(#[from] MigrationError),
}

fn backend(error: impl std::fmt::Display) -> StoreError {
    StoreError::Backend(error.to_string())
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        backend(error)
    }
}

impl SqliteStore {
    /// Opens (creating it if needed) the database file at `path`, applies the migrations, and
    /// opens `readers` reader connections.
    pub fn open(path: &Path, synchronous: Synchronous, readers: usize) -> Result<Self, OpenError> {
        let mut writer = Connection::open(path)?;
        writer.pragma_update(None, "journal_mode", "WAL")?;
        let sync = match synchronous {
            Synchronous::Full => "FULL",
            Synchronous::Normal => "NORMAL",
        };
        writer.pragma_update(None, "synchronous", sync)?;
        writer.pragma_update(None, "foreign_keys", "ON")?;
        writer.busy_timeout(std::time::Duration::from_secs(10))?;
        migrate(&mut writer)?;
        let readers = (0..readers.max(1))
            .map(|_| {
                let reader = Connection::open_with_flags(
                    path,
                    OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                reader.busy_timeout(std::time::Duration::from_secs(10))?;
                Ok(Mutex::new(reader))
            })
            .collect::<Result<Vec<_>, rusqlite::Error>>()?;
        Ok(SqliteStore {
            inner: Arc::new(Inner {
                writer: Mutex::new(writer),
                readers,
                next_reader: AtomicUsize::new(0),
            }),
        })
    }

    /// Runs `f` on a reader connection, on the blocking pool.
    fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let n = inner.next_reader.fetch_add(1, Ordering::Relaxed) % inner.readers.len();
                let reader = inner.readers[n]
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                f(&reader)
            })
            .await
            .map_err(backend)?
        })
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction on the writer, on the blocking pool;
    /// commits when it succeeds.
    fn write<T: Send + 'static>(
        &self,
        f: impl FnOnce(&rusqlite::Transaction<'_>) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let inner = Arc::clone(&self.inner);
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut writer = inner.writer.lock().unwrap_or_else(PoisonError::into_inner);
                let tx = writer.transaction_with_behavior(TransactionBehavior::Immediate)?;
                let value = f(&tx)?;
                tx.commit()?;
                Ok(value)
            })
            .await
            .map_err(backend)?
        })
    }
}

fn version(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

fn sql_version(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

const TEMPLATE_COLUMNS: &str = "t.id, t.org, v.version, t.latest_version, t.created_at, \
     v.created_at, v.source_hash, v.edited_by, v.fields";

fn template_row(row: &Row<'_>) -> rusqlite::Result<(TemplateRecord, String)> {
    let v: i64 = row.get(2)?;
    let latest: i64 = row.get(3)?;
    Ok((
        TemplateRecord {
            id: row.get(0)?,
            organization: row.get(1)?,
            version: version(v),
            latest: v == latest,
            created_at_ms: row.get(4)?,
            updated_at_ms: row.get(5)?,
            source_hash: row.get(6)?,
            edited_by: row.get(7)?,
            fields: Default::default(),
        },
        row.get(8)?,
    ))
}

fn template_record(
    (mut record, fields): (TemplateRecord, String),
) -> Result<TemplateRecord, StoreError> {
    record.fields = serde_json::from_str(&fields).map_err(backend)?;
    Ok(record)
}

fn query_templates(
    db: &Connection,
    filter: &str,
    params: &[&dyn rusqlite::ToSql],
) -> Result<Vec<TemplateRecord>, StoreError> {
    let sql = format!(
        "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
         WHERE t.deleted_at IS NULL AND {filter}"
    );
    let mut statement = db.prepare_cached(&sql)?;
    let rows = statement.query_map(params, template_row)?;
    rows.map(|row| template_record(row?)).collect()
}

fn insert_template_version(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    version: u64,
    new: &NewTemplateVersion,
    now: i64,
) -> Result<(), StoreError> {
    let fields = serde_json::to_string(&new.fields).map_err(backend)?;
    tx.prepare_cached(
        "INSERT INTO template_versions (template_id, version, fields, source_hash, edited_by, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![id, sql_version(version), fields, new.source_hash, new.edited_by, now])?;
    Ok(())
}

const JOB_COLUMNS: &str = "j.id, j.org, v.version, j.latest_version, j.created_at, v.created_at, \
     v.name, v.execution, v.processing, v.state, v.desired_state, v.tags, v.definition, \
     v.resolved, v.templates, v.edited_by";

fn json<T: serde::de::DeserializeOwned>(text: &str) -> rusqlite::Result<T> {
    serde_json::from_str(text).map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))
}

fn job_row(row: &Row<'_>) -> rusqlite::Result<JobRecord> {
    let v: i64 = row.get(2)?;
    let latest: i64 = row.get(3)?;
    Ok(JobRecord {
        id: row.get(0)?,
        organization: row.get(1)?,
        version: version(v),
        latest: v == latest,
        created_at_ms: row.get(4)?,
        updated_at_ms: row.get(5)?,
        fields: JobFields {
            name: row.get(6)?,
            execution: row.get(7)?,
            processing: row.get(8)?,
            state: row.get(9)?,
            desired_state: row.get(10)?,
            tags: json(&row.get::<_, String>(11)?)?,
            definition: json(&row.get::<_, String>(12)?)?,
            resolved: json(&row.get::<_, String>(13)?)?,
            templates: json(&row.get::<_, String>(14)?)?,
            edited_by: row.get(15)?,
        },
    })
}

fn insert_job_version(
    tx: &rusqlite::Transaction<'_>,
    id: &str,
    version: u64,
    fields: &JobFields,
    now: i64,
) -> Result<(), StoreError> {
    tx.prepare_cached(
        "INSERT INTO job_versions (job_id, version, name, execution, processing, state, \
         desired_state, tags, definition, resolved, templates, edited_by, created_at) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    )?
    .execute(params![
        id,
        sql_version(version),
        fields.name,
        fields.execution,
        fields.processing,
        fields.state,
        fields.desired_state,
        to_text(&fields.tags)?,
        to_text(&fields.definition)?,
        to_text(&fields.resolved)?,
        to_text(&fields.templates)?,
        fields.edited_by,
        now
    ])?;
    Ok(())
}

fn to_text<T: serde::Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(backend)
}

fn read_job(
    db: &Connection,
    org: &str,
    id: &str,
    version: Option<u64>,
) -> Result<JobRecord, StoreError> {
    let sql = format!(
        "SELECT {JOB_COLUMNS} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
         WHERE j.id = ?1 AND j.org = ?2 AND j.deleted_at IS NULL \
         AND v.version = COALESCE(?3, j.latest_version)"
    );
    db.prepare_cached(&sql)?
        .query_row(params![id, org, version.map(sql_version)], job_row)
        .optional()?
        .ok_or(StoreError::NotFound)
}

impl Store for SqliteStore {
    fn put_client(&self, client: ClientRecord) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            tx.execute(
                "INSERT INTO clients (client_id, org, secret_hash, created_at) VALUES (?1, ?2, ?3, ?4) \
                 ON CONFLICT (client_id) DO UPDATE SET org = excluded.org, secret_hash = excluded.secret_hash",
                params![client.client_id, client.organization, client.secret_hash, now_ms()],
            )?;
            Ok(())
        })
    }

    fn client(&self, client_id: String) -> StoreFuture<'_, Option<ClientRecord>> {
        self.read(move |db| {
            Ok(db
                .prepare_cached(
                    "SELECT client_id, org, secret_hash FROM clients WHERE client_id = ?1",
                )?
                .query_row([client_id], |row| {
                    Ok(ClientRecord {
                        client_id: row.get(0)?,
                        organization: row.get(1)?,
                        secret_hash: row.get(2)?,
                    })
                })
                .optional()?)
        })
    }

    fn client_count(&self) -> StoreFuture<'_, u64> {
        self.read(|db| {
            let n: i64 = db.query_row("SELECT COUNT(*) FROM clients", [], |row| row.get(0))?;
            Ok(version(n))
        })
    }

    fn put_token(&self, token: TokenRecord) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            // Tokens expired for a day are of no use to anyone.
            tx.prepare_cached("DELETE FROM tokens WHERE expires_at < ?1")?
                .execute([now_ms() - 86_400_000])?;
            tx.prepare_cached(
                "INSERT INTO tokens (token_hash, client_id, org, expires_at) VALUES (?1, ?2, ?3, ?4)",
            )?
            .execute(params![
                &token.token_hash[..],
                token.client_id,
                token.organization,
                token.expires_at_ms
            ])?;
            Ok(())
        })
    }

    fn token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, Option<TokenRecord>> {
        self.read(move |db| {
            Ok(db
                .prepare_cached(
                    "SELECT client_id, org, expires_at FROM tokens WHERE token_hash = ?1",
                )?
                .query_row([&token_hash[..]], |row| {
                    Ok(TokenRecord {
                        token_hash,
                        client_id: row.get(0)?,
                        organization: row.get(1)?,
                        expires_at_ms: row.get(2)?,
                    })
                })
                .optional()?)
        })
    }

    fn create_template(
        &self,
        id: String,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord> {
        self.write(move |tx| {
            let now = now_ms();
            tx.prepare_cached(
                "INSERT INTO templates (id, org, latest_version, created_at) VALUES (?1, ?2, 1, ?3)",
            )?
            .execute(params![id, new.organization, now])?;
            insert_template_version(tx, &id, 1, &new, now)?;
            Ok(TemplateRecord {
                id,
                organization: new.organization,
                version: 1,
                latest: true,
                created_at_ms: now,
                updated_at_ms: now,
                source_hash: new.source_hash,
                edited_by: new.edited_by,
                fields: new.fields,
            })
        })
    }

    fn append_template(
        &self,
        id: String,
        expected: Option<u64>,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord> {
        self.write(move |tx| {
            let (latest, created_at): (i64, i64) = tx
                .prepare_cached(
                    "SELECT latest_version, created_at FROM templates \
                     WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL",
                )?
                .query_row(params![id, new.organization], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()?
                .ok_or(StoreError::NotFound)?;
            let current = version(latest);
            let next = current + 1;
            if expected.is_some_and(|v| v != next) {
                return Err(StoreError::Conflict { current });
            }
            let now = now_ms();
            insert_template_version(tx, &id, next, &new, now)?;
            tx.prepare_cached("UPDATE templates SET latest_version = ?1 WHERE id = ?2")?
                .execute(params![sql_version(next), id])?;
            Ok(TemplateRecord {
                id,
                organization: new.organization,
                version: next,
                latest: true,
                created_at_ms: created_at,
                updated_at_ms: now,
                source_hash: new.source_hash,
                edited_by: new.edited_by,
                fields: new.fields,
            })
        })
    }

    fn template(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
    ) -> StoreFuture<'_, TemplateRecord> {
        self.read(move |db| {
            query_templates(
                db,
                "t.id = ?1 AND t.org = ?2 AND v.version = COALESCE(?3, t.latest_version)",
                &[&id, &organization, &version.map(sql_version)],
            )?
            .pop()
            .ok_or(StoreError::NotFound)
        })
    }

    fn template_versions(
        &self,
        organization: String,
        id: String,
    ) -> StoreFuture<'_, Vec<TemplateRecord>> {
        self.read(move |db| {
            let versions = query_templates(
                db,
                "t.id = ?1 AND t.org = ?2 ORDER BY v.version",
                &[&id, &organization],
            )?;
            if versions.is_empty() {
                return Err(StoreError::NotFound);
            }
            Ok(versions)
        })
    }

    fn list_templates(&self, organization: String) -> StoreFuture<'_, Vec<TemplateRecord>> {
        self.read(move |db| {
            query_templates(
                db,
                "t.org = ?1 AND v.version = t.latest_version ORDER BY t.created_at, t.id",
                &[&organization],
            )
        })
    }

    fn delete_template(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            let n = tx
                .prepare_cached(
                    "UPDATE templates SET deleted_at = ?1 WHERE id = ?2 AND org = ?3 AND deleted_at IS NULL",
                )?
                .execute(params![now_ms(), id, organization])?;
            if n == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn deleted_templates(
        &self,
        organization: String,
        ids: Vec<String>,
    ) -> StoreFuture<'_, Vec<String>> {
        self.read(move |db| {
            let mut statement = db.prepare_cached(
                "SELECT 1 FROM templates WHERE id = ?1 AND org = ?2 AND deleted_at IS NOT NULL",
            )?;
            let mut deleted = Vec::new();
            for id in ids {
                if statement.exists(params![id, organization])? {
                    deleted.push(id);
                }
            }
            Ok(deleted)
        })
    }

    fn create_job(
        &self,
        organization: String,
        id: String,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord> {
        self.write(move |tx| {
            let now = now_ms();
            tx.prepare_cached(
                "INSERT INTO jobs (id, org, latest_version, created_at) VALUES (?1, ?2, 1, ?3)",
            )?
            .execute(params![id, organization, now])?;
            insert_job_version(tx, &id, 1, &fields, now)?;
            Ok(JobRecord {
                id,
                organization,
                version: 1,
                latest: true,
                created_at_ms: now,
                updated_at_ms: now,
                fields,
            })
        })
    }

    fn update_job(
        &self,
        organization: String,
        id: String,
        from_version: Option<u64>,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord> {
        self.write(move |tx| {
            let (latest, created_at): (i64, i64) = tx
                .prepare_cached(
                    "SELECT latest_version, created_at FROM jobs \
                     WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL",
                )?
                .query_row(params![id, organization], |row| {
                    Ok((row.get(0)?, row.get(1)?))
                })
                .optional()?
                .ok_or(StoreError::NotFound)?;
            let current = version(latest);
            if from_version.is_some_and(|v| v != current) {
                return Err(StoreError::Conflict { current });
            }
            let now = now_ms();
            insert_job_version(tx, &id, current + 1, &fields, now)?;
            tx.prepare_cached("UPDATE jobs SET latest_version = ?1 WHERE id = ?2")?
                .execute(params![sql_version(current + 1), id])?;
            Ok(JobRecord {
                id,
                organization,
                version: current + 1,
                latest: true,
                created_at_ms: created_at,
                updated_at_ms: now,
                fields,
            })
        })
    }

    fn job(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
    ) -> StoreFuture<'_, JobRecord> {
        self.read(move |db| read_job(db, &organization, &id, version))
    }

    fn list_jobs(
        &self,
        organization: String,
        filter: JobFilter,
    ) -> StoreFuture<'_, Vec<JobRecord>> {
        self.read(move |db| {
            let mut sql = format!(
                "SELECT {JOB_COLUMNS} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
                 WHERE j.org = ? AND j.deleted_at IS NULL"
            );
            let mut args: Vec<Value> = vec![Value::from(organization)];
            if !filter.all_versions {
                sql.push_str(" AND v.version = j.latest_version");
            }
            let mut any_of = |column: &str, values: &[String], sql: &mut String| {
                if !values.is_empty() {
                    let marks = vec!["?"; values.len()].join(", ");
                    sql.push_str(&format!(" AND {column} IN ({marks})"));
                    args.extend(values.iter().cloned().map(Value::from));
                }
            };
            any_of("v.processing", &filter.processing, &mut sql);
            any_of("v.execution", &filter.execution, &mut sql);
            any_of("v.state", &filter.states, &mut sql);
            any_of("j.id", &filter.ids, &mut sql);
            if let Some(name) = filter.name {
                sql.push_str(" AND v.name = ?");
                args.push(Value::from(name));
            }
            if let Some(since) = filter.since_ms {
                sql.push_str(" AND v.created_at >= ?");
                args.push(Value::from(since));
            }
            sql.push_str(" ORDER BY j.created_at, j.id, v.version");
            let params: Vec<Box<dyn rusqlite::ToSql>> = args
                .into_iter()
                .map(|v| -> Box<dyn rusqlite::ToSql> {
                    match v {
                        Value::Number(n) => Box::new(n.as_i64().unwrap_or(0)),
                        Value::String(s) => Box::new(s),
                        other => Box::new(other.to_string()),
                    }
                })
                .collect();
            let mut statement = db.prepare(&sql)?;
            let rows = statement.query_map(rusqlite::params_from_iter(params.iter()), job_row)?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn delete_job(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            let n = tx
                .prepare_cached(
                    "UPDATE jobs SET deleted_at = ?1 WHERE id = ?2 AND org = ?3 AND deleted_at IS NULL",
                )?
                .execute(params![now_ms(), id, organization])?;
            if n == 0 { Err(StoreError::NotFound) } else { Ok(()) }
        })
    }

    fn put_trigger(&self, id: String, payload: Value) -> StoreFuture<'_, ()> {
        self.write(move |tx| {
            tx.prepare_cached(
                "INSERT INTO triggers (id, payload, received_at) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![id, payload.to_string(), now_ms()])?;
            Ok(())
        })
    }
}

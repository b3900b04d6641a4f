//! Datasets and the lake manifest on PostgreSQL (`docs/lake.md` §4). The name of a live
//! dataset is unique under a partial unique index, so two replicas creating the same name at
//! once get one dataset and one [`StoreError::Duplicate`].

use tokio_postgres::Row;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;

use super::PostgresStore;
use super::lists::Args;
use super::rows::{sql_version, tx_execute, tx_row, version};
use crate::ids::now_ms;
use crate::store::datasets::{
    CommitSummary, DATASET_COLUMNS, LAKE_FILE_COLUMNS, LakeBound, lake_file_page_filter,
    lake_files_filter, tags_text,
};
use crate::store::{DatasetFields, DatasetRecord, LakeFileRecord, PageRequest, Paged, StoreError};

/// A dataset from [`DATASET_COLUMNS`].
fn dataset_record(row: &Row) -> Result<DatasetRecord, StoreError> {
    let retention: Option<i64> = row.try_get(8)?;
    let tags: &str = row.try_get(9)?;
    Ok(DatasetRecord {
        id: row.try_get(0)?,
        organization: row.try_get(1)?,
        version: version(row.try_get(2)?),
        created_at_ms: row.try_get(3)?,
        updated_at_ms: row.try_get(4)?,
        fields: DatasetFields {
            name: row.try_get(5)?,
            description: row.try_get(6)?,
            partitioning: row.try_get(7)?,
            retention_days: retention.and_then(|d| u32::try_from(d).ok()),
            promoted_tags: serde_json::from_str(tags)
                .map_err(|e| StoreError::Backend(format!("stored promoted tags: {e}")))?,
        },
    })
}

/// A dataset and its stored size.
fn sized_dataset(row: &Row) -> Result<(DatasetRecord, usize), StoreError> {
    let record = dataset_record(row)?;
    let size = record.fields.name.len()
        + record.fields.description.len()
        + tags_text(&record.fields.promoted_tags).len();
    Ok((record, size))
}

/// `?` placeholders numbered `$1`, `$2`, … from `first`.
fn numbered(sql: &str, first: usize) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut n = first;
    for c in sql.chars() {
        if c == '?' {
            out.push_str(&format!("${n}"));
            n += 1;
        } else {
            out.push(c);
        }
    }
    out
}

/// A unique violation of the live-name index as [`StoreError::Duplicate`].
fn name_taken(name: &str) -> impl Fn(tokio_postgres::Error) -> StoreError + '_ {
    move |e| {
        if e.code() == Some(&SqlState::UNIQUE_VIOLATION) {
            StoreError::Duplicate(format!(
                "a dataset named {name:?} already exists in this organization: choose another name, or update or delete that one"
            ))
        } else {
            e.into()
        }
    }
}

impl PostgresStore {
    /// A live dataset matching `column = value` in the organization.
    pub(super) async fn dataset_where(
        &self,
        organization: String,
        column: &'static str,
        value: String,
    ) -> Result<DatasetRecord, StoreError> {
        let sql = format!(
            "SELECT {DATASET_COLUMNS} FROM datasets \
             WHERE organization = $1 AND {column} = $2 AND deleted_at IS NULL"
        );
        let row = self
            .row(&sql, &[&organization, &value])
            .await?
            .ok_or(StoreError::NotFound)?;
        dataset_record(&row)
    }

    /// Inserts a dataset at version 1.
    pub(super) async fn insert_dataset(
        &self,
        organization: String,
        id: String,
        fields: DatasetFields,
    ) -> Result<DatasetRecord, StoreError> {
        let now = now_ms();
        let db = self.pool.get().await?;
        let statement = db
            .prepare_cached(
                "INSERT INTO datasets (organization, id, name, description, partitioning, retention_days, \
                 promoted_tags, version, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, 1, $8, $8)",
            )
            .await?;
        db.execute(
            &statement,
            &[
                &organization,
                &id,
                &fields.name,
                &fields.description,
                &fields.partitioning,
                &fields.retention_days.map(i64::from),
                &tags_text(&fields.promoted_tags),
                &now,
            ],
        )
        .await
        .map_err(name_taken(&fields.name))?;
        Ok(DatasetRecord {
            id,
            organization,
            version: 1,
            created_at_ms: now,
            updated_at_ms: now,
            fields,
        })
    }

    /// Replaces a live dataset's fields under a version check (its row locked).
    pub(super) async fn replace_dataset(
        &self,
        organization: String,
        id: String,
        expected: Option<u64>,
        fields: DatasetFields,
    ) -> Result<DatasetRecord, StoreError> {
        let mut db = self.pool.get().await?;
        let tx = db.transaction().await?;
        let sql = format!(
            "SELECT {DATASET_COLUMNS} FROM datasets \
             WHERE organization = $1 AND id = $2 AND deleted_at IS NULL FOR UPDATE"
        );
        let row = tx_row(&tx, &sql, &[&organization, &id])
            .await?
            .ok_or(StoreError::NotFound)?;
        let current = dataset_record(&row)?;
        if expected.is_some_and(|v| v != current.version) {
            return Err(StoreError::Conflict {
                current: current.version,
            });
        }
        let now = now_ms();
        let next = current.version + 1;
        let statement = tx
            .prepare_cached(
                "UPDATE datasets SET name = $1, description = $2, partitioning = $3, retention_days = $4, \
                 promoted_tags = $5, version = $6, updated_at = $7 WHERE organization = $8 AND id = $9",
            )
            .await?;
        tx.execute(
            &statement,
            &[
                &fields.name,
                &fields.description,
                &fields.partitioning,
                &fields.retention_days.map(i64::from),
                &tags_text(&fields.promoted_tags),
                &sql_version(next),
                &now,
                &organization,
                &id,
            ],
        )
        .await
        .map_err(name_taken(&fields.name))?;
        tx.commit().await?;
        Ok(DatasetRecord {
            version: next,
            updated_at_ms: now,
            fields,
            ..current
        })
    }

    /// A page of the organization's live datasets, oldest first.
    pub(super) async fn dataset_page(
        &self,
        organization: String,
        page: PageRequest,
    ) -> Result<Paged<DatasetRecord>, StoreError> {
        let mut args: Args = vec![Box::new(organization)];
        let mut sql = format!(
            "SELECT {DATASET_COLUMNS} FROM datasets WHERE organization = $1 AND deleted_at IS NULL"
        );
        if let Some(after) = &page.after {
            args.push(Box::new(after.created_at_ms));
            args.push(Box::new(after.id.clone()));
            sql.push_str(" AND (created_at, id) > ($2, $3)");
        }
        args.push(Box::new(page.fetch()));
        sql.push_str(&format!(" ORDER BY created_at, id LIMIT ${}", args.len()));
        self.page(&sql, args, &page, sized_dataset).await
    }

    /// Commits a run's files in one transaction: `false` when the run was committed before.
    pub(super) async fn commit_files(
        &self,
        organization: String,
        dataset_id: String,
        run_id: String,
        files: Vec<LakeFileRecord>,
    ) -> Result<bool, StoreError> {
        let summary = CommitSummary::of(&files);
        let mut db = self.pool.get().await?;
        let tx = db.transaction().await?;
        let inserted = tx_execute(
            &tx,
            "INSERT INTO lake_commits (organization, dataset_id, run_id, table_name, files, rows, \
             bytes, committed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
            &[
                &organization,
                &dataset_id,
                &run_id,
                &summary.tables,
                &summary.files,
                &summary.rows,
                &summary.bytes,
                &now_ms(),
            ],
        )
        .await?;
        if inserted == 0 {
            return Ok(false);
        }
        for file in &files {
            tx_execute(
                &tx,
                "INSERT INTO lake_files (organization, dataset_id, table_name, path, partition_start_us, \
                 min_time_us, max_time_us, rows, bytes, row_groups, run_id, stats) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
                &[
                    &organization,
                    &dataset_id,
                    &file.table,
                    &file.path,
                    &file.partition_start_us,
                    &file.min_time_us,
                    &file.max_time_us,
                    &file.rows,
                    &file.bytes,
                    &file.row_groups,
                    &file.run_id,
                    &file.stats,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// The committed files of a dataset overlapping a time range.
    pub(super) async fn files(
        &self,
        organization: String,
        dataset_id: String,
        table: Option<String>,
        start_us: Option<i64>,
        end_us: Option<i64>,
    ) -> Result<Vec<LakeFileRecord>, StoreError> {
        let (filter, bounds) = lake_files_filter(&table, start_us, end_us);
        let sql = format!(
            "SELECT {LAKE_FILE_COLUMNS} FROM lake_files WHERE {}",
            numbered(&filter, 1)
        );
        let args = lake_args(organization, dataset_id, bounds);
        let params: Vec<&(dyn ToSql + Sync)> = args
            .iter()
            .map(|a| a.as_ref() as &(dyn ToSql + Sync))
            .collect();
        let rows = self.rows(&sql, &params).await?;
        rows.iter().map(file_record).collect()
    }

    /// A page of a dataset's committed files (keyset: after the cursor's file key), rows
    /// read as they arrive.
    pub(super) async fn file_page(
        &self,
        organization: String,
        dataset_id: String,
        page: PageRequest,
    ) -> Result<Paged<LakeFileRecord>, StoreError> {
        let after = page.after.as_ref().and_then(|key| key.file.as_ref());
        // Byte order whatever the database's locale, as on SQLite (and as the
        // `lake_files_listing` index is built).
        let (filter, bounds) = lake_file_page_filter(after, r#"path COLLATE "C""#);
        let mut args = lake_args(organization, dataset_id, bounds);
        args.push(Box::new(page.fetch()));
        let sql = format!(
            "SELECT {LAKE_FILE_COLUMNS} FROM lake_files WHERE {} LIMIT ${}",
            numbered(&filter, 1),
            args.len()
        );
        self.page(&sql, args, &page, sized_file).await
    }
}

/// The bound values of a manifest read, after the organization and the dataset id.
fn lake_args(organization: String, dataset_id: String, bounds: Vec<LakeBound>) -> Args {
    let mut args: Args = vec![Box::new(organization), Box::new(dataset_id)];
    for bound in bounds {
        match bound {
            LakeBound::Text(t) => args.push(Box::new(t)),
            LakeBound::Int(n) => args.push(Box::new(n)),
        }
    }
    args
}

/// A `lake_files` row from [`LAKE_FILE_COLUMNS`].
fn file_record(row: &Row) -> Result<LakeFileRecord, StoreError> {
    Ok(LakeFileRecord {
        table: row.try_get(0)?,
        path: row.try_get(1)?,
        partition_start_us: row.try_get(2)?,
        min_time_us: row.try_get(3)?,
        max_time_us: row.try_get(4)?,
        rows: row.try_get(5)?,
        bytes: row.try_get(6)?,
        row_groups: row.try_get(7)?,
        run_id: row.try_get(8)?,
        stats: row.try_get(9)?,
    })
}

/// A file and its stored size.
fn sized_file(row: &Row) -> Result<(LakeFileRecord, usize), StoreError> {
    let file = file_record(row)?;
    let size = file.stored_size();
    Ok((file, size))
}

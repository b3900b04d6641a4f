//! `impl Store for PostgresStore`: each method one statement on a pooled connection, or one
//! transaction when it writes several rows.

use super::PostgresStore;
use super::rows::{
    self, JOB_COLUMNS, TEMPLATE_COLUMNS, Versioned, job_record, sql_version, template_record,
    tx_execute, version,
};
use crate::ids::now_ms;
use crate::store::{
    ClientRecord, DatasetFields, DatasetRecord, GraphForm, JobFields, JobFilter, JobRecord,
    LakeFileRecord, NewTemplateVersion, PageRequest, Paged, Store, StoreError, StoreFuture,
    TemplateRecord, TokenRecord, TriggerRecord,
};

/// Boxes a future as a [`StoreFuture`].
fn run<'a, T>(
    future: impl std::future::Future<Output = Result<T, StoreError>> + Send + 'a,
) -> StoreFuture<'a, T> {
    Box::pin(future)
}

/// `Ok` when a tombstoning `UPDATE` changed a row, else not found.
fn changed(rows: u64) -> Result<(), StoreError> {
    if rows == 0 {
        Err(StoreError::NotFound)
    } else {
        Ok(())
    }
}

impl Store for PostgresStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        run(async move {
            let db = self.pool.get().await?;
            db.simple_query("SELECT 1").await?;
            Ok(())
        })
    }

    fn put_client(&self, client: ClientRecord) -> StoreFuture<'_, ()> {
        run(async move {
            self.execute(
                "INSERT INTO clients (client_id, org, secret_hash, created_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (client_id) DO UPDATE SET org = excluded.org, secret_hash = excluded.secret_hash",
                &[&client.client_id, &client.organization, &client.secret_hash, &now_ms()],
            )
            .await?;
            Ok(())
        })
    }

    fn client(&self, client_id: String) -> StoreFuture<'_, Option<ClientRecord>> {
        run(async move {
            let row = self
                .row(
                    "SELECT client_id, org, secret_hash FROM clients WHERE client_id = $1",
                    &[&client_id],
                )
                .await?;
            row.map(|row| {
                Ok(ClientRecord {
                    client_id: row.try_get(0)?,
                    organization: row.try_get(1)?,
                    secret_hash: row.try_get(2)?,
                })
            })
            .transpose()
        })
    }

    fn client_count(&self) -> StoreFuture<'_, u64> {
        run(async move {
            let rows = self.rows("SELECT COUNT(*) FROM clients", &[]).await?;
            let count = rows.first().map(|row| row.try_get(0)).transpose()?;
            Ok(version(count.unwrap_or(0)))
        })
    }

    fn put_token(&self, token: TokenRecord) -> StoreFuture<'_, ()> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            // Tokens expired for a day are of no use to anyone.
            let old = now_ms() - 86_400_000;
            tx_execute(&tx, "DELETE FROM tokens WHERE expires_at < $1", &[&old]).await?;
            tx_execute(
                &tx,
                "INSERT INTO tokens (token_hash, client_id, org, expires_at) VALUES ($1, $2, $3, $4)",
                &[
                    &&token.token_hash[..],
                    &token.client_id,
                    &token.organization,
                    &token.expires_at_ms,
                ],
            )
            .await?;
            tx.commit().await?;
            Ok(())
        })
    }

    fn token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, Option<TokenRecord>> {
        run(async move {
            let row = self
                .row(
                    "SELECT client_id, org, expires_at FROM tokens WHERE token_hash = $1",
                    &[&&token_hash[..]],
                )
                .await?;
            row.map(|row| {
                Ok(TokenRecord {
                    token_hash,
                    client_id: row.try_get(0)?,
                    organization: row.try_get(1)?,
                    expires_at_ms: row.try_get(2)?,
                })
            })
            .transpose()
        })
    }

    fn client_ids(&self) -> StoreFuture<'_, Vec<String>> {
        run(async move {
            let rows = self
                .rows("SELECT client_id FROM clients ORDER BY client_id", &[])
                .await?;
            rows.iter()
                .map(|row| row.try_get(0).map_err(StoreError::from))
                .collect()
        })
    }

    fn delete_client(&self, client_id: String) -> StoreFuture<'_, u64> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let tokens = tx_execute(
                &tx,
                "DELETE FROM tokens WHERE client_id = $1",
                &[&client_id],
            )
            .await?;
            tx_execute(
                &tx,
                "DELETE FROM clients WHERE client_id = $1",
                &[&client_id],
            )
            .await?;
            tx.commit().await?;
            Ok(tokens)
        })
    }

    fn delete_client_tokens(&self, client_id: String) -> StoreFuture<'_, u64> {
        run(async move {
            self.execute("DELETE FROM tokens WHERE client_id = $1", &[&client_id])
                .await
        })
    }

    fn delete_token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, bool> {
        run(async move {
            let rows = self
                .execute(
                    "DELETE FROM tokens WHERE token_hash = $1",
                    &[&&token_hash[..]],
                )
                .await?;
            Ok(rows > 0)
        })
    }

    fn create_template(
        &self,
        id: String,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let now = now_ms();
            tx_execute(
                &tx,
                "INSERT INTO templates (id, org, latest_version, created_at) VALUES ($1, $2, 1, $3)",
                &[&id, &new.organization, &now],
            )
            .await?;
            rows::insert_template_version(&tx, &id, 1, &new, now).await?;
            tx.commit().await?;
            Ok(TemplateRecord::written(id, 1, (now, now), new))
        })
    }

    fn append_template(
        &self,
        id: String,
        expected: Option<u64>,
        new: NewTemplateVersion,
    ) -> StoreFuture<'_, TemplateRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let (current, created_at) =
                rows::lock_latest(&tx, Versioned::Templates, &id, &new.organization).await?;
            let next = current + 1;
            if expected.is_some_and(|v| v != next) {
                return Err(StoreError::Conflict { current });
            }
            let now = now_ms();
            rows::insert_template_version(&tx, &id, next, &new, now).await?;
            tx_execute(
                &tx,
                "UPDATE templates SET latest_version = $1 WHERE id = $2",
                &[&sql_version(next), &id],
            )
            .await?;
            tx.commit().await?;
            Ok(TemplateRecord::written(id, next, (created_at, now), new))
        })
    }

    fn template(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
    ) -> StoreFuture<'_, TemplateRecord> {
        run(async move {
            let sql = format!(
                "SELECT {TEMPLATE_COLUMNS} FROM templates t JOIN template_versions v ON v.template_id = t.id \
                 WHERE t.deleted_at IS NULL AND t.id = $1 AND t.org = $2 \
                 AND v.version = COALESCE($3::BIGINT, t.latest_version)"
            );
            let version = version.map(sql_version);
            let row = self.row(&sql, &[&id, &organization, &version]).await?;
            template_record(&row.ok_or(StoreError::NotFound)?)
        })
    }

    fn template_versions(
        &self,
        organization: String,
        id: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<TemplateRecord>> {
        run(self.version_page(organization, id, page))
    }

    fn list_templates(
        &self,
        organization: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<TemplateRecord>> {
        run(self.template_page(organization, page))
    }

    fn delete_template(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        run(async move {
            changed(
                self.execute(
                    "UPDATE templates SET deleted_at = $1 WHERE id = $2 AND org = $3 AND deleted_at IS NULL",
                    &[&now_ms(), &id, &organization],
                )
                .await?,
            )
        })
    }

    fn deleted_templates(
        &self,
        organization: String,
        ids: Vec<String>,
    ) -> StoreFuture<'_, Vec<String>> {
        run(async move {
            let rows = self
                .rows(
                    "SELECT id FROM templates WHERE org = $1 AND id = ANY($2) AND deleted_at IS NOT NULL",
                    &[&organization, &ids],
                )
                .await?;
            let deleted = rows
                .iter()
                .map(|row| row.try_get::<_, String>(0))
                .collect::<Result<std::collections::HashSet<_>, _>>()?;
            Ok(ids.into_iter().filter(|id| deleted.contains(id)).collect())
        })
    }

    fn create_job(
        &self,
        organization: String,
        id: String,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let now = now_ms();
            tx_execute(
                &tx,
                "INSERT INTO jobs (id, org, latest_version, created_at) VALUES ($1, $2, 1, $3)",
                &[&id, &organization, &now],
            )
            .await?;
            rows::insert_job_version(&tx, &id, 1, &fields, now).await?;
            tx.commit().await?;
            JobRecord::written(id, organization, 1, (now, now), fields)
        })
    }

    fn update_job(
        &self,
        organization: String,
        id: String,
        from_version: Option<u64>,
        fields: JobFields,
    ) -> StoreFuture<'_, JobRecord> {
        run(async move {
            let mut db = self.pool.get().await?;
            let tx = db.transaction().await?;
            let (current, created_at) =
                rows::lock_latest(&tx, Versioned::Jobs, &id, &organization).await?;
            if from_version.is_some_and(|v| v != current) {
                return Err(StoreError::Conflict { current });
            }
            let now = now_ms();
            rows::insert_job_version(&tx, &id, current + 1, &fields, now).await?;
            tx_execute(
                &tx,
                "UPDATE jobs SET latest_version = $1 WHERE id = $2",
                &[&sql_version(current + 1), &id],
            )
            .await?;
            tx.commit().await?;
            JobRecord::written(id, organization, current + 1, (created_at, now), fields)
        })
    }

    fn job(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
        form: GraphForm,
    ) -> StoreFuture<'_, JobRecord> {
        run(async move {
            let sql = format!(
                "SELECT {JOB_COLUMNS}, {} FROM jobs j JOIN job_versions v ON v.job_id = j.id \
                 WHERE j.id = $1 AND j.org = $2 AND j.deleted_at IS NULL \
                 AND v.version = COALESCE($3::BIGINT, j.latest_version)",
                form.column()
            );
            let version = version.map(sql_version);
            let row = self.row(&sql, &[&id, &organization, &version]).await?;
            job_record(&row.ok_or(StoreError::NotFound)?)
        })
    }

    fn list_jobs(
        &self,
        organization: String,
        filter: JobFilter,
        form: GraphForm,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<JobRecord>> {
        run(self.job_page(organization, filter, form, page))
    }

    fn delete_job(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        run(async move {
            changed(
                self.execute(
                    "UPDATE jobs SET deleted_at = $1 WHERE id = $2 AND org = $3 AND deleted_at IS NULL",
                    &[&now_ms(), &id, &organization],
                )
                .await?,
            )
        })
    }

    fn trigger_organization(&self, job_id: String) -> StoreFuture<'_, Option<String>> {
        run(async move {
            let db = self.pool.get().await?;
            let row = db
                .query_opt(
                    "SELECT org FROM jobs WHERE id = $1 AND deleted_at IS NULL",
                    &[&job_id],
                )
                .await?;
            Ok(match row {
                Some(row) => Some(row.try_get(0)?),
                None => None,
            })
        })
    }

    fn renew_sync_heartbeat(
        &self,
        organization: String,
        token: String,
        keep_ms: i64,
    ) -> StoreFuture<'_, ()> {
        run(async move {
            let now = now_ms();
            self.execute(
                "INSERT INTO sync_heartbeats (token, organization, renewed_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (token) DO UPDATE SET renewed_at = excluded.renewed_at \
                 WHERE sync_heartbeats.organization = excluded.organization",
                &[&token, &organization, &now],
            )
            .await?;
            self.execute(
                "DELETE FROM sync_heartbeats WHERE renewed_at < $1",
                &[&now.saturating_sub(keep_ms)],
            )
            .await?;
            Ok(())
        })
    }

    fn sync_heartbeat(&self, organization: String, token: String) -> StoreFuture<'_, Option<i64>> {
        run(async move {
            let row = self
                .row(
                    "SELECT renewed_at FROM sync_heartbeats WHERE token = $1 AND organization = $2",
                    &[&token, &organization],
                )
                .await?;
            Ok(match row {
                Some(row) => Some(row.try_get(0)?),
                None => None,
            })
        })
    }

    fn put_trigger(&self, trigger: TriggerRecord, keep: usize) -> StoreFuture<'_, ()> {
        let keep = i64::try_from(keep.max(1)).unwrap_or(i64::MAX);
        run(async move {
            self.execute(
                "INSERT INTO triggers (id, payload, received_at, org, job_id) VALUES ($1, $2, $3, $4, $5)",
                &[
                    &trigger.id,
                    &trigger.payload.to_string(),
                    &now_ms(),
                    &trigger.organization,
                    &trigger.job_id,
                ],
            )
            .await?;
            // Everything older than the organization's `keep`-th newest trigger goes.
            self.execute(
                "DELETE FROM triggers WHERE org = $1 AND (received_at, id) < \
                 (SELECT received_at, id FROM triggers WHERE org = $1 \
                  ORDER BY received_at DESC, id DESC LIMIT 1 OFFSET $2)",
                &[&trigger.organization, &(keep - 1)],
            )
            .await?;
            Ok(())
        })
    }

    fn create_dataset(
        &self,
        organization: String,
        id: String,
        fields: DatasetFields,
    ) -> StoreFuture<'_, DatasetRecord> {
        run(self.insert_dataset(organization, id, fields))
    }

    fn dataset(&self, organization: String, id: String) -> StoreFuture<'_, DatasetRecord> {
        run(self.dataset_where(organization, "id", id))
    }

    fn dataset_by_name(
        &self,
        organization: String,
        name: String,
    ) -> StoreFuture<'_, DatasetRecord> {
        run(self.dataset_where(organization, "name", name))
    }

    fn list_datasets(
        &self,
        organization: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<DatasetRecord>> {
        run(self.dataset_page(organization, page))
    }

    fn update_dataset(
        &self,
        organization: String,
        id: String,
        expected: Option<u64>,
        fields: DatasetFields,
    ) -> StoreFuture<'_, DatasetRecord> {
        run(self.replace_dataset(organization, id, expected, fields))
    }

    fn delete_dataset(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        run(async move {
            changed(
                self.execute(
                    "UPDATE datasets SET deleted_at = $1 WHERE organization = $2 AND id = $3 AND deleted_at IS NULL",
                    &[&now_ms(), &organization, &id],
                )
                .await?,
            )
        })
    }

    fn commit_lake_files(
        &self,
        organization: String,
        dataset_id: String,
        run_id: String,
        files: Vec<LakeFileRecord>,
    ) -> StoreFuture<'_, bool> {
        run(self.commit_files(organization, dataset_id, run_id, files))
    }

    fn lake_files(
        &self,
        organization: String,
        dataset_id: String,
        table: Option<String>,
        start_us: Option<i64>,
        end_us: Option<i64>,
    ) -> StoreFuture<'_, Vec<LakeFileRecord>> {
        run(self.files(organization, dataset_id, table, start_us, end_us))
    }

    fn lake_file_page(
        &self,
        organization: String,
        dataset_id: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<LakeFileRecord>> {
        run(self.file_page(organization, dataset_id, page))
    }
}

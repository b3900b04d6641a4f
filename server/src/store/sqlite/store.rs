//! The [`Store`] trait for [`SqliteStore`]: each method's statements, on a reader (reads of a
//! few rows by key right on the async worker, `read_point`; listings on the blocking pool,
//! `read`) or in one transaction on the writer (`write`).

use super::*;

impl Store for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        self.read_point(|db| {
            db.query_row("SELECT 1", [], |_| Ok(()))?;
            Ok(())
        })
    }

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
        self.read_point(move |db| {
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
        self.read_point(move |db| {
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

    fn client_ids(&self) -> StoreFuture<'_, Vec<String>> {
        self.read(|db| {
            let mut statement = db.prepare("SELECT client_id FROM clients ORDER BY client_id")?;
            let ids = statement
                .query_map([], |row| row.get(0))?
                .collect::<rusqlite::Result<Vec<String>>>()?;
            Ok(ids)
        })
    }

    fn delete_client(&self, client_id: String) -> StoreFuture<'_, u64> {
        self.write(move |tx| {
            let tokens = tx.execute("DELETE FROM tokens WHERE client_id = ?1", [&client_id])?;
            tx.execute("DELETE FROM clients WHERE client_id = ?1", [&client_id])?;
            Ok(tokens as u64)
        })
    }

    fn delete_client_tokens(&self, client_id: String) -> StoreFuture<'_, u64> {
        self.write(move |tx| {
            let tokens = tx.execute("DELETE FROM tokens WHERE client_id = ?1", [&client_id])?;
            Ok(tokens as u64)
        })
    }

    fn delete_token(&self, token_hash: [u8; 32]) -> StoreFuture<'_, bool> {
        self.write(move |tx| {
            let rows = tx.execute(
                "DELETE FROM tokens WHERE token_hash = ?1",
                [&token_hash[..]],
            )?;
            Ok(rows > 0)
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
            Ok(TemplateRecord::written(id, 1, (now, now), new))
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
            Ok(TemplateRecord::written(id, next, (created_at, now), new))
        })
    }

    fn template(
        &self,
        organization: String,
        id: String,
        version: Option<u64>,
    ) -> StoreFuture<'_, TemplateRecord> {
        self.read_point(move |db| {
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
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<TemplateRecord>> {
        self.read_point(move |db| lists::template_versions(db, organization, id, &page))
    }

    fn list_templates(
        &self,
        organization: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<TemplateRecord>> {
        self.read(move |db| lists::list_templates(db, organization, &page))
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
        self.read_point(move |db| read_job(db, &organization, &id, version, form))
    }

    fn list_jobs(
        &self,
        organization: String,
        filter: JobFilter,
        form: GraphForm,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<JobRecord>> {
        self.read(move |db| lists::list_jobs(db, &organization, filter, form, &page))
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

    fn trigger_organization(&self, job_id: String) -> StoreFuture<'_, Option<String>> {
        self.read_point(move |db| {
            Ok(db
                .prepare_cached("SELECT org FROM jobs WHERE id = ?1 AND deleted_at IS NULL")?
                .query_row(params![job_id], |row| row.get(0))
                .optional()?)
        })
    }

    fn renew_sync_heartbeat(
        &self,
        organization: String,
        token: String,
        keep_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.write(move |tx| heartbeats::renew(tx, &organization, &token, keep_ms))
    }

    fn sync_heartbeat(&self, organization: String, token: String) -> StoreFuture<'_, Option<i64>> {
        self.read_point(move |db| heartbeats::renewed_at(db, &organization, &token))
    }

    fn put_trigger(&self, trigger: TriggerRecord, keep: usize) -> StoreFuture<'_, ()> {
        self.write(move |tx| triggers::put(tx, &trigger, keep))
    }

    fn create_dataset(
        &self,
        organization: String,
        id: String,
        fields: DatasetFields,
    ) -> StoreFuture<'_, DatasetRecord> {
        self.write(move |tx| datasets::create(tx, organization, id, fields))
    }

    fn dataset(&self, organization: String, id: String) -> StoreFuture<'_, DatasetRecord> {
        self.read_point(move |db| datasets::dataset(db, &organization, "id", &id))
    }

    fn dataset_by_name(
        &self,
        organization: String,
        name: String,
    ) -> StoreFuture<'_, DatasetRecord> {
        self.read_point(move |db| datasets::dataset(db, &organization, "name", &name))
    }

    fn list_datasets(
        &self,
        organization: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<DatasetRecord>> {
        self.read(move |db| datasets::list(db, organization, &page))
    }

    fn update_dataset(
        &self,
        organization: String,
        id: String,
        expected: Option<u64>,
        fields: DatasetFields,
    ) -> StoreFuture<'_, DatasetRecord> {
        self.write(move |tx| datasets::update(tx, organization, id, expected, fields))
    }

    fn delete_dataset(&self, organization: String, id: String) -> StoreFuture<'_, ()> {
        self.write(move |tx| datasets::delete(tx, organization, id))
    }

    fn commit_lake_files(
        &self,
        organization: String,
        dataset_id: String,
        run_id: String,
        files: Vec<LakeFileRecord>,
    ) -> StoreFuture<'_, bool> {
        self.write(move |tx| datasets::commit(tx, organization, dataset_id, run_id, files))
    }

    fn lake_files(
        &self,
        organization: String,
        dataset_id: String,
        table: Option<String>,
        start_us: Option<i64>,
        end_us: Option<i64>,
    ) -> StoreFuture<'_, Vec<LakeFileRecord>> {
        self.read(move |db| datasets::files(db, organization, dataset_id, table, start_us, end_us))
    }

    fn lake_file_page(
        &self,
        organization: String,
        dataset_id: String,
        page: PageRequest,
    ) -> StoreFuture<'_, Paged<LakeFileRecord>> {
        self.read(move |db| datasets::file_page(db, organization, dataset_id, &page))
    }
}

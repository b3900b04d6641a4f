//! Templates and their versions (`templates`, `template_versions`).

use super::{json, sql_version, to_text, version};
use crate::ids::now_ms;
use crate::store::sql::{Arg, Db, RowRef, Sql, SqlBuf, changed};
use crate::store::{NewTemplateVersion, PageRequest, Paged, StoreError, TemplateRecord};

/// The select of live template versions (`t`: templates, `v`: template_versions), in
/// [`template`]'s column order; filters follow with `AND`.
macro_rules! template_select {
    () => {
        "SELECT t.id, t.org, v.version, t.latest_version, t.created_at, v.created_at, \
         v.source_hash, v.edited_by, v.fields, t.team_ids \
         FROM templates t JOIN template_versions v ON v.template_id = t.id \
         WHERE t.deleted_at IS NULL"
    };
}

static CREATE: Sql = Sql::new(
    "INSERT INTO templates (id, org, latest_version, created_at, team_ids) \
     VALUES (?1, ?2, 1, ?3, ?4)",
);
static INSERT_VERSION: Sql = Sql::new(
    "INSERT INTO template_versions (template_id, version, fields, source_hash, edited_by, created_at) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
);
/// Locks the template's row on PostgreSQL (the lock orders concurrent writers, whichever
/// replica they come through); SQLite's writer holds the whole database.
static LOCK_LATEST: Sql = Sql::new(
    "SELECT latest_version, created_at FROM templates \
     WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL{for_update}",
);
static SET_LATEST: Sql =
    Sql::new("UPDATE templates SET latest_version = ?1, team_ids = ?3 WHERE id = ?2");
static BY_ID: Sql = Sql::new(concat!(
    template_select!(),
    " AND t.id = ?1 AND t.org = ?2 AND v.version = COALESCE(CAST(?3 AS BIGINT), t.latest_version)"
));
static VERSIONS: Sql = Sql::new(concat!(
    template_select!(),
    " AND t.id = ?1 AND t.org = ?2 AND v.version > ?3 ORDER BY v.version LIMIT ?4"
));
static LIVE: Sql =
    Sql::new("SELECT 1 FROM templates WHERE id = ?1 AND org = ?2 AND deleted_at IS NULL");
static DELETE: Sql = Sql::new(
    "UPDATE templates SET deleted_at = ?1 WHERE id = ?2 AND org = ?3 AND deleted_at IS NULL",
);

/// A template version and its stored size (the text of its fields), for pages.
fn template(row: &RowRef<'_>) -> Result<(TemplateRecord, usize), StoreError> {
    let (v, latest): (i64, i64) = (row.get(2)?, row.get(3)?);
    let fields: String = row.get(8)?;
    let record = TemplateRecord {
        id: row.get(0)?,
        organization: row.get(1)?,
        version: version(v),
        latest: v == latest,
        created_at_ms: row.get(4)?,
        updated_at_ms: row.get(5)?,
        source_hash: row.get(6)?,
        edited_by: row.get(7)?,
        fields: json(&fields, "template fields")?,
        team_ids: json(&row.get::<String>(9)?, "template teams")?,
    };
    Ok((record, fields.len()))
}

async fn insert_version(
    db: &impl Db,
    id: &str,
    version: u64,
    new: &NewTemplateVersion,
    now: i64,
) -> Result<(), StoreError> {
    let fields = to_text(&new.fields)?;
    let args = [
        id.into(),
        sql_version(version).into(),
        fields.as_str().into(),
        (&new.source_hash).into(),
        (&new.edited_by).into(),
        now.into(),
    ];
    db.execute(INSERT_VERSION.text(db.dialect()), &args).await?;
    Ok(())
}

/// Creates a template at version 1.
pub(crate) async fn create(
    db: &impl Db,
    id: String,
    new: NewTemplateVersion,
) -> Result<TemplateRecord, StoreError> {
    let now = now_ms();
    let teams = to_text(&new.team_ids)?;
    let args = [
        (&id).into(),
        (&new.organization).into(),
        now.into(),
        (&teams).into(),
    ];
    db.execute(CREATE.text(db.dialect()), &args).await?;
    insert_version(db, &id, 1, &new, now).await?;
    Ok(TemplateRecord::written(id, 1, (now, now), new))
}

/// Appends version N+1 under the template's lock; with `expected`, only if it is N+1.
pub(crate) async fn append(
    db: &impl Db,
    id: String,
    expected: Option<u64>,
    new: NewTemplateVersion,
) -> Result<TemplateRecord, StoreError> {
    let d = db.dialect();
    let args = [(&id).into(), (&new.organization).into()];
    let (latest, created_at) = db
        .row(LOCK_LATEST.text(d), &args, |r| {
            Ok((r.get::<i64>(0)?, r.get::<i64>(1)?))
        })
        .await?
        .ok_or(StoreError::NotFound)?;
    let current = version(latest);
    let next = current + 1;
    if expected.is_some_and(|v| v != next) {
        return Err(StoreError::Conflict { current });
    }
    let now = now_ms();
    insert_version(db, &id, next, &new, now).await?;
    let teams = to_text(&new.team_ids)?;
    db.execute(
        SET_LATEST.text(d),
        &[sql_version(next).into(), (&id).into(), (&teams).into()],
    )
    .await?;
    Ok(TemplateRecord::written(id, next, (created_at, now), new))
}

/// One version (`None`: the latest) of a live template.
pub(crate) async fn get(
    db: &impl Db,
    organization: String,
    id: String,
    version: Option<u64>,
) -> Result<TemplateRecord, StoreError> {
    let args = [
        (&id).into(),
        (&organization).into(),
        version.map(sql_version).into(),
    ];
    let row = db.row(BY_ID.text(db.dialect()), &args, template).await?;
    row.map(|(record, _)| record).ok_or(StoreError::NotFound)
}

/// A page of one live template's versions, oldest first; not found when it is not live.
pub(crate) async fn versions(
    db: &impl Db,
    organization: String,
    id: String,
    page: PageRequest,
) -> Result<Paged<TemplateRecord>, StoreError> {
    let d = db.dialect();
    let after = page
        .after
        .as_ref()
        .map_or(0, |key| sql_version(key.version));
    let args = [
        (&id).into(),
        (&organization).into(),
        after.into(),
        page.fetch().into(),
    ];
    let versions = db.page(VERSIONS.text(d), &args, &page, template).await?;
    if versions.items.is_empty() {
        let live = db.row(LIVE.text(d), &args[..2], |_| Ok(())).await?;
        if live.is_none() {
            return Err(StoreError::NotFound);
        }
    }
    Ok(versions)
}

/// A page of the latest versions of the organization's live templates, oldest first.
pub(crate) async fn list(
    db: &impl Db,
    organization: String,
    page: PageRequest,
) -> Result<Paged<TemplateRecord>, StoreError> {
    let mut sql = SqlBuf::new(db.dialect(), concat!(template_select!(), " AND t.org = "));
    sql.bind(&organization)
        .push(" AND v.version = t.latest_version");
    let after = page
        .after
        .as_ref()
        .map(|key| [key.created_at_ms.into(), (&key.id).into()]);
    sql.page_by(
        "t.created_at, t.id",
        after.as_ref().map(|a| &a[..]),
        page.fetch(),
    );
    let (text, args) = sql.finish();
    db.page(&text, &args, &page, template).await
}

/// Tombstones every version of a live template.
pub(crate) async fn delete(
    db: &impl Db,
    organization: String,
    id: String,
) -> Result<(), StoreError> {
    let args = [now_ms().into(), (&id).into(), (&organization).into()];
    changed(db.execute(DELETE.text(db.dialect()), &args).await?)
}

/// Which of `ids` are deleted templates of the organization, in `ids`' order.
pub(crate) async fn deleted(
    db: &impl Db,
    organization: String,
    ids: Vec<String>,
) -> Result<Vec<String>, StoreError> {
    if ids.is_empty() {
        return Ok(ids);
    }
    let mut sql = SqlBuf::new(db.dialect(), "SELECT id FROM templates WHERE org = ");
    sql.bind(&organization).push(" AND ");
    sql.in_list("id", &ids).push(" AND deleted_at IS NOT NULL");
    let (text, args): (String, Vec<Arg<'_>>) = sql.finish();
    let deleted: std::collections::HashSet<String> = db
        .rows(&text, &args, |row| row.get(0))
        .await?
        .into_iter()
        .collect();
    Ok(ids
        .iter()
        .filter(|id| deleted.contains(*id))
        .cloned()
        .collect())
}

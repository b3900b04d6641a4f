//! API clients and their issued tokens (`clients`, `tokens`).

use super::version;
use crate::ids::now_ms;
use crate::store::sql::{Db, Sql};
use crate::store::{ClientRecord, StoreError, TokenRecord};

static PUT: Sql = Sql::new(
    "INSERT INTO clients (client_id, org, secret_hash, created_at, role, teams) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
     ON CONFLICT (client_id) DO UPDATE SET org = excluded.org, secret_hash = excluded.secret_hash, \
     role = excluded.role, teams = excluded.teams",
);
static BY_ID: Sql =
    Sql::new("SELECT client_id, org, secret_hash, role, teams FROM clients WHERE client_id = ?1");
static COUNT: Sql = Sql::new("SELECT COUNT(*) FROM clients");
static IDS: Sql = Sql::new("SELECT client_id FROM clients ORDER BY client_id");
static DELETE: Sql = Sql::new("DELETE FROM clients WHERE client_id = ?1");
static FORGET_EXPIRED: Sql = Sql::new("DELETE FROM tokens WHERE expires_at < ?1");
static PUT_TOKEN: Sql = Sql::new(
    "INSERT INTO tokens (token_hash, client_id, org, expires_at, family) VALUES (?1, ?2, ?3, ?4, ?5)",
);
/// A token and the roles of whom it was issued to: a person (`family` set) or a client.
static TOKEN: Sql = Sql::new(
    "SELECT t.client_id, t.org, t.expires_at, t.family, COALESCE(u.role, c.role), \
     COALESCE(u.teams, c.teams) FROM tokens t \
     LEFT JOIN users u ON t.family IS NOT NULL AND u.org = t.org AND u.name = t.client_id \
     LEFT JOIN clients c ON t.family IS NULL AND c.client_id = t.client_id AND c.org = t.org \
     WHERE t.token_hash = ?1",
);
static DELETE_TOKENS: Sql = Sql::new("DELETE FROM tokens WHERE client_id = ?1");
static DELETE_TOKEN: Sql = Sql::new("DELETE FROM tokens WHERE token_hash = ?1");

/// Adds a client or replaces its secret hash and organization.
pub(crate) async fn put(db: &impl Db, client: ClientRecord) -> Result<(), StoreError> {
    let d = db.dialect();
    let teams = client.grants.teams_json();
    let args = [
        (&client.client_id).into(),
        (&client.organization).into(),
        (&client.secret_hash).into(),
        now_ms().into(),
        (&client.grants.role).into(),
        (&teams).into(),
    ];
    db.execute(PUT.text(d), &args).await?;
    Ok(())
}

/// A client by id.
pub(crate) async fn get(
    db: &impl Db,
    client_id: String,
) -> Result<Option<ClientRecord>, StoreError> {
    db.row(BY_ID.text(db.dialect()), &[(&client_id).into()], |row| {
        Ok(ClientRecord {
            client_id: row.get(0)?,
            organization: row.get(1)?,
            secret_hash: row.get(2)?,
            grants: crate::store::Grants::from_columns(row.get(3)?, &row.get::<String>(4)?),
        })
    })
    .await
}

/// How many clients exist.
pub(crate) async fn count(db: &impl Db) -> Result<u64, StoreError> {
    let n = db
        .row(COUNT.text(db.dialect()), &[], |row| row.get::<i64>(0))
        .await?;
    Ok(version(n.unwrap_or(0)))
}

/// Every client id, sorted.
pub(crate) async fn ids(db: &impl Db) -> Result<Vec<String>, StoreError> {
    db.rows(IDS.text(db.dialect()), &[], |row| row.get(0)).await
}

/// Removes a client and its tokens: how many tokens went.
pub(crate) async fn delete(db: &impl Db, client_id: String) -> Result<u64, StoreError> {
    let tokens = delete_tokens(db, client_id.clone()).await?;
    db.execute(DELETE.text(db.dialect()), &[(&client_id).into()])
        .await?;
    Ok(tokens)
}

/// Stores an issued token, and forgets tokens expired for a day (of no use to anyone).
pub(crate) async fn put_token(db: &impl Db, token: TokenRecord) -> Result<(), StoreError> {
    let d = db.dialect();
    db.execute(FORGET_EXPIRED.text(d), &[(now_ms() - 86_400_000).into()])
        .await?;
    let args = [
        token.token_hash.as_slice().into(),
        (&token.client_id).into(),
        (&token.organization).into(),
        token.expires_at_ms.into(),
        token.family.as_deref().into(),
    ];
    db.execute(PUT_TOKEN.text(d), &args).await?;
    Ok(())
}

/// A token by the SHA-256 of its text.
pub(crate) async fn token(
    db: &impl Db,
    token_hash: [u8; 32],
) -> Result<Option<TokenRecord>, StoreError> {
    db.row(
        TOKEN.text(db.dialect()),
        &[token_hash.as_slice().into()],
        |row| {
            Ok(TokenRecord {
                token_hash,
                client_id: row.get(0)?,
                organization: row.get(1)?,
                expires_at_ms: row.get(2)?,
                family: row.get(3)?,
                grants: match (row.get::<Option<String>>(4)?, row.get::<Option<String>>(5)?) {
                    (Some(role), Some(teams)) => {
                        Some(crate::store::Grants::from_columns(role, &teams))
                    }
                    _ => None,
                },
            })
        },
    )
    .await
}

/// Removes every token issued to a client: how many went.
pub(crate) async fn delete_tokens(db: &impl Db, client_id: String) -> Result<u64, StoreError> {
    db.execute(DELETE_TOKENS.text(db.dialect()), &[(&client_id).into()])
        .await
}

/// Removes one token: whether it existed.
pub(crate) async fn delete_token(db: &impl Db, token_hash: [u8; 32]) -> Result<bool, StoreError> {
    let n = db
        .execute(
            DELETE_TOKEN.text(db.dialect()),
            &[token_hash.as_slice().into()],
        )
        .await?;
    Ok(n > 0)
}

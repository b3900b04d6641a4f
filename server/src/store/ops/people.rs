//! People (`users`), the login form's codes (`oauth_codes`) and refresh tokens
//! (`refresh_tokens`): a code or a refresh token is taken once, by a compare-and-set on its
//! `used` flag; taking it again answers its family, for the caller to revoke.

use crate::ids::now_ms;
use crate::store::StoreError;
use crate::store::people::{CodeRecord, RefreshRecord, Taken, UserRecord};
use crate::store::sql::{Db, Sql};

static PUT_USER: Sql = Sql::new(
    "INSERT INTO users (org, name, secret_hash, role, created_at, teams) \
     VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
     ON CONFLICT (org, name) DO UPDATE SET secret_hash = excluded.secret_hash, \
     role = excluded.role, teams = excluded.teams",
);
static USER: Sql =
    Sql::new("SELECT org, name, secret_hash, role, teams FROM users WHERE org = ?1 AND name = ?2");
static FORGET_CODES: Sql = Sql::new("DELETE FROM oauth_codes WHERE expires_at < ?1");
static PUT_CODE: Sql = Sql::new(
    "INSERT INTO oauth_codes (code_hash, client_id, redirect_uri, challenge, org, user_name, \
     family, expires_at, used) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0)",
);
static USE_CODE: Sql = Sql::new(
    "UPDATE oauth_codes SET used = 1 WHERE code_hash = ?1 AND used = 0 AND expires_at >= ?2",
);
static CODE: Sql = Sql::new(
    "SELECT client_id, redirect_uri, challenge, org, user_name, family, expires_at, used \
     FROM oauth_codes WHERE code_hash = ?1",
);
static FORGET_REFRESH: Sql = Sql::new("DELETE FROM refresh_tokens WHERE expires_at < ?1");
static PUT_REFRESH: Sql = Sql::new(
    "INSERT INTO refresh_tokens (token_hash, family, client_id, org, user_name, expires_at, \
     used) VALUES (?1, ?2, ?3, ?4, ?5, ?6, 0)",
);
static USE_REFRESH: Sql = Sql::new(
    "UPDATE refresh_tokens SET used = 1 WHERE token_hash = ?1 AND used = 0 AND expires_at >= ?2",
);
static REFRESH: Sql = Sql::new(
    "SELECT family, client_id, org, user_name, expires_at, used FROM refresh_tokens \
     WHERE token_hash = ?1",
);
static FAMILY_TOKENS: Sql = Sql::new("SELECT token_hash FROM tokens WHERE family = ?1");
static DELETE_FAMILY_TOKENS: Sql = Sql::new("DELETE FROM tokens WHERE family = ?1");
static DELETE_FAMILY_REFRESH: Sql = Sql::new("DELETE FROM refresh_tokens WHERE family = ?1");

/// Adds a user, or replaces their password hash and role.
pub(crate) async fn put_user(db: &impl Db, user: UserRecord) -> Result<(), StoreError> {
    let teams = user.grants.teams_json();
    let args = [
        (&user.organization).into(),
        (&user.name).into(),
        (&user.secret_hash).into(),
        (&user.grants.role).into(),
        now_ms().into(),
        (&teams).into(),
    ];
    db.execute(PUT_USER.text(db.dialect()), &args).await?;
    Ok(())
}

/// A user of an organization.
pub(crate) async fn user(
    db: &impl Db,
    organization: String,
    name: String,
) -> Result<Option<UserRecord>, StoreError> {
    let args = [(&organization).into(), (&name).into()];
    db.row(USER.text(db.dialect()), &args, |row| {
        Ok(UserRecord {
            organization: row.get(0)?,
            name: row.get(1)?,
            secret_hash: row.get(2)?,
            grants: crate::store::Grants::from_columns(row.get(3)?, &row.get::<String>(4)?),
        })
    })
    .await
}

/// Stores a code (and forgets the codes expired for an hour).
pub(crate) async fn put_code(db: &impl Db, code: CodeRecord) -> Result<(), StoreError> {
    let d = db.dialect();
    db.execute(FORGET_CODES.text(d), &[(now_ms() - 3_600_000).into()])
        .await?;
    let args = [
        code.code_hash.as_slice().into(),
        (&code.client_id).into(),
        (&code.redirect_uri).into(),
        (&code.challenge).into(),
        (&code.organization).into(),
        (&code.user).into(),
        (&code.family).into(),
        code.expires_at_ms.into(),
    ];
    db.execute(PUT_CODE.text(d), &args).await?;
    Ok(())
}

/// Takes a code: once, before it expires.
pub(crate) async fn take_code(
    db: &impl Db,
    code_hash: [u8; 32],
) -> Result<Taken<CodeRecord>, StoreError> {
    let d = db.dialect();
    let taken = db
        .execute(
            USE_CODE.text(d),
            &[code_hash.as_slice().into(), now_ms().into()],
        )
        .await?
        == 1;
    let found = db
        .row(CODE.text(d), &[code_hash.as_slice().into()], |row| {
            Ok((
                CodeRecord {
                    code_hash,
                    client_id: row.get(0)?,
                    redirect_uri: row.get(1)?,
                    challenge: row.get(2)?,
                    organization: row.get(3)?,
                    user: row.get(4)?,
                    family: row.get(5)?,
                    expires_at_ms: row.get(6)?,
                },
                row.get::<i64>(7)? != 0,
            ))
        })
        .await?;
    Ok(match found {
        Some((code, _)) if taken => Taken::Fresh(code),
        Some((code, true)) => Taken::Reused(code.family),
        _ => Taken::Unknown,
    })
}

/// Stores a refresh token (and forgets those expired for a day).
pub(crate) async fn put_refresh(db: &impl Db, token: RefreshRecord) -> Result<(), StoreError> {
    let d = db.dialect();
    db.execute(FORGET_REFRESH.text(d), &[(now_ms() - 86_400_000).into()])
        .await?;
    let args = [
        token.token_hash.as_slice().into(),
        (&token.family).into(),
        (&token.client_id).into(),
        (&token.organization).into(),
        (&token.user).into(),
        token.expires_at_ms.into(),
    ];
    db.execute(PUT_REFRESH.text(d), &args).await?;
    Ok(())
}

/// Takes a refresh token: once, before it expires.
pub(crate) async fn take_refresh(
    db: &impl Db,
    token_hash: [u8; 32],
) -> Result<Taken<RefreshRecord>, StoreError> {
    let d = db.dialect();
    let taken = db
        .execute(
            USE_REFRESH.text(d),
            &[token_hash.as_slice().into(), now_ms().into()],
        )
        .await?
        == 1;
    let found = db
        .row(REFRESH.text(d), &[token_hash.as_slice().into()], |row| {
            Ok((
                RefreshRecord {
                    token_hash,
                    family: row.get(0)?,
                    client_id: row.get(1)?,
                    organization: row.get(2)?,
                    user: row.get(3)?,
                    expires_at_ms: row.get(4)?,
                },
                row.get::<i64>(5)? != 0,
            ))
        })
        .await?;
    Ok(match found {
        Some((token, _)) if taken => Taken::Fresh(token),
        Some((token, true)) => Taken::Reused(token.family),
        _ => Taken::Unknown,
    })
}

/// Revokes a family: its refresh tokens and access tokens. Answers the access tokens'
/// hashes (for the caches).
pub(crate) async fn revoke_family(
    db: &impl Db,
    family: String,
) -> Result<Vec<[u8; 32]>, StoreError> {
    let d = db.dialect();
    let hashes = db
        .rows(FAMILY_TOKENS.text(d), &[(&family).into()], |row| {
            let bytes: Vec<u8> = row.get(0)?;
            <[u8; 32]>::try_from(bytes.as_slice())
                .map_err(|_| StoreError::Backend("a stored token hash is not 32 bytes".into()))
        })
        .await?;
    db.execute(DELETE_FAMILY_TOKENS.text(d), &[(&family).into()])
        .await?;
    db.execute(DELETE_FAMILY_REFRESH.text(d), &[(&family).into()])
        .await?;
    Ok(hashes)
}

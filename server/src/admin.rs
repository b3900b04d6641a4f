//! `jobgraph user:add`: an administrator adds a person to an organization, or changes their
//! password and roles, straight in the service's store (the same `--data`, `--database` and
//! `--config` as `jobgraph serve`; the service may be running). The configuration file's
//! `login.users` does the same at every start.

use crate::config::ServeOptions;
use crate::login_config::{UserSpec, check_users};
use crate::serve::{ServeError, failed, hashed, open_store};
use crate::store::{Grants, UserRecord};

/// Stores `user` (their password hashed) in the store `options` name: a new person, or new
/// password and roles for one already there (their tokens carry the new roles within the
/// token cache's recheck, 30 s). Answers the line to print.
pub fn add_user(options: &ServeOptions, user: &UserSpec) -> Result<String, ServeError> {
    check_users(std::slice::from_ref(user))
        .map_err(|e| ServeError::Failed(e.replacen("login.users[0]", "the user", 1)))?;
    let settings = options.settings()?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| failed("cannot start the runtime")(&e))?;
    runtime.block_on(async {
        let (store, location) = open_store(&settings).await?;
        let existed = store
            .user(user.organization.clone(), user.name.clone())
            .await
            .map_err(|e| failed("cannot read the users")(&e))?
            .is_some();
        store
            .put_user(UserRecord {
                organization: user.organization.clone(),
                name: user.name.clone(),
                secret_hash: hashed(&user.password).await?,
                grants: Grants {
                    role: user.role.clone(),
                    teams: user.teams.clone(),
                },
            })
            .await
            .map_err(|e| failed("cannot store the user")(&e))?;
        let teams = if user.teams.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = user
                .teams
                .iter()
                .map(|(team, role)| format!("{role} of {team}"))
                .collect();
            format!(", {}", list.join(", "))
        };
        let line = format!(
            "user {:?} of organization {:?} {} ({}{teams}; {location})",
            user.name,
            user.organization,
            if existed { "updated" } else { "added" },
            user.role,
        );
        Ok(line)
    })
}

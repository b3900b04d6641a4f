//! `login` in `--config`: who may log in and how long what they get lives.

use serde::Deserialize;

/// `login` in `--config` (`docs/api.md`, "People, login and roles").
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct LoginConfig {
    /// The public clients (no secret: PKCE instead) that may ask people to log in with the
    /// authorization code flow. Default `["jobgraph-cli"]`.
    pub public_clients: Vec<String>,
    /// How long an authorization code may be exchanged, in seconds. Default 60.
    pub code_ttl_seconds: u64,
    /// How long a refresh token may be used, in seconds. Default 30 days.
    pub refresh_ttl_seconds: u64,
    /// The people who may log in (their passwords are hashed before they are stored).
    pub users: Vec<UserSpec>,
}

impl Default for LoginConfig {
    fn default() -> Self {
        LoginConfig {
            public_clients: vec!["jobgraph-cli".into()],
            code_ttl_seconds: 60,
            refresh_ttl_seconds: 30 * 86_400,
            users: Vec::new(),
        }
    }
}

/// A person in `login.users`.
#[derive(Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UserSpec {
    /// Their name, unique in the organization.
    pub name: String,
    /// Their organization.
    #[serde(alias = "org")]
    pub organization: String,
    /// Their password (hashed before it is stored; never printed).
    pub password: String,
    /// `Admin`, `Member` (default) or `Reader`.
    #[serde(default = "member")]
    pub role: String,
    /// Their team roles: team id → `Leader` or `Member`.
    #[serde(default)]
    pub teams: std::collections::BTreeMap<String, String>,
}

fn member() -> String {
    "Member".into()
}

impl std::fmt::Debug for UserSpec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserSpec")
            .field("name", &self.name)
            .field("organization", &self.organization)
            .field("password", &"<redacted>")
            .field("role", &self.role)
            .field("teams", &self.teams)
            .finish()
    }
}

/// The organization roles.
pub const ROLES: &[&str] = &["Admin", "Member", "Reader"];

/// The team roles.
pub const TEAM_ROLES: &[&str] = &["Leader", "Member"];

/// Checks an organization role and team roles given in the configuration.
pub fn check_roles(
    role: &str,
    teams: &std::collections::BTreeMap<String, String>,
) -> Result<(), String> {
    if !ROLES.contains(&role) {
        return Err(format!("role {role:?} is not one of {}", ROLES.join(", ")));
    }
    for (team, role) in teams {
        if team.trim().is_empty() {
            return Err("a team id in `teams` is empty".into());
        }
        if !TEAM_ROLES.contains(&role.as_str()) {
            return Err(format!(
                "teams.{team}: {role:?} is not a team role ({})",
                TEAM_ROLES.join(", ")
            ));
        }
    }
    Ok(())
}

/// Checks `login.users`: names, organizations and roles given, passwords long enough, no one
/// twice.
pub fn check_users(users: &[UserSpec]) -> Result<(), String> {
    for (i, user) in users.iter().enumerate() {
        if user.name.trim().is_empty() || user.organization.trim().is_empty() {
            return Err(format!(
                "login.users[{i}]: `name` and `organization` must not be empty"
            ));
        }
        if user.password.chars().count() < 12 {
            return Err(format!(
                "login.users[{i}] ({:?}): the password is shorter than 12 characters; use a longer one",
                user.name
            ));
        }
        check_roles(&user.role, &user.teams)
            .map_err(|e| format!("login.users[{i}] ({:?}): {e}", user.name))?;
        if let Some(first) = users[..i]
            .iter()
            .position(|u| u.name == user.name && u.organization == user.organization)
        {
            return Err(format!(
                "login.users[{i}]: {:?} of {:?} is already login.users[{first}]",
                user.name, user.organization
            ));
        }
    }
    Ok(())
}

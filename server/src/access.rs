//! Who may do what, checked on every `/v1` request (issue 40; `docs/api.md`, "People, login
//! and roles"): the caller's roles ([`Caller::subject`], read with its token) against the
//! public permission model of `jobgraph_model::permissions`. A refusal is a 403 that names
//! the permission, the resource, the caller's roles and who can change them.
//!
//! What each endpoint needs is written next to the handler (`caller.require(…)`); what a job
//! graph needs is [`graph_needs`]: View on every integration and dataset it reads or writes,
//! Write on every integration it sends events to (a vendor sink), Edit on a dataset it
//! appends to. A job is saved only
//! when its editor holds all of them, so a running pipeline writes only where its editor may.

use jobgraph_model::ops::{self, Role};
use jobgraph_model::permissions::{Permission, Resource};
use serde_json::Value;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::integration_spec::IntegrationSpec;
use crate::state::AppState;
use crate::store::StoreError;

impl Caller {
    /// `Ok` when the caller's roles grant `permission` on a `resource` of `team_ids` (empty:
    /// the organization's); a 403 naming what is missing otherwise.
    pub fn require(
        &self,
        permission: Permission,
        resource: Resource,
        team_ids: &[String],
    ) -> Result<(), ApiError> {
        self.check(permission, resource, team_ids, None)
    }

    /// As [`Caller::require`], for one named thing (`integration "dd-prod"`), which the
    /// refusal names.
    pub fn require_for(
        &self,
        permission: Permission,
        resource: Resource,
        team_ids: &[String],
        what: &str,
    ) -> Result<(), ApiError> {
        self.check(permission, resource, team_ids, Some(what))
    }

    fn check(
        &self,
        permission: Permission,
        resource: Resource,
        team_ids: &[String],
        what: Option<&str>,
    ) -> Result<(), ApiError> {
        let teams: Vec<&str> = team_ids.iter().map(String::as_str).collect();
        if self.subject.may(permission, resource, &teams) {
            return Ok(());
        }
        Err(ApiError::Forbidden(refusal(
            self, permission, resource, &teams, what,
        )))
    }
}

fn refusal(
    caller: &Caller,
    permission: Permission,
    resource: Resource,
    teams: &[&str],
    what: Option<&str>,
) -> String {
    let scope = if teams.is_empty() {
        "of the organization".to_owned()
    } else {
        format!("of team(s) {}", teams.join(", "))
    };
    let who = if caller.person {
        format!("user {:?}", caller.client_id)
    } else {
        format!("client {:?}", caller.client_id)
    };
    let what = what.map(|w| format!(" ({w})")).unwrap_or_default();
    let fix = if caller.person {
        "An organization Admin can change your roles (`login.users` in the service's configuration)"
    } else {
        "An organization Admin can change this client's roles (`clients[].role` and `teams` in the service's configuration)"
    };
    format!(
        "forbidden: {who} lacks the {permission} permission on {resource} {scope}{what}; its roles: {}. {fix}; see docs/api.md, \"People, login and roles\"",
        caller.subject.describe()
    )
}

/// One permission a job graph needs: `permission` on the `resource` named `id`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Need {
    /// The permission.
    pub permission: Permission,
    /// Integrations or datasets.
    pub resource: Resource,
    /// The integration's or dataset's id (or a dataset's name).
    pub id: String,
    /// The vertex that uses it.
    pub vertex: String,
}

/// What a (resolved) job graph needs of its editor: View on every integration and dataset a
/// vertex names (`integrationId` or `integration`, `datasetId` or `datasetName`), Write on an
/// integration a sink sends to, and Edit on a dataset a sink appends to. Vertices of unknown types need what their fields name.
///
/// ```
/// use jobgraph_model::permissions::{Permission, Resource};
/// let graph = serde_json::json!({"vertices": [
///     {"type": "datadog-log-agent-source", "name": "in", "integrationId": "dd-in"},
///     {"type": "datadog-log-sink", "name": "out", "integrationId": "dd-prod"},
/// ]});
/// let needs = jobgraph_server::access::graph_needs(&graph);
/// assert!(needs.iter().any(|n| n.permission == Permission::Write && n.id == "dd-prod"));
/// assert!(!needs.iter().any(|n| n.permission == Permission::Write && n.id == "dd-in"));
/// ```
pub fn graph_needs(graph: &Value) -> Vec<Need> {
    let mut needs = Vec::new();
    let vertices = graph.get("vertices").and_then(Value::as_array);
    for vertex in vertices.into_iter().flatten() {
        let name = vertex.get("name").and_then(Value::as_str).unwrap_or("");
        let sink = vertex
            .get("type")
            .and_then(Value::as_str)
            .and_then(ops::find)
            .is_some_and(|op| op.role == Role::Sink);
        let field = |key: &str| vertex.get(key).and_then(Value::as_str);
        let mut need = |permission, resource, id: &str| {
            needs.push(Need {
                permission,
                resource,
                id: id.to_owned(),
                vertex: name.to_owned(),
            });
        };
        if let Some(id) = field("integrationId").or_else(|| field("integration")) {
            need(Permission::View, Resource::Integrations, id);
            if sink {
                need(Permission::Write, Resource::Integrations, id);
            }
        }
        if let Some(id) = field("datasetId").or_else(|| field("datasetName")) {
            need(Permission::View, Resource::Datasets, id);
            if sink {
                // Events appended to a dataset change it.
                need(Permission::Edit, Resource::Datasets, id);
            }
        }
    }
    needs
}

/// Checks [`graph_needs`] of `graph` against the caller: the first missing permission is the
/// 403, naming the vertex and the integration or dataset. An integration is scoped to its
/// configured `teamIds`, a dataset to its stored ones (none, or not found: the organization;
/// a dataset that does not exist is refused later, by the run's plan).
pub async fn require_graph(
    state: &AppState,
    caller: &Caller,
    graph: &Value,
) -> Result<(), ApiError> {
    for need in graph_needs(graph) {
        let (kind, teams) = match need.resource {
            Resource::Datasets => ("dataset", dataset_teams(state, caller, &need.id).await?),
            _ => (
                "integration",
                integration_teams(&state.config.integrations, &need.id),
            ),
        };
        caller.require_for(
            need.permission,
            need.resource,
            &teams,
            &format!("{kind} {:?} of vertex {:?}", need.id, need.vertex),
        )?;
    }
    Ok(())
}

fn integration_teams(integrations: &[IntegrationSpec], id: &str) -> Vec<String> {
    integrations
        .iter()
        .find(|spec| spec.id == id)
        .map(|spec| spec.team_ids.clone())
        .unwrap_or_default()
}

/// The teams of the dataset a vertex names by id or by name.
async fn dataset_teams(
    state: &AppState,
    caller: &Caller,
    id_or_name: &str,
) -> Result<Vec<String>, ApiError> {
    let org = caller.organization.clone();
    let found = match state
        .store
        .dataset(org.clone(), id_or_name.to_owned())
        .await
    {
        Err(StoreError::NotFound) => {
            state
                .store
                .dataset_by_name(org, id_or_name.to_owned())
                .await
        }
        other => other,
    };
    match found {
        Ok(record) => Ok(record.fields.team_ids),
        Err(StoreError::NotFound) => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

//! Who may do what (issue 40; the public service's permission model, `docs/api.md` "People,
//! login and roles"): organization roles Admin, Member and Reader; team roles Leader and
//! Member; permissions View, Edit and Write (send data through an integration used as a sink)
//! on the organization's settings, users, teams, integrations, datasets, jobs and templates. A
//! resource is scoped to the organization, or to teams (its `teamIds`). A subject's grants are
//! the union of its organization role's and its team roles'.
//!
//! The rules, as the public documentation states them in prose:
//! - an organization Admin may do everything;
//! - an organization Member may view everything and write to every integration (backfills);
//! - an organization Reader may view everything, nothing more;
//! - a team Leader may view, edit and write every resource of their team, and view the
//!   organization's settings, users, teams and templates;
//! - a team Member may view the resources of their team and write to its integrations, and
//!   view the organization's settings.
//!
//! The tests check these rules against the documentation's table, row by row.
//!
//! ```
//! use jobgraph_model::permissions::{OrgRole, Permission, Resource, Subject, TeamRole};
//! let leader = Subject::new(None).with_team("devops", TeamRole::Leader);
//! assert!(leader.may(Permission::Edit, Resource::Jobs, &["devops"]));
//! assert!(!leader.may(Permission::Edit, Resource::Jobs, &[]));
//! assert!(Subject::new(Some(OrgRole::Member)).may(Permission::Write, Resource::Integrations, &[]));
//! ```

use std::collections::BTreeMap;

/// An organization role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum OrgRole {
    /// Everything.
    Admin,
    /// View everything; write to integrations.
    Member,
    /// View everything.
    Reader,
}

/// A team role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TeamRole {
    /// Edit the team's resources.
    Leader,
    /// View the team's resources; write to its integrations.
    Member,
}

/// A permission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Permission {
    /// Read.
    View,
    /// Create, change, delete.
    Edit,
    /// Send data through an integration used as a sink.
    Write,
}

/// A kind of resource.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Resource {
    /// The organization's settings.
    OrganizationSettings,
    /// People.
    Users,
    /// Teams.
    Teams,
    /// Vendor and storage integrations.
    Integrations,
    /// Datasets.
    Datasets,
    /// Jobs.
    Jobs,
    /// Templates.
    Templates,
}

impl TeamRole {
    /// The role of its public name (`Leader`, `Member`).
    pub fn parse(name: &str) -> Option<TeamRole> {
        match name {
            "Leader" => Some(TeamRole::Leader),
            "Member" => Some(TeamRole::Member),
            _ => None,
        }
    }
}

impl std::fmt::Display for OrgRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            OrgRole::Admin => "Admin",
            OrgRole::Member => "Member",
            OrgRole::Reader => "Reader",
        })
    }
}

impl std::fmt::Display for TeamRole {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            TeamRole::Leader => "Leader",
            TeamRole::Member => "Member",
        })
    }
}

impl std::fmt::Display for Permission {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Permission::View => "View",
            Permission::Edit => "Edit",
            Permission::Write => "Write",
        })
    }
}

impl std::fmt::Display for Resource {
    /// The resource's name as the documentation's table writes it (`jobs`, `organization
    /// settings`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Resource::OrganizationSettings => "organization settings",
            Resource::Users => "users",
            Resource::Teams => "teams",
            Resource::Integrations => "integrations",
            Resource::Datasets => "datasets",
            Resource::Jobs => "jobs",
            Resource::Templates => "templates",
        })
    }
}

impl OrgRole {
    /// The role of its public name (`Admin`, `Member`, `Reader`).
    pub fn parse(name: &str) -> Option<OrgRole> {
        match name {
            "Admin" => Some(OrgRole::Admin),
            "Member" => Some(OrgRole::Member),
            "Reader" => Some(OrgRole::Reader),
            _ => None,
        }
    }
}

/// Someone acting: a person or a service account, with an organization role (or none) and
/// team roles.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Subject {
    role: Option<OrgRole>,
    teams: BTreeMap<String, TeamRole>,
}

impl Subject {
    /// A subject with `role` in the organization and no team.
    pub fn new(role: Option<OrgRole>) -> Subject {
        Subject {
            role,
            teams: BTreeMap::new(),
        }
    }

    /// The same subject, also `role` in `team`.
    pub fn with_team(mut self, team: &str, role: TeamRole) -> Subject {
        self.teams.insert(team.to_owned(), role);
        self
    }

    /// Its organization role.
    pub fn role(&self) -> Option<OrgRole> {
        self.role
    }

    /// Its team roles, by team.
    pub fn teams(&self) -> &BTreeMap<String, TeamRole> {
        &self.teams
    }

    /// Its roles in words, for a refusal: `organization role Reader, Leader of devops`.
    pub fn describe(&self) -> String {
        let mut parts = vec![match self.role {
            Some(role) => format!("organization role {role}"),
            None => "no organization role".to_owned(),
        }];
        parts.extend(
            self.teams
                .iter()
                .map(|(team, role)| format!("{role} of team {team}")),
        );
        parts.join(", ")
    }

    /// Whether it may `permission` a `resource` scoped to `teams` (empty: the organization).
    pub fn may(&self, permission: Permission, resource: Resource, teams: &[&str]) -> bool {
        let by_role = self
            .role
            .is_some_and(|role| org_role_may(role, permission, resource));
        let by_team = if teams.is_empty() {
            self.teams
                .values()
                .any(|role| team_role_may_in_organization(*role, permission, resource))
        } else {
            teams.iter().any(|team| {
                self.teams
                    .get(*team)
                    .is_some_and(|role| team_role_may_in_team(*role, permission, resource))
            })
        };
        by_role || by_team
    }
}

fn org_role_may(role: OrgRole, permission: Permission, resource: Resource) -> bool {
    match role {
        OrgRole::Admin => true,
        OrgRole::Member => {
            permission == Permission::View
                || (permission == Permission::Write && resource == Resource::Integrations)
        }
        OrgRole::Reader => permission == Permission::View,
    }
}

/// What a team role grants on the team's own resources.
fn team_role_may_in_team(role: TeamRole, permission: Permission, resource: Resource) -> bool {
    let team_resource = !matches!(resource, Resource::OrganizationSettings | Resource::Users);
    match role {
        TeamRole::Leader => team_resource,
        TeamRole::Member => {
            team_resource
                && (permission == Permission::View
                    || (permission == Permission::Write && resource == Resource::Integrations))
        }
    }
}

/// What a team role grants on the organization's resources (not a team's).
fn team_role_may_in_organization(
    role: TeamRole,
    permission: Permission,
    resource: Resource,
) -> bool {
    if permission != Permission::View {
        return false;
    }
    match role {
        TeamRole::Leader => matches!(
            resource,
            Resource::OrganizationSettings
                | Resource::Users
                | Resource::Teams
                | Resource::Templates
        ),
        TeamRole::Member => resource == Resource::OrganizationSettings,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The documentation's table ("Permissions by role"), transcribed: permission, resource,
    /// access scope, then Admin, Member, Reader (organization), Leader, Member (team).
    const TABLE: &str = "
        View  OrganizationSettings Organization  y y y y y
        Edit  OrganizationSettings Organization  y n n n n
        View  Users                Organization  y y y y n
        Edit  Users                Organization  y n n n n
        View  Teams                Organization  y y y y n
        Edit  Teams                Organization  y n n n n
        View  Integrations         Organization  y y y n n
        Edit  Integrations         Organization  y n n n n
        Write Integrations         Organization  y y n n n
        View  Datasets             Organization  y y y n n
        Edit  Datasets             Organization  y n n n n
        View  Jobs                 Organization  y y y n n
        Edit  Jobs                 Organization  y n n n n
        View  Templates            Organization  y y y y n
        Edit  Templates            Organization  y n n n n
        View  Teams                Team          y y y y y
        Edit  Teams                Team          y n n y n
        View  Integrations         Team          y y y y y
        Edit  Integrations         Team          y n n y n
        Write Integrations         Team          y y n y y
        View  Datasets             Team          y y y y y
        Edit  Datasets             Team          y n n y n
        View  Jobs                 Team          y y y y y
        Edit  Jobs                 Team          y n n y n
        View  Templates            Team          y y y y y
        Edit  Templates            Team          y n n y n
    ";

    fn permission(name: &str) -> Permission {
        match name {
            "View" => Permission::View,
            "Edit" => Permission::Edit,
            "Write" => Permission::Write,
            other => panic!("{other}"),
        }
    }

    fn resource(name: &str) -> Resource {
        match name {
            "OrganizationSettings" => Resource::OrganizationSettings,
            "Users" => Resource::Users,
            "Teams" => Resource::Teams,
            "Integrations" => Resource::Integrations,
            "Datasets" => Resource::Datasets,
            "Jobs" => Resource::Jobs,
            "Templates" => Resource::Templates,
            other => panic!("{other}"),
        }
    }

    #[test]
    fn every_role_permission_and_resource_of_the_documentation_table() {
        let subjects = [
            ("organization Admin", Subject::new(Some(OrgRole::Admin))),
            ("organization Member", Subject::new(Some(OrgRole::Member))),
            ("organization Reader", Subject::new(Some(OrgRole::Reader))),
            (
                "team Leader",
                Subject::new(None).with_team("devops", TeamRole::Leader),
            ),
            (
                "team Member",
                Subject::new(None).with_team("devops", TeamRole::Member),
            ),
        ];
        let mut rows = 0;
        for line in TABLE.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let cells: Vec<&str> = line.split_whitespace().collect();
            let (p, r) = (permission(cells[0]), resource(cells[1]));
            let teams: &[&str] = if cells[2] == "Team" { &["devops"] } else { &[] };
            for ((who, subject), expected) in subjects.iter().zip(&cells[3..]) {
                assert_eq!(
                    subject.may(p, r, teams),
                    *expected == "y",
                    "{who}: {} {} ({} scope)",
                    cells[0],
                    cells[1],
                    cells[2]
                );
            }
            rows += 1;
        }
        assert_eq!(rows, 26);
    }

    #[test]
    fn a_team_role_reaches_only_its_own_teams_resources_and_roles_add_up() {
        let leader = Subject::new(None).with_team("devops", TeamRole::Leader);
        assert!(!leader.may(Permission::Edit, Resource::Jobs, &["payments"]));
        assert!(leader.may(Permission::Edit, Resource::Jobs, &["payments", "devops"]));
        let reader_and_leader =
            Subject::new(Some(OrgRole::Reader)).with_team("devops", TeamRole::Leader);
        assert!(reader_and_leader.may(Permission::View, Resource::Jobs, &[]));
        assert!(reader_and_leader.may(Permission::Edit, Resource::Jobs, &["devops"]));
        assert!(!reader_and_leader.may(Permission::Write, Resource::Integrations, &[]));
        assert!(!Subject::default().may(Permission::View, Resource::Jobs, &[]));
        assert_eq!(OrgRole::parse("Reader"), Some(OrgRole::Reader));
        assert_eq!(OrgRole::parse("Owner"), None);
    }
}

//! `template:create`, `template:list` (`templates`), `template:get`, `template:update`,
//! `template:delete` (`template:test` is a module of its own).

use std::path::Path;

use jobgraph_sdk::api::TemplateInput;
use jobgraph_sdk::client::TemplateVersions;
use jobgraph_sdk::directory::load_template_file;

use crate::args::TemplateCommand;
use crate::context::Context;
use crate::failure::Failure;
use crate::output::{self, Format, Shape, emit, render};
use crate::session::Session;
use crate::term::Ui;

/// The columns a template list shows unless `-c` says otherwise.
pub const TEMPLATE_SUMMARY: &[&str] = &["id", "name", "version", "updatedAt", "description"];

/// The columns a table of one template's versions shows.
pub const VERSION_SUMMARY: &[&str] =
    &["id", "name", "version", "updatedAt", "editedBy", "isLatest"];

/// A template file (JSON, its script inline or in a `.js` beside it) as the API's fields.
fn template_input(file: &Path) -> Result<TemplateInput, Failure> {
    let template = load_template_file(file).map_err(|e| Failure::usage(e.to_string()))?;
    let mut input = TemplateInput::from(template);
    // The file's `teamIds` (the template file format has none of its own).
    let text = std::fs::read_to_string(file).unwrap_or_default();
    if let Ok(serde_json::Value::Object(map)) = serde_json::from_str(&text)
        && let Some(teams) = map.get("teamIds").filter(|v| !v.is_null())
    {
        let teams = teams
            .as_array()
            .and_then(|items| {
                items
                    .iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect::<Option<Vec<String>>>()
            })
            .ok_or_else(|| {
                Failure::usage(format!(
                    "{}: `teamIds` must be an array of team ids (strings)",
                    file.display()
                ))
            })?;
        input.team_ids = Some(teams);
    }
    Ok(input)
}

/// The `template:*` commands.
pub fn run(command: TemplateCommand, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let ui = Ui::new(global, false);
    match command {
        TemplateCommand::Create {
            template_file,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let input = template_input(&template_file)?;
            let session = Session::open(ctx)?;
            let created = session
                .runtime
                .block_on(ui.spin(
                    "creating the template",
                    session.client.create_template(&input),
                ))
                .map_err(|e| session.failure(e))?;
            ui.note(&format!(
                "created template {} version {}",
                created.id, created.version
            ));
            let value = serde_json::to_value(created).unwrap_or_default();
            emit(&render(value, Shape::One, &style), global)
        }
        TemplateCommand::List { limit, output } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let limit = limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            let list = session
                .runtime
                .block_on(ui.spin(
                    "listing templates",
                    session.client.list_templates_up_to(limit),
                ))
                .map_err(|e| session.failure(e))?;
            let value = serde_json::to_value(list).unwrap_or_default();
            emit(
                &render(value, Shape::List(TEMPLATE_SUMMARY), &style),
                global,
            )
        }
        TemplateCommand::Get {
            template_id,
            version,
            latest,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let versions = match (version, latest) {
                (Some(n), _) => TemplateVersions::Version(n),
                (None, true) => TemplateVersions::Latest,
                (None, false) => TemplateVersions::All,
            };
            let session = Session::open(ctx)?;
            let mut items = session
                .runtime
                .block_on(ui.spin(
                    "fetching the template",
                    session.client.get_template(&template_id, versions),
                ))
                .map_err(|e| session.failure(e))?;
            let text = if versions == TemplateVersions::All {
                let value = serde_json::to_value(items).unwrap_or_default();
                render(value, Shape::List(VERSION_SUMMARY), &style)
            } else {
                let one = items.pop().ok_or_else(|| {
                    Failure::failed(format!("the service answered no version of {template_id}"))
                })?;
                render(
                    serde_json::to_value(one).unwrap_or_default(),
                    Shape::One,
                    &style,
                )
            };
            emit(&text, global)
        }
        TemplateCommand::Update {
            template_id,
            template_file,
            expected_version,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let input = template_input(&template_file)?;
            let session = Session::open(ctx)?;
            let updated = session
                .runtime
                .block_on(
                    ui.spin(
                        "updating the template",
                        session
                            .client
                            .update_template(&template_id, &input, expected_version),
                    ),
                )
                .map_err(|e| session.failure(e))?;
            ui.note(&format!(
                "template {} is at version {}",
                updated.id, updated.version
            ));
            let value = serde_json::to_value(updated).unwrap_or_default();
            emit(&render(value, Shape::One, &style), global)
        }
        TemplateCommand::Delete { template_id } => {
            let session = Session::open(ctx)?;
            session
                .runtime
                .block_on(ui.spin(
                    "deleting the template",
                    session.client.delete_template(&template_id),
                ))
                .map_err(|e| session.failure(e))?;
            ui.note(&format!("deleted template {template_id} (every version)"));
            Ok(())
        }
    }
}

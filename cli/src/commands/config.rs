//! `config:save`, `config:list`, `config:show`, `config:default`, `config:delete`.

use serde_json::{Map, Value, json};

use crate::args::ConfigCommand;
use crate::context::Context;
use crate::failure::Failure;
use crate::output::{self, Format, Shape, emit};
use crate::settings::Saved;
use crate::term::Ui;

/// A configuration as a record: `name`, `default` and its saved fields.
fn record(name: &str, saved: &Saved, is_default: bool) -> Value {
    let mut map = Map::new();
    map.insert("name".into(), json!(name));
    map.insert("default".into(), json!(is_default));
    if let Value::Object(fields) = serde_json::to_value(saved).unwrap_or_default() {
        map.extend(fields);
    }
    Value::Object(map)
}

/// The `config:*` commands.
pub fn run(command: ConfigCommand, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let ui = Ui::new(global, false);
    let mut file = ctx.config_file()?.clone();
    match command {
        ConfigCommand::Save {
            name,
            default,
            oauth,
        } => {
            if name.is_empty() || name == "_default" {
                return Err(Failure::usage(format!(
                    "{name:?} cannot name a configuration"
                )));
            }
            let settings = ctx.settings_over(&file, &name)?;
            let client_id = settings
                .client_id
                .clone()
                .or_else(|| oauth.then(|| crate::session::PUBLIC_CLIENT.to_owned()));
            let Some(client_id) = client_id else {
                return Err(Failure::usage(
                    "config:save needs a client id: --client-id ID or JOBGRAPH_CLIENT_ID (or --oauth: a person logs in)",
                ));
            };
            // What was given (flags, environment) over what NAME holds; the API address is
            // always written, the auth address only when given (else it follows the API's).
            let mut saved = file.entries.get(&name).cloned().unwrap_or_default();
            if global.org_name.is_some() {
                saved.org_name.clone_from(&global.org_name);
            }
            if global.auth_base_url.is_some() {
                saved.auth_base_url.clone_from(&global.auth_base_url);
            }
            saved.api_base_url = Some(settings.api_base_url.clone());
            saved.client_id = Some(client_id);
            if oauth {
                saved.auth_method = Some("oauth".into());
                saved.browser.get_or_insert(true);
            } else if saved.auth_method.is_none() {
                saved.auth_method = Some("client-credentials".into());
            }
            saved.auth_cache.get_or_insert(true);
            saved.browser.get_or_insert(false);
            let first = file.entries.is_empty();
            file.entries.insert(name.clone(), saved);
            let make_default = default || first || file.default.is_none();
            if make_default {
                file.default = Some(name.clone());
            }
            file.save()?;
            ui.note(&format!(
                "saved configuration {name:?}{} in {}",
                if make_default { " (default)" } else { "" },
                file.path.display()
            ));
            Ok(())
        }
        ConfigCommand::Delete { name } => {
            if file.entries.shift_remove(&name).is_none() {
                return Err(Failure::failed(format!("no configuration named {name:?}")));
            }
            if file.default.as_deref() == Some(&name) {
                file.default = None;
            }
            file.save()?;
            ui.note(&format!("deleted configuration {name:?}"));
            Ok(())
        }
        ConfigCommand::Default { name } => {
            if !file.entries.contains_key(&name) {
                return Err(Failure::failed(format!(
                    "no configuration named {name:?} (config:list shows them)"
                )));
            }
            file.default = Some(name.clone());
            file.save()?;
            ui.note(&format!("{name:?} is the default configuration"));
            Ok(())
        }
        ConfigCommand::List { output } => {
            let records: Vec<Value> = file
                .entries
                .iter()
                .map(|(name, saved)| record(name, saved, file.default.as_deref() == Some(name)))
                .collect();
            let mut style = output::style(&output, Format::Table, global)?;
            if output.sort.is_none() {
                style.sort = vec![("name".into(), true)];
            }
            let summary = ["name", "default", "orgName", "clientId", "apiBaseUrl"];
            emit(
                &output::render(Value::Array(records), Shape::List(&summary), &style),
                global,
            )
        }
        ConfigCommand::Show { name, output } => {
            let name = name
                .or_else(|| global.conf.clone())
                .or_else(|| file.default.clone())
                .ok_or_else(|| Failure::failed("no configuration is saved (config:save NAME)"))?;
            let saved = file
                .entries
                .get(&name)
                .ok_or_else(|| Failure::failed(format!("no configuration named {name:?}")))?;
            let style = output::style(&output, Format::Table, global)?;
            let value = record(&name, saved, file.default.as_deref() == Some(&name));
            emit(&output::render(value, Shape::One, &style), global)
        }
    }
}

//! `dataset:create`, `dataset:list` (`datasets`), `dataset:get`, `dataset:update`,
//! `dataset:delete`, `dataset:files`, and `integration:list`, `integration:get`.

use std::io::IsTerminal;
use std::path::Path;

use jobgraph_sdk::api::DatasetInput;
use serde_json::Value;

use crate::args::{DatasetCommand, Global, IntegrationCommand};
use crate::context::Context;
use crate::failure::Failure;
use crate::output::{self, Format, Shape, Style, emit, render};
use crate::session::Session;
use crate::term::Ui;

/// The columns a dataset list shows unless `-c` says otherwise.
pub const DATASET_SUMMARY: &[&str] = &[
    "id",
    "name",
    "partitioning",
    "retentionDays",
    "version",
    "updatedAt",
];

/// The columns a list of a dataset's files shows.
pub const FILE_SUMMARY: &[&str] = &["path", "table", "rows", "bytes", "minTime", "maxTime"];

/// The columns an integration list shows.
pub const INTEGRATION_SUMMARY: &[&str] = &[
    "id",
    "name",
    "type",
    "ingest",
    "eventsTaken",
    "bufferedEvents",
    "jobs",
];

/// `POST /v1/logs` as the address agents use: the method and the service's origin (from the
/// API base URL) with the path.
fn ingest_address(ingest: &str, api_base_url: &str) -> String {
    let origin = match api_base_url.find("://") {
        Some(at) => {
            let rest = &api_base_url[at + 3..];
            let end = rest.find('/').map_or(api_base_url.len(), |i| at + 3 + i);
            &api_base_url[..end]
        }
        None => api_base_url.trim_end_matches('/'),
    };
    match ingest.split_once(' ') {
        Some((method, path)) => format!("{method} {origin}{path}"),
        None => format!("{origin}{ingest}"),
    }
}

/// Fields of a dataset file that the service assigns: left out of what is sent, so the
/// output of `dataset:get -f pretty` can be edited and sent back.
const ASSIGNED: &[&str] = &["id", "organizationId", "createdAt", "updatedAt", "version"];

/// Writable fields of a dataset file.
const WRITABLE: &[&str] = &[
    "name",
    "description",
    "partitioning",
    "retentionDays",
    "promotedTags",
    "teamIds",
];

/// A dataset file as the API's fields (a usage error names what is wrong with it).
fn dataset_input(file: &Path) -> Result<DatasetInput, Failure> {
    let shown = file.display();
    let text = std::fs::read_to_string(file)
        .map_err(|e| Failure::usage(format!("cannot read the dataset file {shown}: {e}")))?;
    let mut value: Value = serde_json::from_str(&text)
        .map_err(|e| Failure::usage(format!("{shown} is not valid JSON: {e}")))?;
    let Some(map) = value.as_object_mut() else {
        return Err(Failure::usage(format!(
            "{shown} must hold a JSON object such as {{\"name\": \"web-logs\"}}"
        )));
    };
    map.retain(|k, _| !ASSIGNED.contains(&k.as_str()));
    if let Some(key) = map.keys().find(|k| !WRITABLE.contains(&k.as_str())) {
        return Err(Failure::usage(format!(
            "{shown}: {key:?} is not a dataset field (known: {})",
            WRITABLE.join(", ")
        )));
    }
    serde_json::from_value(value)
        .map_err(|e| Failure::usage(format!("{shown} is not a valid dataset: {e}")))
}

fn print<T: serde::Serialize>(
    value: T,
    shape: Shape<'_>,
    style: &Style,
    global: &Global,
) -> Result<(), Failure> {
    let value = serde_json::to_value(value).unwrap_or_default();
    emit(&render(value, shape, style), global)
}

/// The `dataset:*` commands.
pub fn run(command: DatasetCommand, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let ui = Ui::new(global, false);
    match command {
        DatasetCommand::Create {
            dataset_file,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let input = dataset_input(&dataset_file)?;
            let session = Session::open(ctx)?;
            let created = session
                .runtime
                .block_on(ui.spin(
                    "creating the dataset",
                    session.client.create_dataset(&input),
                ))
                .map_err(|e| session.failure(e))?;
            ui.note(&format!(
                "created dataset {} ({})",
                created.id, created.name
            ));
            print(created, Shape::One, &style, global)
        }
        DatasetCommand::List { limit, output } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let limit = limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            let list = session
                .runtime
                .block_on(ui.spin(
                    "listing datasets",
                    session.client.list_datasets_up_to(limit),
                ))
                .map_err(|e| session.failure(e))?;
            print(list, Shape::List(DATASET_SUMMARY), &style, global)
        }
        DatasetCommand::Get { dataset_id, output } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let dataset = session
                .runtime
                .block_on(ui.spin(
                    "fetching the dataset",
                    session.client.get_dataset(&dataset_id),
                ))
                .map_err(|e| session.failure(e))?;
            print(dataset, Shape::One, &style, global)
        }
        DatasetCommand::Update {
            dataset_id,
            dataset_file,
            expected_version,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let input = dataset_input(&dataset_file)?;
            let session = Session::open(ctx)?;
            let updated = session
                .runtime
                .block_on(
                    ui.spin(
                        "updating the dataset",
                        session
                            .client
                            .update_dataset(&dataset_id, &input, expected_version),
                    ),
                )
                .map_err(|e| session.failure(e))?;
            ui.note(&format!(
                "dataset {} is at version {}",
                updated.id, updated.version
            ));
            print(updated, Shape::One, &style, global)
        }
        DatasetCommand::Delete { dataset_id } => {
            let session = Session::open(ctx)?;
            session
                .runtime
                .block_on(ui.spin(
                    "deleting the dataset",
                    session.client.delete_dataset(&dataset_id),
                ))
                .map_err(|e| session.failure(e))?;
            ui.note(&format!(
                "deleted dataset {dataset_id} (metadata only: its data files stay)"
            ));
            Ok(())
        }
        DatasetCommand::Load {
            dataset_id,
            file,
            table,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let total = std::fs::metadata(&file)
                .map_err(|e| Failure::usage(format!("cannot read {}: {e}", file.display())))?
                .len();
            let session = Session::open(ctx)?;
            let show = !global.quiet && std::io::stderr().is_terminal();
            let shown = std::sync::atomic::AtomicU64::new(u64::MAX);
            let progress = move |sent: u64| {
                let percent = sent.saturating_mul(100) / total.max(1);
                if show && shown.swap(percent, std::sync::atomic::Ordering::Relaxed) != percent {
                    eprint!(
                        "\rloading: {:.1} of {:.1} MB ({percent}%)\x1b[K",
                        sent as f64 / 1e6,
                        total as f64 / 1e6
                    );
                }
            };
            let loaded = session
                .runtime
                .block_on(session.client.load_dataset(
                    &dataset_id,
                    table.as_deref(),
                    &file,
                    progress,
                ))
                .map_err(|e| session.failure(e));
            if show {
                eprint!("\r\x1b[K");
            }
            print(loaded?, Shape::One, &style, global)
        }
        DatasetCommand::Files {
            dataset_id,
            limit,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let limit = limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            let files = session
                .runtime
                .block_on(ui.spin(
                    "listing the dataset's files",
                    session.client.dataset_files_up_to(&dataset_id, limit),
                ))
                .map_err(|e| session.failure(e))?;
            print(files, Shape::List(FILE_SUMMARY), &style, global)
        }
    }
}

/// The `integration:*` commands.
pub fn integrations(command: IntegrationCommand, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let ui = Ui::new(global, false);
    match command {
        IntegrationCommand::List { output } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let mut list = session
                .runtime
                .block_on(ui.spin("listing integrations", session.client.list_integrations()))
                .map_err(|e| session.failure(e))?;
            for one in &mut list {
                if let Some(ingest) = &mut one.ingest {
                    *ingest = ingest_address(ingest, &session.settings.api_base_url);
                }
            }
            print(list, Shape::List(INTEGRATION_SUMMARY), &style, global)
        }
        IntegrationCommand::Get {
            integration_id,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let mut one = session
                .runtime
                .block_on(ui.spin(
                    "fetching the integration",
                    session.client.get_integration(&integration_id),
                ))
                .map_err(|e| session.failure(e))?;
            if let Some(ingest) = &mut one.ingest {
                *ingest = ingest_address(ingest, &session.settings.api_base_url);
            }
            print(one, Shape::One, &style, global)
        }
    }
}

#[cfg(test)]
mod ingest_tests {
    use super::ingest_address;

    #[test]
    fn the_ingest_address_is_the_services_origin_with_the_path() {
        assert_eq!(
            ingest_address("POST /api/v2/logs", "https://logs.example.com/api"),
            "POST https://logs.example.com/api/v2/logs"
        );
        assert_eq!(
            ingest_address("POST /v1/logs", "http://127.0.0.1:8080"),
            "POST http://127.0.0.1:8080/v1/logs"
        );
    }
}

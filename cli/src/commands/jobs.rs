//! `job:create`, `job:list` (`jobs`), `job:get`, `job:update`, `job:delete`.

use std::path::Path;

use jobgraph_sdk::api::{CreateJob, Execution, Processing, UpdateJob};
use jobgraph_sdk::client::{JobFilter, JobVersion};
use serde_json::{Map, Value};

use crate::args::{ExecutionArg, Global, JobCommand, ProcessingArg};
use crate::context::Context;
use crate::failure::Failure;
use crate::input::read_json;
use crate::output::{self, Format, OutputArgs, Shape, emit, render};
use crate::session::Session;
use crate::term::Ui;

/// The columns a job table shows unless `-c` says otherwise.
pub const JOB_SUMMARY: &[&str] = &["id", "name", "state", "version", "updatedAt"];

/// The `job:*` commands.
pub fn run(command: JobCommand, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    match command {
        JobCommand::Create { job_file, output } => create(&job_file, &output, ctx),
        JobCommand::List {
            state,
            since,
            name,
            all_versions,
            processing,
            execution,
            id,
            resolved,
            limit,
            output,
        } => {
            let limit = limit.map(|n| usize::try_from(n).unwrap_or(usize::MAX));
            let filter = JobFilter {
                states: state.into_iter().filter(|s| !s.is_empty()).collect(),
                since,
                name,
                ids: id,
                processing: processing
                    .into_iter()
                    .map(|p| match p {
                        ProcessingArg::Batch => Processing::Batch,
                        ProcessingArg::Streaming => Processing::Streaming,
                    })
                    .collect(),
                execution: execution
                    .into_iter()
                    .map(|e| match e {
                        ExecutionArg::Synchronous => Execution::Synchronous,
                        ExecutionArg::Asynchronous => Execution::Asynchronous,
                    })
                    .collect(),
                all_versions,
                resolved,
            };
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let ui = Ui::new(global, false);
            let jobs = session
                .runtime
                .block_on(ui.spin(
                    "listing jobs",
                    session.client.list_jobs_up_to(&filter, limit),
                ))
                .map_err(|e| session.failure(e))?;
            let value = serde_json::to_value(jobs).unwrap_or_default();
            emit(&render(value, Shape::List(JOB_SUMMARY), &style), global)
        }
        JobCommand::Get {
            job_id,
            version,
            resolved,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let session = Session::open(ctx)?;
            let ui = Ui::new(global, false);
            let job = session
                .runtime
                .block_on(
                    ui.spin(
                        "fetching the job",
                        session
                            .client
                            .get_job(&job_id, JobVersion { version, resolved }),
                    ),
                )
                .map_err(|e| session.failure(e))?;
            let value = serde_json::to_value(job).unwrap_or_default();
            emit(&render(value, Shape::One, &style), global)
        }
        JobCommand::Update {
            job_id,
            job_file,
            rollback_enabled,
            from_version,
            output,
        } => {
            let style = output::style(&output, Format::Table, global)?;
            let mut update = update_from(&read_json(&job_file)?, &job_file)?;
            update.from_version = from_version;
            let session = Session::open(ctx)?;
            let ui = Ui::new(global, false);
            let job = session
                .runtime
                .block_on(
                    ui.spin(
                        "updating the job",
                        session
                            .client
                            .update_job(&job_id, &update, rollback_enabled),
                    ),
                )
                .map_err(|e| session.failure(e))?;
            ui.note(&format!("job {} is at version {}", job.id, job.version));
            let value = serde_json::to_value(job).unwrap_or_default();
            emit(&render(value, Shape::One, &style), global)
        }
        JobCommand::Tap {
            job_id,
            vertex,
            limit,
            wait,
        } => {
            let session = Session::open(ctx)?;
            let ui = Ui::new(global, false);
            use std::io::Write as _;
            let mut out = std::io::stdout().lock();
            let events = session
                .runtime
                .block_on(session.client.tap_job(
                    &job_id,
                    vertex.as_deref(),
                    Some(limit),
                    Some(wait.saturating_mul(1000)),
                    |line| {
                        let _ = writeln!(out, "{line}");
                        let _ = out.flush();
                    },
                ))
                .map_err(|e| session.failure(e))?;
            ui.note(&format!("{events} event(s) from job {job_id}"));
            Ok(())
        }
        JobCommand::Delete { job_id } => {
            let session = Session::open(ctx)?;
            let ui = Ui::new(global, false);
            session
                .runtime
                .block_on(ui.spin("deleting the job", session.client.delete_job(&job_id)))
                .map_err(|e| session.failure(e))?;
            ui.note(&format!("deleted job {job_id}"));
            Ok(())
        }
    }
}

/// A required string field of a job file.
fn required<'a>(
    job: &'a Map<String, Value>,
    field: &str,
    file: &Path,
    hint: &str,
) -> Result<&'a Value, Failure> {
    match job.get(field) {
        Some(Value::Null) | None => Err(Failure::usage(format!(
            "{}: `{field}` is required ({hint})",
            file.display()
        ))),
        Some(value) => Ok(value),
    }
}

/// A job file as `CreateJob`: `name`, `execution`, `processing`, `jobGraph` required.
pub fn create_from(value: &Value, file: &Path) -> Result<CreateJob, Failure> {
    let Value::Object(job) = value else {
        return Err(Failure::usage(format!(
            "{}: a job file is a JSON object",
            file.display()
        )));
    };
    let bad = |field: &str, hint: &str| {
        Failure::usage(format!("{}: `{field}` must be {hint}", file.display()))
    };
    let name = required(job, "name", file, "a non-empty string")?
        .as_str()
        .filter(|n| !n.is_empty())
        .ok_or_else(|| bad("name", "a non-empty string"))?;
    let execution = match required(job, "execution", file, "SYNCHRONOUS or ASYNCHRONOUS")?.as_str()
    {
        Some("SYNCHRONOUS") => Execution::Synchronous,
        Some("ASYNCHRONOUS") => Execution::Asynchronous,
        _ => return Err(bad("execution", "SYNCHRONOUS or ASYNCHRONOUS")),
    };
    let processing = match required(job, "processing", file, "BATCH or STREAMING")?.as_str() {
        Some("BATCH") => Processing::Batch,
        Some("STREAMING") => Processing::Streaming,
        _ => return Err(bad("processing", "BATCH or STREAMING")),
    };
    let graph = required(job, "jobGraph", file, "an object {vertices, edges}")?;
    if !graph.is_object() {
        return Err(bad("jobGraph", "an object {vertices, edges}"));
    }
    let tags = match job.get("tags") {
        None | Some(Value::Null) => None,
        Some(Value::Object(tags)) => Some(tags.clone()),
        Some(_) => return Err(bad("tags", "an object of strings")),
    };
    let desired_state = match job.get("desiredState") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(_) => return Err(bad("desiredState", "a string")),
    };
    let team_ids = team_ids(job, file)?;
    Ok(CreateJob {
        name: name.to_owned(),
        execution,
        processing,
        job_graph: graph.clone(),
        tags,
        desired_state,
        team_ids,
    })
}

/// A job file or a bare graph as `UpdateJob`.
pub fn update_from(value: &Value, file: &Path) -> Result<UpdateJob, Failure> {
    let Value::Object(job) = value else {
        return Err(Failure::usage(format!(
            "{}: a job file is a JSON object",
            file.display()
        )));
    };
    if job.contains_key("vertices") {
        return Ok(UpdateJob {
            job_graph: Some(value.clone()),
            ..UpdateJob::default()
        });
    }
    let graph = job.get("jobGraph").filter(|g| !g.is_null()).cloned();
    if graph.is_none() {
        return Err(Failure::usage(format!(
            "{}: neither `jobGraph` nor `vertices`: nothing to update",
            file.display()
        )));
    }
    let text = |field: &str| job.get(field).and_then(Value::as_str).map(str::to_owned);
    Ok(UpdateJob {
        from_version: None,
        job_graph: graph,
        desired_state: text("desiredState"),
        name: text("name"),
        tags: job.get("tags").and_then(Value::as_object).cloned(),
        team_ids: team_ids(job, file)?,
    })
}

/// A job file's `teamIds`: absent, or an array of strings.
fn team_ids(
    job: &serde_json::Map<String, Value>,
    file: &Path,
) -> Result<Option<Vec<String>>, Failure> {
    match job.get("teamIds") {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| v.as_str().map(str::to_owned))
            .collect::<Option<Vec<String>>>()
            .map(Some)
            .ok_or_else(|| {
                Failure::usage(format!(
                    "{}: `teamIds` must be an array of team ids (strings)",
                    file.display()
                ))
            }),
        Some(_) => Err(Failure::usage(format!(
            "{}: `teamIds` must be an array of team ids (strings)",
            file.display()
        ))),
    }
}

/// `job:create`: markers on stderr, then the job (asynchronous) or its results (synchronous).
fn create(file: &Path, output: &OutputArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let job = create_from(&read_json(file)?, file)?;
    let session = Session::open(ctx)?;
    let ui = Ui::new(global, !output.no_job_state);
    let client = &session.client;
    ui.marker("CONNECTING");
    session
        .runtime
        .block_on(ui.spin("connecting", client.token()))
        .map_err(|e| session.failure(e))?;
    ui.marker("CONNECTED");
    match job.execution {
        Execution::Asynchronous => {
            let style = output::style(output, Format::Table, global)?;
            let created = session
                .runtime
                .block_on(ui.spin("creating the job", client.create_job(&job)))
                .map_err(|e| session.failure(e))?;
            ui.marker(&created.state);
            let value = serde_json::to_value(created).unwrap_or_default();
            emit(&render(value, Shape::One, &style), global)
        }
        Execution::Synchronous => run_sync(&session, &ui, &job, output, global),
    }
}

/// Runs a synchronous job and prints what reaches its sinks: each state change as a marker on
/// stderr, the events as they come with `-f raw` on stdout (unless `-s` asks for an order),
/// else all of them at the end in the chosen format (sorted by `eventTimestamp` by default).
/// A final state other than `FINISHED` is a failure naming it.
pub(crate) fn run_sync(
    session: &Session,
    ui: &Ui,
    job: &CreateJob,
    output: &OutputArgs,
    global: &Global,
) -> Result<(), Failure> {
    let mut style = output::style(output, Format::Table, global)?;
    let stream = style.format == Format::Raw && output.sort.is_none() && global.output.is_none();
    if output.sort.is_none() {
        style.sort = vec![("eventTimestamp".into(), true)];
    }
    let mut data = Vec::new();
    let mut last = String::new();
    let mut broken: Option<Failure> = None;
    let end = session
        .runtime
        .block_on(session.client.create_job_sync_chunks(job, |records| {
            // The events of the records that arrived together are written out at once (before
            // a state marker, to keep their order on a terminal).
            let mut text = String::new();
            let mut flush = |text: &mut String| {
                if !text.is_empty()
                    && broken.is_none()
                    && let Err(e) = emit(text, global)
                {
                    broken = Some(e);
                }
                text.clear();
            };
            for record in records {
                if record.job_state != "HEARTBEAT" && record.job_state != last {
                    flush(&mut text);
                    ui.marker(&record.job_state);
                    last.clone_from(&record.job_state);
                }
                for item in record.events() {
                    if !stream {
                        data.push(item);
                    } else {
                        text.push_str(&render(item, Shape::One, &style));
                    }
                }
            }
            flush(&mut text);
        }))
        .map_err(|e| session.failure(e))?;
    if let Some(failure) = broken {
        return Err(failure);
    }
    if !stream {
        emit(
            &render(Value::Array(data), Shape::List(&[]), &style),
            global,
        )?;
    }
    if end.is_success() {
        Ok(())
    } else if end.job_state == "SCANNED_MAX" {
        Err(Failure::failed(
            "Hit data scan limit: the query read as many bytes as the service allows (narrow --start/--end or the query's tags)".to_owned(),
        ))
    } else {
        Err(Failure::failed(match end.reason() {
            Some(message) => format!("the job ended {}: {message}", end.job_state),
            None => format!("the job ended {}", end.job_state),
        }))
    }
}

//! `query`: a synchronous job that reads a dataset, built as the public client builds it
//! (`logs-iceberg-table-source` with `datasetId`, `start`, `end`, `query`, `limit`,
//! `sortOrder: UNSORTED` → `logs-sync-sink`), its events streamed as they come.

use jiff::{SignedDuration, Timestamp};
use jobgraph_sdk::api::{CreateJob, Execution, Processing};
use serde_json::{Value, json};

use super::jobs::run_sync;
use crate::args::QueryArgs;
use crate::context::Context;
use crate::failure::Failure;
use crate::session::Session;
use crate::term::Ui;

/// How far back a query reads when --start is not given.
const DEFAULT_WINDOW: SignedDuration = SignedDuration::from_mins(10);

/// Reads `--start`/`--end` as an ISO 8601 time, naming the flag when it is not one.
fn time(flag: &str, text: &str) -> Result<Timestamp, Failure> {
    text.parse::<Timestamp>().map_err(|e| {
        Failure::usage(format!(
            "{flag} {text:?} is not an ISO 8601 time with a zone (2026-11-25T10:00:00Z): {e}"
        ))
    })
}

/// The job `query` sends.
pub fn query_job(args: &QueryArgs, now: Timestamp) -> Result<CreateJob, Failure> {
    let end = match &args.end {
        Some(text) => time("--end", text)?,
        None => now,
    };
    let start = match &args.start {
        Some(text) => time("--start", text)?,
        None => end
            .checked_sub(DEFAULT_WINDOW)
            .map_err(|e| Failure::usage(format!("--end {end}: {e}")))?,
    };
    if start >= end {
        return Err(Failure::usage(format!(
            "--start {start} is not before --end {end}: the range would be empty"
        )));
    }
    let mut source = json!({
        "type": "logs-iceberg-table-source",
        "name": "source",
        "start": start.to_string(),
        "end": end.to_string(),
        "limit": args.limit,
        "sortOrder": args.order.sort_order(),
    });
    match (&args.dataset_id, &args.dataset_name) {
        (Some(id), _) => source["datasetId"] = Value::String(id.clone()),
        (None, Some(name)) => source["datasetName"] = Value::String(name.clone()),
        (None, None) => {
            return Err(Failure::usage(
                "give --dataset-id or --dataset-name: the dataset to read",
            ));
        }
    }
    if let Some(query) = &args.query {
        jobgraph_core::pipeline::Query::parse(query)
            .map_err(|e| Failure::usage(format!("--query: {e}\n  {query}\n  {}", e.caret())))?;
        source["query"] = json!({"type": "simple-query", "query": query});
    }
    Ok(CreateJob {
        name: "query".into(),
        execution: Execution::Synchronous,
        processing: Processing::Batch,
        job_graph: json!({
            "vertices": [source, {"type": "logs-sync-sink", "name": "sink"}],
            "edges": ["source -> sink"],
        }),
        tags: None,
        desired_state: None,
        team_ids: None,
    })
}

/// `query`: markers on stderr, events on stdout.
pub fn run(args: QueryArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let job = query_job(&args, Timestamp::now())?;
    let session = Session::open(ctx)?;
    let ui = Ui::new(global, !args.output.no_job_state);
    ui.marker("CONNECTING");
    session
        .runtime
        .block_on(ui.spin("connecting", session.client.token()))
        .map_err(|e| session.failure(e))?;
    ui.marker("CONNECTED");
    run_sync(&session, &ui, &job, &args.output, global)
}

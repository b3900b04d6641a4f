//! `job:run`, `job:draft` and `query:check`: jobs run here on events (docs/pipeline.md).

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::time::Instant;

use indexmap::IndexMap;
use jobgraph_core::pipeline::{
    LogEvent, Pipeline, Query, RunInput, RunOptions, StreamError, StreamOptions, VertexRun,
    read_events, run_ndjson, write_ndjson,
};
use jobgraph_core::{JobGraph, Provenance};
use jobgraph_sdk::DirectorySource;
use jobgraph_sdk::client::RemoteSource;
use serde_json::{Value, json};

use crate::args::{Common, Format, Global, JobDraftArgs, JobRunArgs, QueryCheckArgs, RunLimits};
use crate::context::Context;
use crate::failure::Failure;
use crate::input::{io_reason, read_json};
use crate::output::{Shape, emit, emit_bytes, emit_pieces, render, style};
use crate::session::Session;
use crate::term::Ui;

/// Reads FILE (`-`: stdin) as text.
fn read_text(path: &Path) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::usage(format!("cannot read stdin: {}", io_reason(&e))))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path).map_err(|e| {
            Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
        })
    }
}

/// Reads events from FILE (`-`: stdin).
fn events_from(path: &Path) -> Result<Vec<LogEvent>, Failure> {
    let text = read_text(path)?;
    read_events(&text).map_err(|e| Failure::usage(format!("{}: {e}", path.display())))
}

/// Where a job's templates come from.
enum Templates<'a> {
    /// `--templates DIR`.
    Folder(&'a Path),
    /// `--remote`: the service's.
    Remote(&'a Context),
    /// Neither: a job with template operations is an error.
    None,
}

impl<'a> Templates<'a> {
    fn of(folder: Option<&'a Path>, remote: bool, ctx: &'a Context) -> Self {
        match (folder, remote) {
            (Some(folder), _) => Templates::Folder(folder),
            (None, true) => Templates::Remote(ctx),
            (None, false) => Templates::None,
        }
    }
}

/// The job's graph, resolved with `templates` when it has template operations.
fn resolved_graph(
    job: Value,
    templates: Templates,
    common: &Common,
    draft: bool,
    global: &Global,
) -> Result<(JobGraph, IndexMap<String, Provenance>), Failure> {
    let graph_of = |document: Value| -> Result<JobGraph, Failure> {
        let graph = match document {
            Value::Object(mut map) if map.contains_key("jobGraph") => {
                map.remove("jobGraph").unwrap_or_default()
            }
            other => other,
        };
        JobGraph::from_value(graph).map_err(|e| Failure::usage(format!("Invalid job graph: {e}")))
    };
    let graph = graph_of(job.clone())?;
    if !graph.vertices.iter().any(|v| v.is_template_operation()) {
        return Ok((graph, IndexMap::new()));
    }
    let resolved = match templates {
        Templates::Folder(folder) => {
            let source =
                DirectorySource::open(folder).map_err(|e| Failure::usage(e.to_string()))?;
            let resolver = common.resolver(source, draft, common.user(None))?;
            resolver
                .resolve_document_blocking(&job)
                .map_err(|e| Failure::failed(e.to_string()))?
        }
        Templates::Remote(ctx) => {
            let session = Session::open(ctx)?;
            // A token first: a wrong secret or an unreachable service is reported as such.
            session
                .runtime
                .block_on(session.client.token())
                .map_err(|e| session.failure(e))?;
            let source = RemoteSource::new(session.client.clone());
            let user = common.user(Some(session.client.client_id()));
            let resolver = common.resolver(&source, draft, user)?;
            let ui = Ui::new(global, false);
            session
                .runtime
                .block_on(ui.spin("resolving", resolver.resolve_document(&job)))
                .map_err(|e| Failure::failed(e.to_string()))?
        }
        Templates::None => {
            return Err(Failure::usage(
                "the job has template operations: give --templates DIR to resolve them with local templates, or --remote to use the service's (or run a resolved job: jobgraph resolve … -o resolved.json)",
            ));
        }
    };
    Ok((graph_of(resolved.document)?, resolved.provenance))
}

fn compile(graph: &JobGraph) -> Result<Pipeline, Failure> {
    Pipeline::compile(graph).map_err(|e| Failure::failed(e.to_string()))
}

fn options(limits: &RunLimits, keep: usize) -> RunOptions {
    RunOptions {
        keep,
        timeout_ms: limits.run_timeout_ms,
        ..RunOptions::local()
    }
    .with_max_events(limits.max_events)
}

/// Names every vertex the run did not simulate, on stderr.
fn report_not_simulated(vertices: &[VertexRun], ui: &Ui) {
    for vertex in vertices.iter().filter(|v| !v.simulated) {
        ui.note(&format!(
            "note: vertex {} ({}) is not simulated: its {} events passed through unchanged",
            vertex.name, vertex.vertex_type, vertex.events_in
        ));
    }
}

/// The events that left a stage by any of its ports (a branch's `else` too).
fn events_out(v: &VertexRun) -> usize {
    if v.events_by_port.is_empty() {
        v.events_out
    } else {
        v.events_by_port.values().sum()
    }
}

/// The share of a stage's events that did not leave it by any port (`94.3%`; negative when
/// it sent more than it took, as a reducer's summaries can); empty when nothing came in.
fn reduction(v: &VertexRun) -> String {
    if v.events_in == 0 {
        return String::new();
    }
    let share = 100.0 * (v.events_in as f64 - events_out(v) as f64) / v.events_in as f64;
    format!("{share:.1}%")
}

/// Names, on stderr, every stage that changed the number of events or found patterns: in →
/// out, the reduction, the patterns.
fn report_reduction(vertices: &[VertexRun], ui: &Ui) {
    for v in vertices {
        let sink = v.vertex_type.ends_with("-sink");
        if sink || v.events_in == 0 || (v.events_in == events_out(v) && v.patterns.is_empty()) {
            continue;
        }
        let patterns = if v.patterns.is_empty() {
            String::new()
        } else {
            format!(", {} patterns", v.patterns.len())
        };
        ui.note(&format!(
            "stage {} ({}): {} → {} events ({} reduction{patterns})",
            v.name,
            v.vertex_type,
            v.events_in,
            events_out(v),
            reduction(v)
        ));
    }
}

/// `job:run`: the events that reach the sink, as NDJSON.
pub fn run(args: JobRunArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let ui = Ui::new(global, false);
    let job = read_json(&args.job_file)?;
    let templates = Templates::of(args.templates.as_deref(), args.remote, ctx);
    let (graph, _) = resolved_graph(job, templates, &args.common, false, global)?;
    let pipeline = compile(&graph)?;
    let sinks = pipeline.sinks();
    let sink = match (&args.sink, sinks.as_slice()) {
        (Some(name), _) if sinks.contains(&name.as_str()) => name.clone(),
        (Some(name), _) => {
            return Err(Failure::usage(format!(
                "--sink {name}: no such sink; the job's sinks: {}",
                if sinks.is_empty() {
                    "none".to_owned()
                } else {
                    sinks.join(", ")
                }
            )));
        }
        (None, [one]) => (*one).to_owned(),
        (None, []) => {
            return Err(Failure::usage(
                "the job has no sink (a vertex whose type ends in -sink): nothing to print",
            ));
        }
        (None, several) => {
            return Err(Failure::usage(format!(
                "the job has {} sinks: choose one with --sink ({})",
                several.len(),
                several.join(", ")
            )));
        }
    };
    if pipeline.streamable() {
        return run_streamed(&pipeline, &args, &sink, global, &ui);
    }
    let text = read_text(&args.events)?;
    run_whole(&pipeline, &text, &args, &sink, global, &ui)
}

/// `job:run` of a graph that gives the same result in pieces ([`Pipeline::streamable`]): the
/// events are read, run and written chunk by chunk on every core; the output is written once
/// the whole input has run (a bad line at the end leaves no partial output).
fn run_streamed(
    pipeline: &Pipeline,
    args: &JobRunArgs,
    sink: &str,
    global: &Global,
    ui: &Ui,
) -> Result<(), Failure> {
    let path = &args.events;
    let reader: Box<dyn Read + Send> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| {
            Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
        })?)
    };
    let mut reader = BufReader::with_capacity(1 << 16, reader);
    let head = reader.fill_buf().map_err(|e| {
        Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
    })?;
    let head = head.strip_prefix("\u{feff}".as_bytes()).unwrap_or(head);
    if head.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
        // A JSON array is one document: read whole.
        let mut text = String::new();
        reader.read_to_string(&mut text).map_err(|e| {
            Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
        })?;
        return run_whole(pipeline, &text, args, sink, global, ui);
    }
    let started = Instant::now();
    let mut last = Instant::now();
    let stream_options = StreamOptions {
        run: options(&args.limits, 0),
        ..StreamOptions::default()
    };
    let run = run_ndjson(pipeline, reader, sink, &stream_options, |read| {
        if last.elapsed().as_millis() >= 200 {
            last = Instant::now();
            ui.progress(Some(&format!(
                "job:run: {read} events read, {:.0} events/s",
                read as f64 / started.elapsed().as_secs_f64().max(1e-9)
            )));
        }
    });
    ui.progress(None);
    let run = run.map_err(|e| match e {
        StreamError::Events(e) => Failure::usage(format!("{}: {e}", path.display())),
        StreamError::Read(e) => {
            Failure::usage(format!("cannot read {}: {}", path.display(), io_reason(&e)))
        }
        StreamError::Run(e) => Failure::failed(e.to_string()),
    })?;
    report_not_simulated(&run.vertices, ui);
    report_reduction(&run.vertices, ui);
    emit_pieces(&run.output, global)?;
    let total = started.elapsed();
    ui.note(&format!(
        "job:run: {} events read, {} reached {sink}; {:.0} ms in all, {:.0} events/s",
        run.events_read,
        run.events_out,
        total.as_secs_f64() * 1000.0,
        run.events_read as f64 / total.as_secs_f64().max(1e-9)
    ));
    Ok(())
}

/// `job:run` on events already in memory (a JSON array).
fn run_whole(
    pipeline: &Pipeline,
    text: &str,
    args: &JobRunArgs,
    sink: &str,
    global: &Global,
    ui: &Ui,
) -> Result<(), Failure> {
    let started = Instant::now();
    let events =
        read_events(text).map_err(|e| Failure::usage(format!("{}: {e}", args.events.display())))?;
    let read = events.len();
    let mut run = pipeline
        .run(
            RunInput {
                events,
                ..Default::default()
            },
            &options(&args.limits, 0),
        )
        .map_err(|e| Failure::failed(e.to_string()))?;
    report_not_simulated(&run.vertices, ui);
    report_reduction(&run.vertices, ui);
    let out = run.sinks.shift_remove(sink).unwrap_or_default();
    let mut bytes = Vec::with_capacity(out.len() * 256);
    write_ndjson(&out, &mut bytes)
        .map_err(|e| Failure::failed(format!("cannot write an event: {e}")))?;
    emit_bytes(&bytes, global)?;
    let total = started.elapsed();
    ui.note(&format!(
        "job:run: {read} events read, {} reached {sink}; {:.0} ms in all, {:.0} events/s",
        out.len(),
        total.as_secs_f64() * 1000.0,
        read as f64 / total.as_secs_f64().max(1e-9)
    ));
    Ok(())
}

/// `job:draft`: every stage's events, grouped by template operation.
pub fn draft(args: JobDraftArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let ui = Ui::new(global, false);
    let job = read_json(&args.job_file)?;
    let templates = Templates::of(args.templates.as_deref(), args.remote, ctx);
    let (graph, provenance) = resolved_graph(job, templates, &args.common, true, global)?;
    let pipeline = compile(&graph)?;
    let events = events_from(&args.sample_logs)?;
    let run = pipeline
        .run(
            RunInput {
                events,
                ..Default::default()
            },
            &options(&args.limits, args.keep),
        )
        .map_err(|e| Failure::failed(e.to_string()))?;
    report_not_simulated(&run.vertices, &ui);
    let style = style(&args.output, Format::Table, global)?;
    let stages: Vec<Value> = run
        .vertices
        .iter()
        .map(|v| {
            let operation = provenance
                .get(&v.name)
                .map(|p| p.operation_path.join(" > "))
                .unwrap_or_default();
            let mut stage = json!({
                "operation": operation,
                "vertex": v.name,
                "type": v.vertex_type,
                "in": v.events_in,
                "out": v.events_out,
                "dropped": v.events_dropped,
                "reduction": reduction(v),
                "patterns": v.patterns.len(),
                "simulated": v.simulated,
                "notes": v.notes.join("; "),
            });
            if matches!(style.format, Format::Pretty | Format::Raw | Format::Compact)
                && let Value::Object(map) = &mut stage
            {
                map.insert(
                    "events".into(),
                    serde_json::to_value(&v.output).unwrap_or_default(),
                );
                if !v.dropped.is_empty() {
                    map.insert(
                        "droppedEvents".into(),
                        serde_json::to_value(&v.dropped).unwrap_or_default(),
                    );
                }
                if !v.patterns.is_empty() {
                    map.insert(
                        "patterns".into(),
                        serde_json::to_value(&v.patterns).unwrap_or_default(),
                    );
                }
            }
            stage
        })
        .collect();
    const SUMMARY: &[&str] = &[
        "operation",
        "vertex",
        "type",
        "in",
        "out",
        "dropped",
        "reduction",
        "patterns",
        "notes",
    ];
    emit(
        &render(Value::Array(stages), Shape::List(SUMMARY), &style),
        global,
    )
}

/// `query:check`: the parsed query, or the error with a caret.
pub fn check(args: QueryCheckArgs, global: &Global) -> Result<(), Failure> {
    match Query::parse(&args.query) {
        Ok(query) => {
            let text = serde_json::to_string_pretty(&query.tree()).unwrap_or_default();
            emit(&format!("{text}\n"), global)
        }
        Err(e) => {
            // The caret needs its own lines: printed here, the one-line failure stays empty.
            eprintln!("{e}\n{}", e.caret());
            Err(Failure::failed(""))
        }
    }
}

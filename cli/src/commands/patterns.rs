//! `patterns`: mines the patterns of a log file with a reducer's settings
//! (`jobgraph_core::pipeline::PatternMiner`), streaming the file line by line.

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::Path;

use jobgraph_core::pipeline::{PatternMiner, PatternReport};
use serde_json::{Map, Value};
use std::time::Instant;

use crate::args::{Format, Global, LineFormat, PatternsArgs};
use crate::failure::Failure;
use crate::input::io_reason;
use crate::output::{Shape, emit, render, style};
use crate::term::Ui;

/// Columns of `-f table|csv`.
const SUMMARY: &[&str] = &["count", "share", "pattern", "sample"];

/// `patterns`.
pub fn run(args: PatternsArgs, global: &Global) -> Result<(), Failure> {
    let settings = settings(args.config.as_deref())?;
    let mut miner = PatternMiner::new(&settings).map_err(|e| {
        Failure::usage(format!(
            "--config: {}",
            e.to_string()
                .replace("Invalid job graph: vertex patterns: ", "")
        ))
    })?;
    let (reader, size) = open(&args.file)?;
    let mut ids = match &args.ids_out {
        Some(path) => Some(BufWriter::new(File::create(path).map_err(|e| {
            Failure::usage(format!(
                "--ids-out: cannot write {}: {}",
                path.display(),
                io_reason(&e)
            ))
        })?)),
        None => None,
    };
    let ui = Ui::new(global, false);
    let started = Instant::now();
    let mut reader = BufReader::with_capacity(1 << 20, reader);
    let mut line = Vec::new();
    let (mut lines, mut read, mut without) = (0u64, 0u64, 0u64);
    loop {
        line.clear();
        let n = reader.read_until(b'\n', &mut line).map_err(|e| {
            Failure::failed(format!(
                "{}: read failed after line {lines}: {}",
                args.file.display(),
                io_reason(&e)
            ))
        })?;
        if n == 0 {
            break;
        }
        read += n as u64;
        lines += 1;
        let text = String::from_utf8_lossy(trim_newline(&line));
        let message = message_of(&text, args.lines).map_err(|problem| {
            Failure::usage(format!("{}:{lines}: {problem}", args.file.display()))
        })?;
        let id = miner
            .add(&message)
            .map_err(|e| Failure::failed(format!("{}:{lines}: {e}", args.file.display())))?;
        if id.is_none() {
            without += 1;
        }
        if let Some(out) = ids.as_mut() {
            let written = writeln!(out, "{}", id.unwrap_or("-"));
            written.map_err(|e| Failure::failed(format!("--ids-out: {}", io_reason(&e))))?;
        }
        if lines.is_multiple_of(1 << 16) {
            let rate = lines as f64 / started.elapsed().as_secs_f64().max(1e-9);
            let share = size
                .filter(|s| *s > 0)
                .map(|s| format!(" ({:.0}%)", 100.0 * read as f64 / s as f64))
                .unwrap_or_default();
            ui.progress(Some(&format!(
                "{lines} lines{share}, {} patterns, {rate:.0} lines/s",
                miner.pattern_count()
            )));
        }
    }
    ui.progress(None);
    if let Some(mut out) = ids {
        out.flush()
            .map_err(|e| Failure::failed(format!("--ids-out: {}", io_reason(&e))))?;
    }
    let report = miner.report();
    let seconds = started.elapsed().as_secs_f64();
    ui.note(&format!(
        "{lines} lines, {} patterns, {without} lines without a pattern, {:.2} s ({:.0} lines/s)",
        miner.pattern_count(),
        seconds,
        lines as f64 / seconds.max(1e-9)
    ));
    print(&report, lines, &args, global)
}

/// The settings of `--config`: inline JSON or @FILE; an object.
fn settings(config: Option<&str>) -> Result<Map<String, Value>, Failure> {
    let Some(config) = config else {
        return Ok(Map::new());
    };
    let (text, place) = match config.strip_prefix('@') {
        Some(file) => (
            std::fs::read_to_string(file).map_err(|e| {
                Failure::usage(format!("--config: cannot read {file}: {}", io_reason(&e)))
            })?,
            file.to_owned(),
        ),
        None => (config.to_owned(), "--config".to_owned()),
    };
    match serde_json::from_str::<Value>(&text) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(other) => Err(Failure::usage(format!(
            "{place}: the settings must be a JSON object such as {{\"similarityThreshold\": 60}}, found {}",
            jobgraph_model::json::kind_of(&other)
        ))),
        Err(e) => Err(Failure::usage(format!(
            "{place}: not JSON: {e} (line {}, column {})",
            e.line(),
            e.column()
        ))),
    }
}

fn open(file: &Path) -> Result<(Box<dyn Read>, Option<u64>), Failure> {
    if file == Path::new("-") {
        return Ok((Box::new(std::io::stdin()), None));
    }
    let f = File::open(file).map_err(|e| {
        Failure::usage(format!("cannot read {}: {}", file.display(), io_reason(&e)))
    })?;
    let size = f.metadata().ok().map(|m| m.len());
    Ok((Box::new(f), size))
}

fn trim_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// The message of a line.
fn message_of(text: &str, format: LineFormat) -> Result<std::borrow::Cow<'_, str>, String> {
    let json = match format {
        LineFormat::Text => false,
        LineFormat::Ndjson => true,
        LineFormat::Auto => text.trim_start().starts_with('{'),
    };
    if !json {
        return Ok(std::borrow::Cow::Borrowed(text));
    }
    match serde_json::from_str::<Value>(text) {
        Ok(Value::Object(event)) => Ok(std::borrow::Cow::Owned(
            event
                .get("message")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned(),
        )),
        Ok(_) if format == LineFormat::Auto => Ok(std::borrow::Cow::Borrowed(text)),
        Err(_) if format == LineFormat::Auto => Ok(std::borrow::Cow::Borrowed(text)),
        Ok(other) => Err(format!(
            "not an event: a JSON object is needed, found {}",
            jobgraph_model::json::kind_of(&other)
        )),
        Err(e) => Err(format!("not JSON: {e} (use --lines text for plain lines)")),
    }
}

/// Prints the patterns: a table (default) of count, share, pattern and one sample; JSON with
/// every field.
fn print(
    report: &[PatternReport],
    lines: u64,
    args: &PatternsArgs,
    global: &Global,
) -> Result<(), Failure> {
    let mut output = args.output.clone();
    if output.columns.is_empty() {
        output.columns = SUMMARY.iter().map(|c| (*c).to_owned()).collect();
    }
    if output.sort.is_none() {
        output.sort = Some("count:desc".into());
    }
    let style = style(&output, Format::Table, global)?;
    let top = if args.top == 0 { usize::MAX } else { args.top };
    let rows: Vec<Value> = report
        .iter()
        .take(top)
        .map(|p| {
            let mut row = serde_json::to_value(p).unwrap_or(Value::Null);
            if let Value::Object(map) = &mut row {
                map.insert(
                    "share".into(),
                    Value::String(format!(
                        "{:.1}%",
                        100.0 * p.count as f64 / lines.max(1) as f64
                    )),
                );
                map.insert(
                    "sample".into(),
                    Value::String(p.samples.first().cloned().unwrap_or_default()),
                );
            }
            row
        })
        .collect();
    let text = match style.format {
        Format::Compact | Format::Raw => rows
            .iter()
            .map(|r| serde_json::to_string(r).unwrap_or_default() + "\n")
            .collect(),
        _ => render(Value::Array(rows), Shape::List(SUMMARY), &style),
    };
    emit(&text, global)
}

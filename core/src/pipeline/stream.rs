//! Runs a pipeline over NDJSON of any size in pieces, on every core, with the same result as
//! one run on all the events (`docs/pipeline.md`, "Streamed runs"): the input is read in chunks
//! cut at line ends, each chunk parsed, run and its sink's events written as NDJSON by a worker
//! thread, and the pieces put back in input order. Memory holds a few chunks and the output,
//! never every parsed event.
//!
//! Only for [`Pipeline::streamable`] graphs; the caller runs the others whole.

use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, mpsc};

use web_time::Instant;

use super::{EventsError, Pipeline, RunError, RunInput, RunOptions, VertexRun};
use jobgraph_model::read_lines;

/// How a streamed run reads and works.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StreamOptions {
    /// The run's limits; `keep` is ignored (a streamed run keeps no events per vertex).
    /// `timeout_ms` counts from the first byte read to the last event written.
    pub run: RunOptions,
    /// Bytes read at a time (cut back to the last line end); default 4 MiB.
    pub chunk_bytes: usize,
    /// Worker threads; default: the machine's cores, at most 8.
    pub threads: usize,
}

impl Default for StreamOptions {
    fn default() -> Self {
        StreamOptions {
            run: RunOptions::default(),
            chunk_bytes: 4 << 20,
            threads: std::thread::available_parallelism()
                .map_or(1, |n| n.get())
                .min(8),
        }
    }
}

/// The result of a streamed run.
#[derive(Debug, Clone, PartialEq)]
pub struct StreamRun {
    /// Events read.
    pub events_read: usize,
    /// Events that reached the sink.
    pub events_out: usize,
    /// Every vertex with its counts summed over the chunks (no kept events).
    pub vertices: Vec<VertexRun>,
    /// The sink's events as NDJSON, one line each, in input order, in pieces to write in turn.
    pub output: Vec<Vec<u8>>,
}

/// Why a streamed run failed.
#[derive(Debug, thiserror::Error)]
pub enum StreamError {
    /// The input could not be read.
    #[error("cannot read the events: {0}")]
    Read(#[from] std::io::Error),
    /// A line is not an event.
    #[error(transparent)]
    Events(#[from] EventsError),
    /// The run failed.
    #[error(transparent)]
    Run(#[from] RunError),
}

/// One chunk's result: its events read, its vertices, its sink's NDJSON.
struct Piece {
    events: usize,
    vertices: Vec<VertexRun>,
    ndjson: Vec<u8>,
    sunk: usize,
}

/// Runs `pipeline` on the NDJSON events of `input`, collecting what reaches `sink`.
/// `progress` is called on the calling thread with the events read so far, after each chunk
/// is handed out. The first problem (by position in the input) fails the run.
pub fn run_ndjson(
    pipeline: &Pipeline,
    mut input: impl Read,
    sink: &str,
    options: &StreamOptions,
    mut progress: impl FnMut(usize),
) -> Result<StreamRun, StreamError> {
    let started = Instant::now();
    let run_options = RunOptions {
        keep: 0,
        max_events: usize::MAX,
        ..options.run.clone()
    };
    let threads = options.threads.max(1);
    let events_read = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let (chunks_in, chunks_out) = mpsc::sync_channel::<(usize, usize, Vec<u8>)>(threads);
    let chunks_out = Mutex::new(chunks_out);
    let (results_in, results_out) = mpsc::channel::<(usize, Result<Piece, StreamError>)>();

    let work = |first_line: usize, bytes: &[u8]| -> Result<Piece, StreamError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|b| **b == b'\n')
                .count();
            EventsError {
                place: format!("line {}", first_line + line + 1),
                problem: "not UTF-8 text".into(),
            }
        })?;
        let events = read_lines(first_line, text)?;
        let count = events.len();
        let total = events_read.fetch_add(count, Ordering::Relaxed) + count;
        if total > options.run.max_events {
            return Err(RunError::Limit(format!(
                "more than {} input events (raise maxEvents)",
                options.run.max_events
            ))
            .into());
        }
        let mut run = pipeline.run_since(
            RunInput {
                events,
                ..Default::default()
            },
            &run_options,
            started,
        )?;
        let out = run.sinks.shift_remove(sink).unwrap_or_default();
        let mut ndjson = Vec::with_capacity(out.len() * 320);
        super::write_ndjson(&out, &mut ndjson)?;
        Ok(Piece {
            events: count,
            vertices: run.vertices,
            ndjson,
            sunk: out.len(),
        })
    };

    let read_result = std::thread::scope(|scope| -> Result<(), StreamError> {
        for _ in 0..threads {
            let results_in = results_in.clone();
            let (chunks_out, work, failed) = (&chunks_out, &work, &failed);
            scope.spawn(move || {
                loop {
                    let next = chunks_out.lock().ok().and_then(|rx| rx.recv().ok());
                    let Some((index, first_line, bytes)) = next else {
                        break;
                    };
                    let result = work(first_line, &bytes);
                    if result.is_err() {
                        failed.store(true, Ordering::Relaxed);
                    }
                    if results_in.send((index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(results_in);
        let outcome = read_chunks(
            &mut input,
            options.chunk_bytes,
            |index, first_line, bytes| {
                if failed.load(Ordering::Relaxed) {
                    return false;
                }
                if started.elapsed().as_millis() > u128::from(options.run.timeout_ms) {
                    failed.store(true, Ordering::Relaxed);
                    return false;
                }
                let sent = chunks_in.send((index, first_line, bytes)).is_ok();
                progress(events_read.load(Ordering::Relaxed));
                sent
            },
        );
        drop(chunks_in);
        outcome
    });
    read_result?;

    let mut pieces: Vec<(usize, Result<Piece, StreamError>)> = results_out.into_iter().collect();
    pieces.sort_by_key(|(index, _)| *index);
    let mut result = StreamRun {
        events_read: 0,
        events_out: 0,
        vertices: Vec::new(),
        output: Vec::with_capacity(pieces.len()),
    };
    for (_, piece) in pieces {
        let piece = piece?;
        result.events_read += piece.events;
        result.events_out += piece.sunk;
        if result.vertices.is_empty() {
            result.vertices = piece.vertices;
        } else {
            for (sum, vertex) in result.vertices.iter_mut().zip(piece.vertices) {
                sum.events_in += vertex.events_in;
                sum.events_out += vertex.events_out;
                sum.events_dropped += vertex.events_dropped;
                for (port, count) in vertex.events_by_port {
                    *sum.events_by_port.entry(port).or_default() += count;
                }
            }
        }
        result.output.push(piece.ndjson);
    }
    if started.elapsed().as_millis() > u128::from(options.run.timeout_ms) {
        return Err(RunError::Limit(format!(
            "time limit of {} ms exceeded (raise timeoutMs)",
            options.run.timeout_ms
        ))
        .into());
    }
    let handled: usize = result.vertices.iter().map(|v| v.events_in).sum();
    if handled > options.run.max_handled {
        return Err(RunError::Limit(format!(
            "more than {} events handled by all vertices together (raise maxHandled)",
            options.run.max_handled
        ))
        .into());
    }
    Ok(result)
}

/// Reads `input` in chunks of about `size` bytes cut after a line end, passing each with its
/// index and the number of lines before it; stops early when `take` answers false. A leading
/// byte-order mark is dropped.
fn read_chunks(
    input: &mut impl Read,
    size: usize,
    mut take: impl FnMut(usize, usize, Vec<u8>) -> bool,
) -> Result<(), StreamError> {
    let size = size.max(1 << 10);
    let mut carry: Vec<u8> = Vec::new();
    let (mut index, mut lines, mut first) = (0usize, 0usize, true);
    loop {
        let mut buffer = std::mem::take(&mut carry);
        let start = buffer.len();
        buffer.resize(start + size, 0);
        let mut filled = start;
        while filled < buffer.len() {
            match input.read(&mut buffer[filled..]) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        buffer.truncate(filled);
        let end_of_input = filled < start + size;
        if first {
            first = false;
            if buffer.starts_with("\u{feff}".as_bytes()) {
                buffer.drain(..3);
            }
        }
        if !end_of_input {
            // Cut after the last line end; the rest starts the next chunk. A chunk without
            // any line end (one very long line) keeps growing.
            match buffer.iter().rposition(|b| *b == b'\n') {
                Some(cut) => carry = buffer.split_off(cut + 1),
                None => {
                    carry = buffer;
                    continue;
                }
            }
        }
        if !buffer.is_empty() {
            let count = buffer.iter().filter(|b| **b == b'\n').count();
            if !take(index, lines, buffer) {
                return Ok(());
            }
            index += 1;
            lines += count;
        }
        if end_of_input {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::JobGraph;
    use crate::pipeline::read_events;

    fn pipeline() -> Pipeline {
        let graph: JobGraph = serde_json::from_value(serde_json::json!({
            "vertices": [
                {"type": "logs-iceberg-table-source", "name": "in", "table": "logs"},
                {"type": "logs-filter", "name": "f", "query": "level:error"},
                {"type": "log-transform", "name": "t", "transforms": [
                    {"type": "tag-action", "order": 1, "modification": "ADD", "tagKey": "k", "values": ["v"]}]},
                {"type": "logs-sync-sink", "name": "out"}],
            "edges": ["in -> f", "f -> t", "t -> out"]
        }))
        .unwrap();
        Pipeline::compile(&graph).unwrap()
    }

    fn text(n: usize) -> String {
        (0..n)
            .map(|i| {
                let level = if i % 3 == 0 { "error" } else { "info" };
                format!(
                    "{{\"id\":\"{i}\",\"message\":\"m {i}\",\"tags\":{{\"level\":[\"{level}\"]}}}}\n"
                )
            })
            .collect()
    }

    fn options(chunk_bytes: usize, threads: usize) -> StreamOptions {
        StreamOptions {
            chunk_bytes,
            threads,
            ..StreamOptions::default()
        }
    }

    #[test]
    fn pieces_give_the_same_result_as_one_run() {
        let p = pipeline();
        let input = text(5_000);
        let whole = p
            .run(
                RunInput {
                    events: read_events(&input).unwrap(),
                    ..Default::default()
                },
                &RunOptions::default(),
            )
            .unwrap();
        let mut expected = Vec::new();
        crate::pipeline::write_ndjson(&whole.sinks["out"], &mut expected).unwrap();
        for (chunk, threads) in [(1 << 10, 1), (1 << 10, 3), (7_777, 2), (1 << 22, 2)] {
            let run = run_ndjson(
                &p,
                input.as_bytes(),
                "out",
                &options(chunk, threads),
                |_| {},
            )
            .unwrap();
            assert_eq!(
                run.output.concat(),
                expected,
                "chunk {chunk}, {threads} threads"
            );
            assert_eq!(run.events_read, 5_000);
            assert_eq!(
                run.vertices[1].events_dropped,
                whole.vertices[1].events_dropped
            );
        }
    }

    #[test]
    fn the_first_bad_line_is_named_with_its_number() {
        let mut input = text(3_000);
        input.push_str("{\"tags\": 1}\n");
        input.push_str(&text(3_000));
        input.push_str("not json\n");
        let err = run_ndjson(
            &pipeline(),
            input.as_bytes(),
            "out",
            &options(1 << 10, 2),
            |_| {},
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Invalid events: line 3001: tags"),
            "{err}"
        );
    }

    #[test]
    fn limits_hold_across_pieces() {
        let mut o = options(1 << 10, 2);
        o.run.max_events = 100;
        let err = run_ndjson(&pipeline(), text(1_000).as_bytes(), "out", &o, |_| {}).unwrap_err();
        assert_eq!(
            err.to_string(),
            "Run limit exceeded: more than 100 input events (raise maxEvents)"
        );
    }

    #[test]
    fn a_line_longer_than_a_chunk_and_a_missing_final_newline_are_read() {
        let long = format!(
            "{{\"message\":\"{}\",\"tags\":{{\"level\":[\"error\"]}}}}\n{{\"tags\":{{\"level\":[\"error\"]}}}}",
            "x".repeat(5_000)
        );
        let run = run_ndjson(
            &pipeline(),
            long.as_bytes(),
            "out",
            &options(1 << 10, 2),
            |_| {},
        )
        .unwrap();
        assert_eq!(run.events_out, 2);
    }
}

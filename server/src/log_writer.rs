//! Where the service's log lines go: stderr, a batch of whole lines per `write`.
//!
//! A tokio worker adds the lines it logs to one buffer of the process; the buffer is written
//! when a worker runs out of work (the runtime's `on_thread_park` hook calls
//! [`flush_on_park`]), when it holds [`BATCH`] bytes, and when the service stops ([`flush`]).
//! Any other thread writes the buffer and its own line at once. Under load a worker parks
//! every few requests, so a line waits microseconds, and the log costs one system call per
//! batch instead of one per line (written a line at a time, the log was ~5 % of a template
//! read's CPU time under load, and a log thread fed by a channel ~6 %, seen with `perf`).
//!
//! One buffer, not one per thread, keeps the lines in the order they were logged: once a line
//! logged later is written, every line logged before it is too. Every `write` holds whole
//! lines and at most [`BATCH`] bytes unless one line is longer, so a reader of a pipe never
//! sees a line cut by another writer's (writes of up to 4096 bytes to a pipe are atomic). A
//! process killed with SIGKILL loses the lines of its last batch, as any buffered log does.
//!
//! ```
//! use std::io::Write;
//! use jobgraph_server::log_writer::{StderrBatches, flush, flush_on_park};
//! use tracing_subscriber::fmt::MakeWriter;
//!
//! let sink = StderrBatches;
//! sink.make_writer().write_all(b"a line\n").unwrap(); // written at once: not a worker
//! flush_on_park(); // this thread is a worker from now on: its lines wait for a batch
//! sink.make_writer().write_all(b"kept until the next flush\n").unwrap();
//! flush();
//! ```

use std::cell::Cell;
use std::io::{self, Write};
use std::sync::{Mutex, MutexGuard, PoisonError};

use tracing_subscriber::fmt::MakeWriter;

/// The most bytes a batch writes at once (the atomic size of a pipe write on Linux).
pub const BATCH: usize = 4096;

/// Lines logged and not written yet.
static PENDING: Mutex<Vec<u8>> = Mutex::new(Vec::new());

thread_local! {
    /// Whether this thread is a tokio worker: set by its first [`flush_on_park`].
    static WORKER: Cell<bool> = const { Cell::new(false) };
}

fn pending() -> MutexGuard<'static, Vec<u8>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes the pending lines.
fn write_pending(pending: &mut Vec<u8>) {
    if !pending.is_empty() {
        write_out(pending);
        pending.clear();
    }
}

/// Writes `bytes` (whole lines) to stderr, at most [`BATCH`] bytes per `write` where a line
/// boundary allows. A failed write is dropped: there is nowhere else to report it.
fn write_out(bytes: &[u8]) {
    let mut stderr = io::stderr().lock();
    let mut rest = bytes;
    while !rest.is_empty() {
        let (batch, next) = rest.split_at(batch_end(rest));
        if stderr.write_all(batch).is_err() {
            return;
        }
        rest = next;
    }
}

/// Where the first batch of `bytes` ends: all of it when it fits in [`BATCH`], else after the
/// last line end within [`BATCH`] bytes, else after the first (long) line.
fn batch_end(bytes: &[u8]) -> usize {
    if bytes.len() <= BATCH {
        return bytes.len();
    }
    bytes[..BATCH]
        .iter()
        .rposition(|&b| b == b'\n')
        .or_else(|| bytes.iter().position(|&b| b == b'\n'))
        .map_or(bytes.len(), |i| i + 1)
}

/// Writes the pending lines and marks this thread as a worker, whose lines wait for a batch.
/// The runtime calls it when a worker parks.
pub fn flush_on_park() {
    let _ = WORKER.try_with(|w| w.set(true));
    write_pending(&mut pending());
}

/// Writes the pending lines: when the service stops, or before a test reads the log.
pub fn flush() {
    write_pending(&mut pending());
}

/// The [`MakeWriter`] of the service's log: stderr, batched on tokio workers.
#[derive(Debug, Clone, Copy, Default)]
pub struct StderrBatches;

/// One log line's writer (tracing-subscriber writes a formatted line with one `write_all`).
#[derive(Debug)]
pub struct LineWriter;

impl Write for LineWriter {
    fn write(&mut self, line: &[u8]) -> io::Result<usize> {
        let worker = WORKER.try_with(Cell::get).unwrap_or(false);
        let mut pending = pending();
        if !worker || pending.len() + line.len() > BATCH {
            write_pending(&mut pending);
        }
        if worker {
            pending.extend_from_slice(line);
        } else {
            write_out(line);
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<'a> MakeWriter<'a> for StderrBatches {
    type Writer = LineWriter;

    fn make_writer(&'a self) -> LineWriter {
        LineWriter
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_end_at_line_ends_within_the_batch_size() {
        let line = [b"x".repeat(999), b"\n".to_vec()].concat();
        let five = line.repeat(5);
        assert_eq!(batch_end(&five), 4000, "four whole lines, not 4096 bytes");
        assert_eq!(batch_end(&line), 1000, "what fits goes at once");
        let long = [b"y".repeat(5000), b"\n".to_vec(), line.clone()].concat();
        assert_eq!(
            batch_end(&long),
            5001,
            "a line over the batch size goes alone, whole"
        );
        let unterminated = b"z".repeat(5000);
        assert_eq!(batch_end(&unterminated), 5000);
    }

    /// One test, since the buffer is the process's.
    #[test]
    fn a_worker_keeps_lines_until_a_flush_or_a_full_batch_and_others_write_at_once() {
        std::thread::spawn(|| {
            LineWriter.write_all(b"direct\n").unwrap();
            assert_eq!(
                pending().len(),
                0,
                "a thread that never parked writes at once"
            );
            flush_on_park();
            LineWriter.write_all(b"one\n").unwrap();
            LineWriter.write_all(b"two\n").unwrap();
            assert_eq!(pending().len(), 8);
            flush_on_park();
            assert_eq!(pending().len(), 0);
            let mut line = b"log_writer's unit test: a line of 100 bytes ".to_vec();
            line.resize(99, b'.');
            line.push(b'\n');
            for _ in 0..40 {
                LineWriter.write_all(&line).unwrap();
            }
            assert_eq!(pending().len(), 4000);
            LineWriter.write_all(&line).unwrap();
            assert_eq!(
                pending().len(),
                100,
                "the 4000 bytes went out, the new line waits"
            );
            std::thread::spawn(|| LineWriter.write_all(b"from another thread\n").unwrap())
                .join()
                .unwrap();
            assert_eq!(pending().len(), 0, "written before the other thread's line");
        })
        .join()
        .unwrap();
    }
}

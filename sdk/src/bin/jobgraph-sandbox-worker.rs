//! `jobgraph-sandbox-worker`: a sandbox worker for programs that run scripts in a
//! [`ProcessSandbox`](jobgraph_sdk::ProcessSandbox) without shipping the `jobgraph` binary.
//!
//! ```text
//! ProcessConfig { workers: 4, ..ProcessConfig::new("jobgraph-sandbox-worker", vec![]) }
//! ```
//!
//! It is also the whole of what a program of your own needs to serve as a worker: the
//! counting allocator (so `maxMemoryBytes` is enforced) and [`serve`](jobgraph_sdk::sandbox_worker::serve).
//! It reads one request per line on stdin until stdin closes; run by hand, it waits.

/// Counted, so that a script's `maxMemoryBytes` is enforced. The system allocator keeps this
/// crate free of C code; the `jobgraph` binary counts over mimalloc (~30 % faster scripts).
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<std::alloc::System> =
    jobgraph_core::memory::CountingAllocator::new(std::alloc::System);

fn main() -> std::process::ExitCode {
    if std::env::args_os().len() > 1 {
        eprintln!(
            "jobgraph-sandbox-worker takes no arguments: it serves the requests of a \
             jobgraph_sdk::ProcessSandbox on stdin (ProcessConfig::new(program, vec![]))"
        );
        return std::process::ExitCode::from(2);
    }
    match jobgraph_sdk::sandbox_worker::serve() {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("jobgraph-sandbox-worker: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}

//! `jobgraph`: resolve job graphs and test templates, offline or against the service; run the
//! service; manage its templates and jobs. The command line lives in `cli/`.

/// boa allocates heavily; mimalloc makes a script execution ~30 % cheaper than glibc malloc
/// (bench/RESULTS.md). Counted, so that `--max-memory-mb` is enforced.
#[global_allocator]
static ALLOCATOR: jobgraph_core::memory::CountingAllocator<mimalloc::MiMalloc> =
    jobgraph_core::memory::CountingAllocator::new(mimalloc::MiMalloc);

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}

//! What a worker does to itself once, before its first request: descriptors closed, realm and
//! stack prepared, resource limits fixed (soft and hard), not dumpable, system calls filtered.
//! Every step that fails is said in one line on stderr, which the parent passes on.

use jobgraph_core::{Limits, ScriptInput, run_script};

use super::ADDRESS_SPACE_HEADROOM;

/// Hardens this process for the rest of its life (see the module) and returns
/// `/proc/self/status`, opened before the filter, with the fixed address-space cap when there
/// is one.
pub(super) fn harden(max_memory: u64) -> (ProcStatus, Option<u64>) {
    let mut failures: Vec<String> = Vec::new();
    #[cfg(target_os = "linux")]
    if let Err(e) = super::confine::close_inherited_descriptors() {
        failures.push(e.to_string());
    }
    // Opened before the filter, which allows reading it but no new file.
    let status = ProcStatus::open();
    warm_up();
    let cap = status.mapped_bytes().map(|mapped| {
        mapped
            .saturating_add(max_memory)
            .saturating_add(ADDRESS_SPACE_HEADROOM)
    });
    if let Err(e) = fix_limits(cap, status.descriptors()) {
        failures.push(e);
    }
    #[cfg(target_os = "linux")]
    if let Err(e) = super::confine::not_dumpable() {
        failures.push(e.to_string());
    }
    #[cfg(target_os = "linux")]
    if let Err(e) = super::confine::confine() {
        failures.push(format!("{e}; scripts run without system-call confinement"));
    }
    if !failures.is_empty() {
        // One line: the parent passes the first line that starts so on to its own stderr.
        eprintln!("jobgraph sandbox-worker: {}", failures.join("; "));
    }
    (status, cap)
}

/// Runs a trivial script so that the thread's script stack is mapped and its realm prepared
/// before the address space is measured for the cap (and before the first request waits on
/// them).
fn warm_up() {
    let variables = serde_json::Map::new();
    let input = ScriptInput {
        source: "({})",
        declared: &[],
        variables: &variables,
        draft: false,
        user: "",
    };
    let _ = run_script(&input, &Limits::default());
}

/// Sets soft and hard limits alike, so that they can never be raised again: the address space
/// to `cap`, descriptors to those open now (`descriptors`, the highest plus one), no new
/// process, no core dump.
#[cfg(unix)]
fn fix_limits(cap: Option<u64>, descriptors: u64) -> Result<(), String> {
    use rlimit::Resource;
    let mut failed = Vec::new();
    let mut set = |resource: Resource, name: &str, value: u64| {
        if let Err(e) = rlimit::setrlimit(resource, value, value) {
            failed.push(format!("{name} to {value}: {e}"));
        }
    };
    set(Resource::CORE, "RLIMIT_CORE", 0);
    if let Some(cap) = cap {
        set(Resource::AS, "RLIMIT_AS", cap);
    }
    set(Resource::NOFILE, "RLIMIT_NOFILE", descriptors);
    set(Resource::NPROC, "RLIMIT_NPROC", 0);
    if failed.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "could not fix its resource limits ({})",
            failed.join(", ")
        ))
    }
}

#[cfg(not(unix))]
fn fix_limits(_cap: Option<u64>, _descriptors: u64) -> Result<(), String> {
    Ok(())
}

/// `/proc/self/status`, opened once (the confined worker can open no file) and read again from
/// its start after every request.
pub(super) struct ProcStatus(Option<std::fs::File>);

impl ProcStatus {
    fn open() -> Self {
        #[cfg(target_os = "linux")]
        let file = std::fs::File::open("/proc/self/status").ok();
        #[cfg(not(target_os = "linux"))]
        let file = None;
        ProcStatus(file)
    }

    /// Descriptors this process keeps: stdin, stdout, stderr and this file.
    fn descriptors(&self) -> u64 {
        #[cfg(unix)]
        if let Some(file) = &self.0 {
            use std::os::fd::AsRawFd;
            return u64::try_from(file.as_raw_fd())
                .map_or(3, |fd| fd + 1)
                .max(3);
        }
        3
    }

    /// The process's mapped address space (`VmSize`), in bytes.
    pub(super) fn mapped_bytes(&self) -> Option<u64> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::FileExt;
            let file = self.0.as_ref()?;
            let mut buffer = [0u8; 8192];
            let mut len = 0;
            while len < buffer.len() {
                match file.read_at(&mut buffer[len..], len as u64) {
                    Ok(0) => break,
                    Ok(n) => len += n,
                    Err(_) => return None,
                }
            }
            let text = std::str::from_utf8(&buffer[..len]).ok()?;
            let line = text.lines().find(|l| l.starts_with("VmSize:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        }
        #[cfg(not(target_os = "linux"))]
        None
    }
}

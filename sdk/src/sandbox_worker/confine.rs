//! System-call confinement of the sandbox worker (Linux): a seccomp-bpf filter, applied once the
//! worker has started, that leaves it the system calls a script run needs — reading its
//! requests, writing its answers, memory, clocks, random numbers — and answers every other one
//! with `EPERM`. Its resource limits are fixed before (`harden`), so changing them is refused
//! too.
//!
//! The engine gives scripts no host capability, so a script cannot ask for a file or a socket;
//! the filter is the second wall, for a bug in the engine: even code that took over the worker
//! could not open a file (the service's database, its configuration), connect anywhere, start a
//! program, or reach another process. Decisions and the full list: `docs/sandbox.md`
//! ("System calls").

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

/// Why the filter could not be applied.
#[derive(Debug, thiserror::Error)]
pub enum ConfineError {
    /// The filter could not be built for this processor (seccompiler knows x86_64, aarch64 and
    /// riscv64).
    #[error("the system-call filter could not be built for this processor: {0}")]
    Build(seccompiler::BackendError),
    /// The kernel refused the filter (no seccomp support, or forbidden by the container).
    #[error("the kernel refused the system-call filter: {0}")]
    Apply(seccompiler::Error),
    /// Neither `close_range` nor the `/proc/self/fd` listing could close the inherited
    /// descriptors (a kernel before 5.9 without `/proc` mounted).
    #[error(
        "could not close the descriptors it inherited (close_range: {close_range}; listing /proc/self/fd: {listing}); mount /proc or use Linux 5.9 or later"
    )]
    Descriptors {
        /// Why `close_range` failed.
        close_range: std::io::Error,
        /// Why the listing failed.
        listing: std::io::Error,
    },
    /// `prctl(PR_SET_DUMPABLE, 0)` failed.
    #[error("could not make itself non-dumpable: {0}")]
    Dumpable(std::io::Error),
}

/// System calls allowed whatever their arguments.
const ALLOWED: &[i64] = &[
    // Requests in, answers out (stdin, stdout, stderr for a last message), and the
    // `/proc/self/status` descriptor opened before the filter (read with `pread`).
    libc::SYS_read,
    libc::SYS_write,
    libc::SYS_readv,
    libc::SYS_writev,
    libc::SYS_pread64,
    libc::SYS_lseek,
    libc::SYS_close,
    // Memory: the allocator, the script stack and its guard page.
    libc::SYS_mmap,
    libc::SYS_munmap,
    libc::SYS_mremap,
    libc::SYS_mprotect,
    libc::SYS_madvise,
    libc::SYS_brk,
    // Waiting on locks, clocks (`Date.now()`, the time limit), `Math.random`, hash seeds.
    libc::SYS_futex,
    libc::SYS_sched_yield,
    libc::SYS_clock_gettime,
    libc::SYS_clock_getres,
    libc::SYS_gettimeofday,
    libc::SYS_nanosleep,
    libc::SYS_clock_nanosleep,
    libc::SYS_getrandom,
    // Signals of its own: the stack-overflow handler, and dying.
    libc::SYS_rt_sigreturn,
    libc::SYS_rt_sigprocmask,
    libc::SYS_rt_sigaction,
    libc::SYS_sigaltstack,
    libc::SYS_getpid,
    libc::SYS_gettid,
    libc::SYS_exit,
    libc::SYS_exit_group,
];

/// Closes every descriptor but stdin, stdout and stderr. The parent opens its own files and
/// sockets close-on-exec, but one that is not (a library's, an embedder's) would otherwise stay
/// open in the worker, where the filter's `read` and `write` would reach it.
pub fn close_inherited_descriptors() -> Result<(), ConfineError> {
    // SAFETY: close_range(2) over descriptors 3 and up, which this process does not use yet
    // (the worker calls this first thing).
    let closed = unsafe { libc::syscall(libc::SYS_close_range, 3u32, u32::MAX, 0u32) } == 0;
    if closed {
        return Ok(());
    }
    let close_range = std::io::Error::last_os_error();
    // Kernels before 5.9: close what /proc lists (the listing's own descriptor is closed when
    // the iterator is dropped, before the loop; closing it again is harmless).
    let entries =
        std::fs::read_dir("/proc/self/fd").map_err(|listing| ConfineError::Descriptors {
            close_range,
            listing,
        })?;
    let listed: Vec<libc::c_int> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str()?.parse().ok())
        .filter(|&fd| fd > 2)
        .collect();
    for fd in listed {
        // SAFETY: closing a descriptor number; nothing in this process holds it.
        unsafe { libc::close(fd) };
    }
    Ok(())
}

/// Makes this process non-dumpable: no core file, and another process of the same user (the
/// service, another worker) can neither `ptrace` it nor read its memory through `/proc`.
pub fn not_dumpable() -> Result<(), ConfineError> {
    // SAFETY: prctl(PR_SET_DUMPABLE, 0) takes no pointer.
    let done = unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) } == 0;
    if done {
        Ok(())
    } else {
        Err(ConfineError::Dumpable(std::io::Error::last_os_error()))
    }
}

/// Applies the filter to every thread of this process, for the rest of its life (it cannot be
/// lifted, and `no_new_privs` is set with it).
pub fn confine() -> Result<(), ConfineError> {
    let program = filter(std::process::id())?;
    seccompiler::apply_filter_all_threads(&program).map_err(ConfineError::Apply)
}

/// The filter of process `pid`: [`ALLOWED`], plus `tgkill`/`kill` of itself only (a failed
/// allocation ends in `abort`). No `prlimit64`, `setrlimit` or `getrlimit`: the limits were
/// fixed before the filter and nothing needs them after.
fn filter(pid: u32) -> Result<BpfProgram, ConfineError> {
    let arch = TargetArch::try_from(std::env::consts::ARCH).map_err(ConfineError::Build)?;
    let first_arg_is = |value: u64| -> Result<Vec<SeccompRule>, ConfineError> {
        let condition = SeccompCondition::new(0, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, value)
            .map_err(ConfineError::Build)?;
        Ok(vec![
            SeccompRule::new(vec![condition]).map_err(ConfineError::Build)?,
        ])
    };
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> =
        ALLOWED.iter().map(|&call| (call, Vec::new())).collect();
    rules.insert(libc::SYS_tgkill, first_arg_is(u64::from(pid))?);
    rules.insert(libc::SYS_kill, first_arg_is(u64::from(pid))?);
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Errno(libc::EPERM as u32),
        SeccompAction::Allow,
        arch,
    )
    .map_err(ConfineError::Build)?;
    filter.try_into().map_err(ConfineError::Build)
}

#[cfg(test)]
mod tests {
    use std::io::ErrorKind;
    use std::process::Command;

    /// Set in the child process that [`confined_process`] runs.
    const CHILD: &str = "JOBGRAPH_TEST_CONFINED_CHILD";

    /// The filter is applied in a child process (this test binary again, running only
    /// [`confined_process`]): it cannot be lifted, and the test harness's other threads would
    /// be confined with it.
    #[test]
    fn a_confined_worker_keeps_memory_and_clocks_but_no_files_sockets_or_programs() {
        let exe = std::env::current_exe().expect("the test binary's path");
        let out = Command::new(exe)
            .args([
                "--exact",
                "sandbox_worker::confine::tests::confined_process",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD, "1")
            .output()
            .expect("run the test binary again");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && stdout.contains("confined: every check passed"),
            "the confined child failed ({}):\n{stdout}\n{stderr}",
            out.status
        );
    }

    /// Runs only as the child of the test above (ignored otherwise).
    #[test]
    #[ignore = "run by a_confined_worker_keeps_memory_and_clocks_but_no_files_sockets_or_programs"]
    fn confined_process() {
        if std::env::var_os(CHILD).is_none() {
            return;
        }
        let status = std::fs::File::open("/proc/self/status").expect("open before the filter");
        super::not_dumpable().expect("PR_SET_DUMPABLE 0");
        // SAFETY: prctl without pointers.
        let dumpable = unsafe { libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0) };
        assert_eq!(dumpable, 0, "the process is no longer dumpable");
        super::confine().expect("the filter applies");

        let seccomp = read_at_start(&status);
        assert!(
            seccomp.lines().any(|l| l == "Seccomp:\t2"),
            "filter mode 2 in /proc/self/status:\n{seccomp}"
        );
        let denied = |what: &str, result: std::io::Result<()>| match result {
            Err(e) if e.kind() == ErrorKind::PermissionDenied => {}
            other => panic!("{what}: expected EPERM, got {other:?}"),
        };
        denied(
            "open a file",
            std::fs::File::open("/etc/hostname").map(drop),
        );
        denied(
            "create a file",
            std::fs::File::create(std::env::temp_dir().join("jobgraph-confined")).map(drop),
        );
        denied(
            "connect on loopback",
            std::net::TcpStream::connect("127.0.0.1:9").map(drop),
        );
        denied(
            "listen on loopback",
            std::net::TcpListener::bind("127.0.0.1:0").map(drop),
        );
        denied("start a program", Command::new("true").status().map(drop));
        denied(
            "start a thread",
            std::thread::Builder::new().spawn(|| ()).map(drop),
        );
        // No resource limit can be read or changed any more, of this process or another.
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: prlimit64 with a valid out-pointer to a local and no new limit.
        let other = unsafe { libc::prlimit(1, libc::RLIMIT_AS, std::ptr::null(), &mut limit) };
        assert_eq!(other, -1, "prlimit of another process is refused");
        // SAFETY: as above, on this process.
        let own = unsafe { libc::prlimit(0, libc::RLIMIT_AS, std::ptr::null(), &mut limit) };
        assert_eq!(own, -1, "prlimit of this process is refused too");
        let unlimited = libc::rlimit {
            rlim_cur: libc::RLIM_INFINITY,
            rlim_max: libc::RLIM_INFINITY,
        };
        // SAFETY: setrlimit with a pointer to a local.
        let raised = unsafe { libc::setrlimit(libc::RLIMIT_AS, &unlimited) };
        assert_eq!(raised, -1, "setrlimit is refused");
        // SAFETY: prctl without pointers.
        let dumpable = unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) };
        assert_eq!(dumpable, -1, "becoming dumpable again is refused");

        // What a script run needs still works: memory, clocks, random numbers, output.
        let big = vec![7u8; 64 << 20];
        assert_eq!(
            big.iter().map(|&b| usize::from(b)).sum::<usize>(),
            7 * (64 << 20)
        );
        let started = std::time::Instant::now();
        assert!(std::time::SystemTime::now() > std::time::UNIX_EPOCH);
        assert!(started.elapsed() < std::time::Duration::from_secs(60));
        let mut random = [0u8; 16];
        // SAFETY: getrandom into a local buffer of the given length.
        let n = unsafe { libc::getrandom(random.as_mut_ptr().cast(), random.len(), 0) };
        assert_eq!(n, 16);
        println!("confined: every check passed");
    }

    fn read_at_start(file: &std::fs::File) -> String {
        use std::os::unix::fs::FileExt;
        let mut buffer = vec![0u8; 16 * 1024];
        let n = file.read_at(&mut buffer, 0).expect("pread is allowed");
        String::from_utf8_lossy(&buffer[..n]).into_owned()
    }
}

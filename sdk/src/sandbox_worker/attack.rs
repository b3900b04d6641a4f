//! TEST ONLY (cargo feature `attack-hooks`, never in a shipped build): a worker that behaves as
//! if code had taken it over, when a script's source starts with `/*jobgraph-attack:NAME*/`.
//! `sdk/tests/attacks.rs` shows that the pool catches each behaviour.

use std::io::Write;

use serde_json::json;

/// What a taken-over worker does instead of running the script.
#[derive(Debug, Clone, Copy)]
pub(super) enum Attack {
    /// Answers with an id that is not the request's.
    ForgedId,
    /// Answers the request correctly, twice, in one write.
    SecondAnswer,
    /// Answers correctly, then at once writes a forged answer for the next request (guessing
    /// its id), as a separate write.
    PrewrittenAnswer,
    /// Writes one line that never ends.
    EndlessLine,
    /// Tries to raise its address-space, descriptor and process limits, then to map twice its
    /// address-space cap; answers with what each attempt returned.
    RaiseLimits,
}

const MARKER: &str = "/*jobgraph-attack:";

/// The attack a script asks for, if any.
pub(super) fn requested(source: &str) -> Option<Attack> {
    let name = source.strip_prefix(MARKER)?.split("*/").next()?;
    Some(match name {
        "forged-id" => Attack::ForgedId,
        "second-answer" => Attack::SecondAnswer,
        "prewritten-answer" => Attack::PrewrittenAnswer,
        "endless-line" => Attack::EndlessLine,
        "raise-limits" => Attack::RaiseLimits,
        _ => return None,
    })
}

fn answer(id: u64, result: serde_json::Value) -> String {
    let mut line =
        json!({"id": id, "result": {"Ok": {"value": result}}, "peakBytes": 0, "micros": 0})
            .to_string();
    line.push('\n');
    line
}

/// Performs `attack` for the request `id`.
pub(super) fn perform(
    attack: Attack,
    id: u64,
    out: &mut impl Write,
    cap: Option<u64>,
) -> std::io::Result<()> {
    let forged = json!({"vertices": [{"type": "forged", "name": "forged"}], "edges": []});
    match attack {
        Attack::ForgedId => out.write_all(answer(id ^ 1, forged).as_bytes())?,
        Attack::SecondAnswer => {
            let genuine = answer(id, json!({"vertices": [], "edges": []}));
            out.write_all(format!("{genuine}{genuine}").as_bytes())?;
        }
        Attack::PrewrittenAnswer => {
            out.write_all(answer(id, json!({"vertices": [], "edges": []})).as_bytes())?;
            out.flush()?;
            out.write_all(answer(id.wrapping_add(1), forged).as_bytes())?;
        }
        Attack::EndlessLine => {
            out.write_all(format!("{{\"id\":{id},\"result\":{{\"Ok\":\"").as_bytes())?;
            let chunk = vec![b'x'; 64 * 1024];
            // Until the parent ends this process (the write then fails or never returns).
            loop {
                out.write_all(&chunk)?;
            }
        }
        Attack::RaiseLimits => {
            let report = raise_limits(cap);
            out.write_all(answer(id, report).as_bytes())?;
        }
    }
    out.flush()
}

/// Each attempt's outcome: `"ok"` or the OS error.
#[cfg(target_os = "linux")]
fn raise_limits(cap: Option<u64>) -> serde_json::Value {
    let outcome = |ok: bool| {
        if ok {
            "ok".to_owned()
        } else {
            std::io::Error::last_os_error().to_string()
        }
    };
    let unlimited = libc::rlimit {
        rlim_cur: libc::RLIM_INFINITY,
        rlim_max: libc::RLIM_INFINITY,
    };
    let mut results = serde_json::Map::new();
    for (name, resource) in [
        ("setrlimitAs", libc::RLIMIT_AS),
        ("setrlimitNofile", libc::RLIMIT_NOFILE),
        ("setrlimitNproc", libc::RLIMIT_NPROC),
    ] {
        // SAFETY: setrlimit with a pointer to a local.
        let ok = unsafe { libc::setrlimit(resource, &unlimited) } == 0;
        results.insert(name.into(), outcome(ok).into());
    }
    // SAFETY: prlimit64 on itself with a pointer to a local and no old-value pointer.
    let ok = unsafe { libc::prlimit(0, libc::RLIMIT_AS, &unlimited, std::ptr::null_mut()) } == 0;
    results.insert("prlimitAs".into(), outcome(ok).into());
    // Twice the cap in one mapping (reserved, never touched).
    let size = usize::try_from(cap.unwrap_or(1 << 40).saturating_mul(2)).unwrap_or(usize::MAX);
    // SAFETY: an anonymous private mapping with no address hint; unmapped at once if made.
    let mapped = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            size,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    let ok = mapped != libc::MAP_FAILED;
    results.insert("mapTwiceTheCap".into(), outcome(ok).into());
    if ok {
        // SAFETY: the mapping just made, of that size.
        unsafe { libc::munmap(mapped, size) };
    }
    serde_json::Value::Object(results)
}

#[cfg(not(target_os = "linux"))]
fn raise_limits(_cap: Option<u64>) -> serde_json::Value {
    json!({})
}

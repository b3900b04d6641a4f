//! Design B of the isolated execution mode: jobgraph-core's sandbox compiled to wasm32-wasip1,
//! run in wasmtime. One compiled module; a fresh instance (fresh linear memory) per execution;
//! epoch interruption for wall-clock time; a `ResourceLimiter` for memory; a trap ends the
//! instance, never the host.
//!
//! Modes (see README.md):
//!   host bench [--runs N] [--pooling] [--opt none|speed|size] [--wasm PATH]
//!   host hostile [--pooling]
//!   host corpus [PATH/TO/cases.json] [--pooling]
//!   host pipe [--runs N]
//!   host run FILE.js [LIMITS-JSON]

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value, json};
use wasmtime::{
    Caller, Config, Engine, InstanceAllocationStrategy, InstancePre, Linker, Memory, Module,
    OptLevel, PoolingAllocationConfig, ResourceLimiter, Store, Trap,
};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Epoch tick: the ticker thread bumps the engine's epoch this often.
const TICK_MS: u64 = 5;
/// Memory a script may use over the instance's initial memory when the request names none.
const DEFAULT_EXTRA_MEMORY: usize = 256 << 20;
/// Native stack wasm frames may use (wasmtime's default is 512 KiB).
const MAX_WASM_STACK: usize = 32 << 20;
/// Stack of the thread that runs wasm (must exceed MAX_WASM_STACK plus host frames).
const RUNNER_STACK: usize = 64 << 20;

const TEN_VERTICES: &str = "({vertices: Array.from({length: 10}, (_, i) => ({type: 'logs-filter', name: 'f' + i, query: {type: 'simple-query', query: 'level:' + i}})), edges: Array.from({length: 9}, (_, i) => 'f' + i + ':output -> f' + (i + 1) + ':input')})";

// ---------------------------------------------------------------------------------------------
// Store state: memory limiter, captured stderr, RNG for random_get.

struct Limiter {
    /// Largest linear memory allowed, bytes.
    cap: usize,
    /// Largest linear memory granted, bytes.
    peak: usize,
    /// A refused request (bytes), if any.
    denied: Option<usize>,
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.cap {
            self.denied = Some(desired);
            return Ok(false);
        }
        self.peak = self.peak.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        Ok(desired <= 1_000_000)
    }
}

struct HostState {
    limiter: Limiter,
    stderr: Vec<u8>,
    rng: u64,
}

// ---------------------------------------------------------------------------------------------
// The 8 WASI preview1 functions the guest imports, implemented by hand (no filesystem, no
// environment, no sockets: nothing for a script to reach).

const ERRNO_SUCCESS: i32 = 0;
const ERRNO_BADF: i32 = 8;
const ERRNO_FAULT: i32 = 21;
const ERRNO_INVAL: i32 = 28;
const ERRNO_NOSYS: i32 = 52;
const STDERR_CAP: usize = 16 * 1024;

fn memory(caller: &mut Caller<'_, HostState>) -> Option<Memory> {
    caller.get_export("memory")?.into_memory()
}

fn monotonic_base() -> Instant {
    static BASE: OnceLock<Instant> = OnceLock::new();
    *BASE.get_or_init(Instant::now)
}

fn add_wasi(linker: &mut Linker<HostState>) -> wasmtime::Result<()> {
    const M: &str = "wasi_snapshot_preview1";
    linker.func_wrap(
        M,
        "clock_time_get",
        |mut caller: Caller<'_, HostState>, id: i32, _precision: i64, out: i32| -> i32 {
            let nanos: u64 = match id {
                0 => SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64),
                1..=3 => monotonic_base().elapsed().as_nanos() as u64 + 1,
                _ => return ERRNO_INVAL,
            };
            let Some(mem) = memory(&mut caller) else { return ERRNO_FAULT };
            match mem.write(&mut caller, out as u32 as usize, &nanos.to_le_bytes()) {
                Ok(()) => ERRNO_SUCCESS,
                Err(_) => ERRNO_FAULT,
            }
        },
    )?;
    linker.func_wrap(
        M,
        "random_get",
        |mut caller: Caller<'_, HostState>, buf: i32, len: i32| -> i32 {
            let Some(mem) = memory(&mut caller) else { return ERRNO_FAULT };
            let (data, state) = mem.data_and_store_mut(&mut caller);
            let (start, len) = (buf as u32 as usize, len as u32 as usize);
            let Some(slice) = data.get_mut(start..start.saturating_add(len)) else {
                return ERRNO_FAULT;
            };
            // xorshift64*: Math.random and hash seeds only, not cryptography.
            for byte in slice {
                state.rng ^= state.rng >> 12;
                state.rng ^= state.rng << 25;
                state.rng ^= state.rng >> 27;
                *byte = (state.rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 56) as u8;
            }
            ERRNO_SUCCESS
        },
    )?;
    linker.func_wrap(
        M,
        "fd_write",
        |mut caller: Caller<'_, HostState>, fd: i32, iovs: i32, iovs_len: i32, nwritten: i32| -> i32 {
            if fd != 1 && fd != 2 {
                return ERRNO_BADF;
            }
            let Some(mem) = memory(&mut caller) else { return ERRNO_FAULT };
            let (data, state) = mem.data_and_store_mut(&mut caller);
            let mut total: u32 = 0;
            for i in 0..iovs_len as u32 as usize {
                let at = iovs as u32 as usize + i * 8;
                let Some(iov) = data.get(at..at + 8) else { return ERRNO_FAULT };
                let ptr = u32::from_le_bytes(iov[0..4].try_into().unwrap()) as usize;
                let len = u32::from_le_bytes(iov[4..8].try_into().unwrap()) as usize;
                let Some(bytes) = data.get(ptr..ptr.saturating_add(len)) else {
                    return ERRNO_FAULT;
                };
                let room = STDERR_CAP.saturating_sub(state.stderr.len());
                state.stderr.extend_from_slice(&bytes[..bytes.len().min(room)]);
                total = total.wrapping_add(len as u32);
            }
            let at = nwritten as u32 as usize;
            match data.get_mut(at..at + 4) {
                Some(out) => {
                    out.copy_from_slice(&total.to_le_bytes());
                    ERRNO_SUCCESS
                }
                None => ERRNO_FAULT,
            }
        },
    )?;
    linker.func_wrap(
        M,
        "environ_sizes_get",
        |mut caller: Caller<'_, HostState>, count: i32, size: i32| -> i32 {
            let Some(mem) = memory(&mut caller) else { return ERRNO_FAULT };
            let ok = mem.write(&mut caller, count as u32 as usize, &0u32.to_le_bytes()).is_ok()
                && mem.write(&mut caller, size as u32 as usize, &0u32.to_le_bytes()).is_ok();
            if ok { ERRNO_SUCCESS } else { ERRNO_FAULT }
        },
    )?;
    linker.func_wrap(M, "environ_get", |_: i32, _: i32| -> i32 { ERRNO_SUCCESS })?;
    // thread::sleep and friends: nothing to wait for in a single-threaded sandbox.
    linker.func_wrap(M, "poll_oneoff", |_: i32, _: i32, _: i32, _: i32| -> i32 { ERRNO_NOSYS })?;
    linker.func_wrap(M, "sched_yield", || -> i32 { ERRNO_SUCCESS })?;
    linker.func_wrap(M, "proc_exit", |code: i32| -> wasmtime::Result<()> {
        Err(wasmtime::Error::msg(format!("guest called proc_exit({code})")))
    })?;
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// The sandbox.

struct Options {
    pooling: bool,
    opt: OptLevel,
    wasm: PathBuf,
}

struct Sandbox {
    engine: Engine,
    pre: InstancePre<HostState>,
    initial_memory: usize,
    /// Linear memory after an empty script: initial memory, the 64 MiB stack segment core's
    /// `stacker` allocates (psm supports wasm32, so it switches stacks there too), boa's realm.
    /// The memory cap is this plus the request's `maxMemoryBytes` (default 256 MiB).
    baseline_memory: usize,
    stop: Arc<AtomicBool>,
    ticker: Option<JoinHandle<()>>,
    rng_seed: u64,
}

/// Why an execution was stopped from outside the guest.
#[derive(Debug, Clone, PartialEq)]
enum Stop {
    /// Epoch deadline (wall clock).
    Time,
    /// A memory.grow beyond the cap was refused, or one allocation could not be satisfied at
    /// all (Rust's allocation-failure abort), and the guest then trapped. What was asked.
    Memory(String),
    /// wasm native stack exhausted.
    Stack,
    /// Any other trap or host error.
    Crash(String),
}

struct Outcome {
    /// The guest's response (`{ok}` / `{error}`), or why it was stopped.
    result: Result<Value, Stop>,
    elapsed: Duration,
    instantiate: Duration,
    /// Largest linear memory the instance had, bytes (initial memory included).
    peak_memory: usize,
}

impl Sandbox {
    fn new(opts: &Options, timings: &mut Vec<(String, Duration)>) -> wasmtime::Result<Sandbox> {
        let t = Instant::now();
        let mut config = Config::new();
        config.epoch_interruption(true);
        // No backtrace capture on traps: walking a deep wasm stack after an interrupt took
        // tens of ms (regex backtracking cases stopped at 1.5-1.6x their timeout with it on).
        #[allow(deprecated)]
        config.wasm_backtrace(false);
        config.max_wasm_stack(MAX_WASM_STACK);
        // Checked against max_wasm_stack even without async support.
        config.async_stack_size(MAX_WASM_STACK + (2 << 20));
        config.cranelift_opt_level(opts.opt.clone());
        if opts.pooling {
            let mut pool = PoolingAllocationConfig::default();
            pool.total_core_instances(16);
            pool.total_memories(16);
            pool.total_tables(16);
            pool.max_memory_size(512 << 20);
            pool.table_elements(100_000);
            config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
        }
        let engine = Engine::new(&config)?;
        timings.push(("Engine::new".into(), t.elapsed()));

        let bytes = std::fs::read(&opts.wasm)
            .map_err(|e| wasmtime::Error::msg(format!("{}: {e}", opts.wasm.display())))?;
        let t = Instant::now();
        let compiled = Module::new(&engine, &bytes)?;
        timings.push(("Module::new (compile)".into(), t.elapsed()));

        let t = Instant::now();
        let serialized = compiled.serialize()?;
        timings.push(("Module::serialize".into(), t.elapsed()));
        let cache = opts.wasm.with_extension("cwasm");
        std::fs::write(&cache, &serialized).map_err(|e| wasmtime::Error::msg(e.to_string()))?;
        timings.push((format!("(serialized size {} bytes)", serialized.len()), Duration::ZERO));
        let t = Instant::now();
        // SAFETY: the file was written just above by this engine's serialize.
        let module = unsafe { Module::deserialize_file(&engine, &cache)? };
        timings.push(("Module::deserialize_file".into(), t.elapsed()));

        let t = Instant::now();
        let mut linker = Linker::new(&engine);
        add_wasi(&mut linker)?;
        let pre = linker.instantiate_pre(&module)?;
        timings.push(("Linker + instantiate_pre".into(), t.elapsed()));

        let initial_memory = module
            .exports()
            .find_map(|e| e.ty().memory().map(|m| m.minimum() as usize * 65536))
            .unwrap_or(0);

        let stop = Arc::new(AtomicBool::new(false));
        let ticker = {
            let (engine, stop) = (engine.clone(), stop.clone());
            std::thread::spawn(move || {
                // The epoch counts real ticks since start: a late wake-up catches up instead of
                // stretching every tick (sleep(5 ms) per tick on the loaded 2-core machine made
                // epoch deadlines fire ~30 % late).
                let start = Instant::now();
                let mut ticks: u64 = 0;
                while !stop.load(Ordering::Relaxed) {
                    let due = start + Duration::from_millis(TICK_MS * (ticks + 1));
                    let now = Instant::now();
                    if due > now {
                        std::thread::sleep(due - now);
                    }
                    ticks += 1;
                    engine.increment_epoch();
                }
            })
        };
        let rng_seed = {
            use std::hash::{BuildHasher, RandomState};
            RandomState::new().hash_one(0u8) | 1
        };
        let mut sandbox = Sandbox {
            engine, pre, initial_memory, baseline_memory: initial_memory, stop, ticker: Some(ticker), rng_seed,
        };
        let t = Instant::now();
        let out = sandbox.execute(&request("({vertices: [], edges: []})", Map::new(), json!({})));
        timings.push(("first execution (empty script)".into(), t.elapsed()));
        if out.result.is_err() {
            return Err(wasmtime::Error::msg("the empty script failed"));
        }
        sandbox.baseline_memory = out.peak_memory;
        Ok(sandbox)
    }

    fn new_store(&self, extra_memory: usize) -> Store<HostState> {
        let mut store = Store::new(
            &self.engine,
            HostState {
                limiter: Limiter { cap: self.baseline_memory + extra_memory, peak: 0, denied: None },
                stderr: Vec::new(),
                rng: {
                    // splitmix64 of seed + execution counter: a different stream per execution.
                    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
                    let mut z = self.rng_seed.wrapping_add(
                        COUNTER.fetch_add(1, Ordering::Relaxed).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    );
                    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
                    (z ^ (z >> 31)) | 1
                },
            },
        );
        store.limiter(|s| &mut s.limiter);
        store
    }

    /// Instantiation alone (for the cost breakdown).
    fn instantiate_only(&self) -> wasmtime::Result<()> {
        let mut store = self.new_store(DEFAULT_EXTRA_MEMORY);
        let _instance = self.pre.instantiate(&mut store)?;
        Ok(())
    }

    /// One execution in a fresh instance. `request` is the guest's request JSON; its
    /// `limits.timeoutMs` sets the hard deadline, `limits.maxMemoryBytes` the memory cap.
    fn execute(&self, request: &Value) -> Outcome {
        let start = Instant::now();
        let limits = request.get("limits");
        let timeout_ms = limits
            .and_then(|l| l.get("timeoutMs"))
            .and_then(Value::as_u64)
            .unwrap_or(1000);
        let extra_memory = limits
            .and_then(|l| l.get("maxMemoryBytes"))
            .and_then(Value::as_u64)
            .map_or(DEFAULT_EXTRA_MEMORY, |b| b as usize);
        // The guest's own deadline check (core) answers at timeoutMs with a Time limit; the
        // epoch deadline is the backstop for native calls that never return to the VM loop.
        let hard_ms = timeout_ms + timeout_ms / 5 + TICK_MS;
        let ticks = hard_ms.div_ceil(TICK_MS);

        let mut store = self.new_store(extra_memory);
        let mut instantiate = Duration::ZERO;
        let result = (|| -> wasmtime::Result<Vec<u8>> {
            let instance = self.pre.instantiate(&mut store)?;
            instantiate = start.elapsed();
            let memory = instance
                .get_memory(&mut store, "memory")
                .ok_or_else(|| wasmtime::Error::msg("no memory export"))?;
            let alloc = instance.get_typed_func::<u32, u32>(&mut store, "guest_alloc")?;
            let run = instance.get_typed_func::<(u32, u32), u64>(&mut store, "guest_run")?;
            let bytes = serde_json::to_vec(request)?;
            store.set_epoch_deadline(ticks);
            let ptr = alloc.call(&mut store, bytes.len() as u32)?;
            memory.write(&mut store, ptr as usize, &bytes)?;
            let packed = run.call(&mut store, (ptr, bytes.len() as u32))?;
            let (ptr, len) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
            let mut out = vec![0; len];
            memory.read(&store, ptr, &mut out)?;
            Ok(out)
        })();
        let state = store.data();
        let result = match result {
            Ok(out) => match serde_json::from_slice::<Value>(&out) {
                // boa turns some refused allocations into a RangeError ("invalid layout"):
                // a script that failed after the cap refused memory hit the memory limit.
                Ok(v) if v.get("error").is_some() && state.limiter.denied.is_some() => Err(
                    Stop::Memory(format!("grow to {} refused; the script then failed: {}",
                        mib(state.limiter.denied.unwrap()),
                        v["error"]["message"].as_str().unwrap_or("").chars().take(60).collect::<String>())),
                ),
                Ok(v) => Ok(v),
                Err(e) => Err(Stop::Crash(format!("bad response JSON: {e}"))),
            },
            Err(e) => Err(match e.downcast_ref::<Trap>() {
                Some(Trap::Interrupt) => Stop::Time,
                Some(Trap::StackOverflow) => Stop::Stack,
                trap => {
                    let stderr = String::from_utf8_lossy(&state.stderr);
                    let stderr = stderr.trim();
                    if let Some(n) = state.limiter.denied {
                        Stop::Memory(format!("grow to {} refused", mib(n)))
                    } else if stderr.contains("memory allocation of") || stderr.contains("capacity overflow") {
                        // One allocation larger than wasm32's 4 GiB address space (or the module's
                        // 512 MiB maximum): the allocator fails before asking to grow.
                        let line = stderr.lines().find(|l| l.contains("memory allocation of") || l.contains("capacity overflow"));
                        Stop::Memory(line.unwrap_or("").trim().to_owned())
                    } else {
                        let what = trap.map_or_else(|| format!("{e}"), |t| t.to_string());
                        Stop::Crash(format!("{what}; stderr: {stderr}"))
                    }
                }
            }),
        };
        let peak_memory = state.limiter.peak;
        drop(store);
        Outcome { result, elapsed: start.elapsed(), instantiate, peak_memory }
    }
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(t) = self.ticker.take() {
            let _ = t.join();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers.

fn request(source: &str, variables: Map<String, Value>, limits: Value) -> Value {
    let declared: Vec<String> = variables.keys().cloned().collect();
    json!({"source": source, "declared": declared, "variables": variables, "draft": false,
           "user": "eval", "limits": limits})
}

/// Native `run_script`, for comparison, with the same request.
fn run_native(req: &Value) -> Result<Value, jobgraph_core::ScriptError> {
    let limits: jobgraph_core::Limits = serde_json::from_value(req["limits"].clone()).unwrap();
    let declared: Vec<String> =
        serde_json::from_value(req["declared"].clone()).unwrap_or_default();
    let variables = req["variables"].as_object().cloned().unwrap_or_default();
    jobgraph_core::run_script(
        &jobgraph_core::ScriptInput {
            source: req["source"].as_str().unwrap(),
            declared: &declared,
            variables: &variables,
            draft: false,
            user: "eval",
        },
        &limits,
    )
}

struct Stats {
    median: Duration,
    p90: Duration,
    min: Duration,
    mean: Duration,
}

fn stats(mut samples: Vec<Duration>) -> Stats {
    samples.sort();
    let n = samples.len();
    Stats {
        median: samples[n / 2],
        p90: samples[(n * 9) / 10],
        min: samples[0],
        mean: samples.iter().sum::<Duration>() / n as u32,
    }
}

fn us(d: Duration) -> String {
    format!("{:.0} µs", d.as_secs_f64() * 1e6)
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1e3)
}

fn mib(bytes: usize) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

/// Short description of an outcome: `ok`, `error: …`, `limit <kind> (guest|epoch|...)`.
fn describe(result: &Result<Value, Stop>) -> String {
    match result {
        Ok(v) if v.get("ok").is_some() => "ok".into(),
        Ok(v) => {
            let e = &v["error"];
            match e["limit"]["kind"].as_str() {
                Some(kind) => format!("limit {kind} (core)"),
                None => {
                    let msg = e["message"].as_str().unwrap_or("");
                    let msg: String = msg.chars().take(60).collect();
                    format!("error {} {msg}", e["kind"].as_str().unwrap_or("?"))
                }
            }
        }
        Err(Stop::Time) => "limit time (epoch trap)".into(),
        Err(Stop::Memory(what)) => format!("limit memory ({what})"),
        Err(Stop::Stack) => "limit recursion (wasm stack trap)".into(),
        Err(Stop::Crash(m)) => format!("crash: {}", m.chars().take(160).collect::<String>()).replace('\n', " "),
    }
}

fn check_normal(sandbox: &Sandbox) -> bool {
    let req = request(TEN_VERTICES, Map::new(), json!({}));
    matches!(sandbox.execute(&req).result, Ok(ref v) if v.get("ok").is_some())
}

// ---------------------------------------------------------------------------------------------
// Modes.

fn bench(sandbox: &Sandbox, runs: usize) {
    let req = request(TEN_VERTICES, Map::new(), json!({}));
    let native = run_native(&req).expect("native run");
    let first = Instant::now();
    let out = sandbox.execute(&req);
    println!("first wasm execution (cold caches): {}", us(first.elapsed()));
    assert_eq!(out.result.as_ref().ok().and_then(|v| v.get("ok")), Some(&native), "same result");

    for _ in 0..20 {
        sandbox.instantiate_only().unwrap();
        sandbox.execute(&req);
        let _ = run_native(&req);
    }
    let (mut inst, mut exec, mut exec_inst, mut nat) = (vec![], vec![], vec![], vec![]);
    let mut peak = 0;
    for _ in 0..runs {
        let t = Instant::now();
        sandbox.instantiate_only().unwrap();
        inst.push(t.elapsed());

        let out = sandbox.execute(&req);
        assert!(out.result.is_ok());
        exec.push(out.elapsed);
        exec_inst.push(out.instantiate);
        peak = peak.max(out.peak_memory);

        let t = Instant::now();
        let _ = run_native(&req);
        nat.push(t.elapsed());
    }
    println!("runs: {runs} (interleaved), 10-vertex script, peak linear memory {}", mib(peak));
    println!("| measure | median | p90 | min | mean |");
    println!("|---|---|---|---|---|");
    for (name, s) in [
        ("wasm: instantiate only (store + instance + drop)", stats(inst)),
        ("wasm: instantiate inside an execution", stats(exec_inst)),
        ("wasm: full execution (instantiate + run + response)", stats(exec)),
        ("native run_script (same process)", stats(nat)),
    ] {
        println!("| {name} | {} | {} | {} | {} |", us(s.median), us(s.p90), us(s.min), us(s.mean));
    }
}

fn hostile(sandbox: &Sandbox) {
    let cases: &[(&str, &str, Value)] = &[
        ("while(true){}", "while(true){}", json!({"timeoutMs": 1000, "loopIterations": 1e15 as u64})),
        ("while(true){} (default loop limit)", "while(true){}", json!({"timeoutMs": 1000})),
        ("regex backtracking", "/^(a+)+$/.test('a'.repeat(40)+'b')", json!({"timeoutMs": 1000})),
        ("Array.from 1e9", "Array.from({length: 1e9}, (_, i) => i)", json!({"timeoutMs": 1000})),
        ("JSON.stringify 1e7", "JSON.stringify(new Array(1e7).fill(1))", json!({"timeoutMs": 1000})),
        ("'x'.repeat(2**30)", "'x'.repeat(2**30)", json!({"timeoutMs": 1000})),
        ("string doubling", "let s = 'x'; while (true) { s = s + s; s.charCodeAt(s.length - 1); }", json!({"timeoutMs": 5000})),
        ("array push loop", "const a = []; while (true) a.push({x: a.length});", json!({"timeoutMs": 5000, "loopIterations": 1e15 as u64})),
        ("deep recursion", "function f(n) { return f(n + 1) + 1; } f(0)", json!({"timeoutMs": 1000, "recursionDepth": 1000000})),
    ];
    println!("| case | outcome | time | peak linear memory | next normal execution |");
    println!("|---|---|---|---|---|");
    for (name, source, limits) in cases {
        let out = sandbox.execute(&request(source, Map::new(), limits.clone()));
        println!(
            "| `{name}` (limits {limits}) | {} | {} | {} | {} |",
            describe(&out.result),
            ms(out.elapsed),
            mib(out.peak_memory),
            if check_normal(sandbox) { "ok" } else { "FAILED" }
        );
    }
}

/// Runs tests/adversarial/cases.json through the sandbox.
fn corpus(sandbox: &Sandbox, path: &Path) {
    let dir = path.parent().unwrap();
    let text = std::fs::read_to_string(path).expect("cases.json");
    let cases: Vec<Value> = serde_json::from_str(&text).expect("cases.json is JSON");
    println!("| case | expect | outcome | time | peak memory | result | native run_script (cases not marked isolated-only) |");
    println!("|---|---|---|---|---|---|---|");
    let (mut pass, mut fail, mut host_broken) = (0, 0, 0);
    let mut failures = Vec::new();
    for case in &cases {
        let name = case["name"].as_str().unwrap_or("?");
        let scripts: Vec<&str> = match &case["script"] {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            _ => vec![],
        };
        let variables = case["inputs"].as_object().cloned().unwrap_or_default();
        let limits = case.get("limits").cloned().unwrap_or(json!({}));
        let timeout_ms = limits["timeoutMs"].as_u64().unwrap_or(1000);
        // Earlier scripts (tampering) run first, each in its own instance; the last one counts.
        let mut last = None;
        for script in &scripts {
            let source = std::fs::read_to_string(dir.join(script)).expect("script file");
            last = Some(sandbox.execute(&request(&source, variables.clone(), limits.clone())));
        }
        let out = last.expect("a script");
        // The same (last) script natively, unless the corpus says it kills or hangs the process.
        let native = if case.get("inProcess").is_some() {
            "(isolated-only)".to_string()
        } else {
            let source = std::fs::read_to_string(dir.join(scripts.last().unwrap())).unwrap();
            let req = request(&source, variables.clone(), limits.clone());
            let t = Instant::now();
            let r = match run_native(&req) {
                Ok(v) => Ok(json!({"ok": v})),
                Err(jobgraph_core::ScriptError::ReturnedNothing) => Ok(json!({"error": {"kind": "returnedNothing"}})),
                Err(jobgraph_core::ScriptError::NotJson(m)) => Ok(json!({"error": {"kind": "notJson", "message": m}})),
                Err(jobgraph_core::ScriptError::Failed(f)) => Ok(json!({"error": {"kind": "failed", "message": f.message, "limit": f.limit.map(|l| json!({"kind": serde_json::to_value(l.kind).unwrap()}))}})),
            };
            let same = judge(&r, &case["expect"]).is_ok();
            format!("{} in {}{}", describe(&r), ms(t.elapsed()), if same { " (pass)" } else { " (FAIL)" })
        };
        let expect = &case["expect"];
        let verdict = judge(&out.result, expect);
        let slow = out.elapsed.as_millis() as u64 > timeout_ms * 3 / 2;
        let ok = verdict.is_ok() && !slow;
        if ok { pass += 1 } else { fail += 1; failures.push(name.to_string()) }
        if !check_normal(sandbox) {
            host_broken += 1;
        }
        println!(
            "| {name} | {} | {} | {} | {} | {}{} | {native} |",
            serde_json::to_string(expect).unwrap().chars().take(70).collect::<String>(),
            describe(&out.result),
            ms(out.elapsed),
            mib(out.peak_memory),
            if ok { "pass".to_string() } else { format!("FAIL {}", verdict.err().unwrap_or_default()) },
            if slow { " (over 1.5× timeout)" } else { "" },
        );
    }
    println!(
        "\n{} cases: {pass} pass, {fail} fail; the normal script failed after {host_broken} cases",
        cases.len()
    );
    if !failures.is_empty() {
        println!("failing: {}", failures.join(", "));
    }
}

/// The error code and message core's resolver would report for a guest response.
fn error_of(result: &Result<Value, Stop>) -> Option<(String, String)> {
    match result {
        Ok(v) => {
            if let Some(ok) = v.get("ok") {
                return jobgraph_core::JobGraph::from_value(ok.clone()).err().map(|m| {
                    ("INVALID_OUTPUT".into(), format!("Could not parse resolved template into a JobGraph: {m}"))
                });
            }
            let e = &v["error"];
            Some(match e["kind"].as_str() {
                Some("returnedNothing") => ("SCRIPT_RETURNED_NOTHING".into(), "Script execution returned null or undefined".into()),
                Some("notJson") => ("INVALID_OUTPUT".into(), format!("Could not parse resolved template into a JobGraph: {}", e["message"].as_str().unwrap_or(""))),
                _ => ("SCRIPT_FAILED".into(), format!("JavaScript execution failed: {}", e["message"].as_str().unwrap_or(""))),
            })
        }
        Err(stop) => Some(("SCRIPT_FAILED".into(), format!("JavaScript execution failed: {stop:?}"))),
    }
}

fn limit_of(result: &Result<Value, Stop>) -> Option<String> {
    match result {
        Ok(v) => v["error"]["limit"]["kind"].as_str().map(str::to_owned),
        Err(Stop::Time) => Some("time".into()),
        Err(Stop::Memory(_)) => Some("memory".into()),
        Err(Stop::Stack) => Some("recursion".into()),
        Err(Stop::Crash(_)) => None,
    }
}

fn judge(result: &Result<Value, Stop>, expect: &Value) -> Result<(), String> {
    if let Some(kind) = expect.get("limit").and_then(Value::as_str) {
        let got = limit_of(result);
        return if got.as_deref() == Some(kind) { Ok(()) } else { Err(format!("limit {got:?}")) };
    }
    if let Some(code) = expect.get("error").and_then(Value::as_str) {
        let Some((got, message)) = error_of(result) else { return Err("no error".into()) };
        if got != code {
            return Err(format!("code {got}"));
        }
        if let Some(part) = expect.get("messageContains").and_then(Value::as_str) {
            if !message.contains(part) {
                return Err(format!("message {message:?}"));
            }
        }
        return Ok(());
    }
    if let Some(want) = expect.get("output") {
        return match result {
            Ok(v) if v.get("ok") == Some(want) => Ok(()),
            Ok(v) => Err(format!("output {}", v.to_string().chars().take(80).collect::<String>())),
            Err(_) => Err("stopped".into()),
        };
    }
    Err("unknown expectation".into())
}

/// Round trip of `size` bytes through a `cat` child over pipes (a process pool's transport).
fn pipe(runs: usize, size: usize) {
    let mut child = std::process::Command::new("cat")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("cat");
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let msg = vec![b'x'; size];
    let mut back = vec![0; size];
    let mut samples = Vec::new();
    for i in 0..runs + 20 {
        let t = Instant::now();
        stdin.write_all(&msg).unwrap();
        stdout.read_exact(&mut back).unwrap();
        if i >= 20 {
            samples.push(t.elapsed());
        }
    }
    drop(stdin);
    let _ = child.wait();
    let s = stats(samples);
    println!(
        "pipe round trip of {size} bytes through `cat` ({runs} runs): median {}, p90 {}, min {}",
        us(s.median), us(s.p90), us(s.min)
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // wasm runs on a thread whose stack exceeds wasmtime's max_wasm_stack.
    let runner = std::thread::Builder::new()
        .stack_size(RUNNER_STACK)
        .spawn(move || real_main(args))
        .unwrap();
    std::process::exit(runner.join().unwrap_or(101));
}

fn real_main(args: Vec<String>) -> i32 {
    let flag = |name: &str| args.iter().any(|a| a == name);
    let value = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).cloned();
    let mode = args.first().cloned().unwrap_or_else(|| "bench".into());
    let runs: usize = value("--runs").and_then(|r| r.parse().ok()).unwrap_or(300);
    if mode == "pipe" {
        pipe(runs, 4096);
        return 0;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let opts = Options {
        pooling: flag("--pooling"),
        opt: match value("--opt").as_deref() {
            Some("none") => OptLevel::None,
            Some("size") => OptLevel::SpeedAndSize,
            _ => OptLevel::Speed,
        },
        wasm: value("--wasm").map(PathBuf::from).unwrap_or_else(|| {
            root.join("target/wasm32-wasip1/release/jobgraph_wasmtime_guest.wasm")
        }),
    };
    let mut timings = Vec::new();
    let cold = Instant::now();
    let sandbox = match Sandbox::new(&opts, &mut timings) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("setup failed: {e:?}");
            return 1;
        }
    };
    println!(
        "wasm {} ({} bytes), pooling {}, cranelift {:?}, initial linear memory {}, after an empty script {}",
        opts.wasm.display(),
        std::fs::metadata(&opts.wasm).map_or(0, |m| m.len()),
        opts.pooling,
        opts.opt,
        mib(sandbox.initial_memory),
        mib(sandbox.baseline_memory)
    );
    for (name, d) in &timings {
        println!("  cold: {name}: {}", ms(*d));
    }
    println!("  cold: total setup: {}", ms(cold.elapsed()));
    match mode.as_str() {
        "bench" => bench(&sandbox, runs),
        "hostile" => hostile(&sandbox),
        "corpus" => {
            let path = args
                .get(1)
                .filter(|a| !a.starts_with("--"))
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("../../tests/adversarial/cases.json"));
            corpus(&sandbox, &path)
        }
        "run" => {
            let source = std::fs::read_to_string(&args[1]).expect("script file");
            let limits = args.get(2).map_or(json!({}), |l| serde_json::from_str(l).expect("limits JSON"));
            let out = sandbox.execute(&request(&source, Map::new(), limits));
            println!("{} in {}, peak {}", describe(&out.result), ms(out.elapsed), mib(out.peak_memory));
            if let Ok(v) = &out.result {
                println!("{v}");
            }
        }
        other => {
            eprintln!("unknown mode {other}");
            return 2;
        }
    }
    0
}

//! Native time per call: `cargo run --release --example bench [--features schema]`.

fn main() {
    let script = "function template(i){ const v=[]; for (let k=0;k<5;k++) v.push({name:'f'+k, q:i.q}); return {vertices:v, edges:[]} }";
    let schema = r#"{"type":"object","properties":{"q":{"type":"string"}}}"#;
    for (label, n) in [("warm-up", 100), ("measured", 2000)] {
        let started = std::time::Instant::now();
        for _ in 0..n {
            if let Err(e) =
                engine_size::run_native(script, schema, r#"{"q":"abc"}"#, 1000.0, 64 << 20)
            {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
        let per_call = started.elapsed().as_secs_f64() * 1e6 / f64::from(n);
        println!("{label}: {per_call:.0} µs per call (fresh context; schema compiled each call)");
    }
}

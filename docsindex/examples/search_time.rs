//! In-process cost of a search: decoding an encoded index and searching it, averaged over many
//! runs (the rest of `docs:search`'s time is the process itself; `bench/docs-search.sh`).
//! Usage: `cargo run --release -p jobgraph-docsindex --example search_time -- INDEX.bin [QUERY…]`
//! (the index `cli/build.rs` writes: `target/*/build/jobgraph-cli-*/out/reference-index.bin`).

use std::time::Instant;

use jobgraph_docsindex::{Index, Kind, SearchOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: search_time INDEX.bin [QUERY…]")?;
    let query: Vec<String> = args.collect();
    let query = if query.is_empty() {
        "heartbeat token".to_owned()
    } else {
        query.join(" ")
    };
    let bytes = std::fs::read(&path)?;
    let runs = 200;
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(Index::decode(&bytes)?);
    }
    let decode = start.elapsed() / runs;
    let index = Index::decode(&bytes)?;
    let options = SearchOptions {
        kind: None,
        ..SearchOptions::default()
    };
    let start = Instant::now();
    for _ in 0..runs {
        std::hint::black_box(index.search(&query, &options));
    }
    let search = start.elapsed() / runs;
    let docs = index.docs.len();
    let sections: usize = index.docs.iter().map(|d| d.sections.len()).sum();
    let apis = index.docs.iter().filter(|d| d.kind == Kind::Api).count();
    println!(
        "index {} bytes, {docs} documents ({apis} operations), {sections} sections; decode {decode:?}, search {query:?} (-t all) {search:?}",
        bytes.len()
    );
    Ok(())
}

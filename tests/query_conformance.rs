//! Every query conformance case (`tests/conformance/queries/`) natively; all differences are
//! listed at once.

use jobgraph_conformance::queries::{check_query, load_query_files, queries_dir, query_outcome};

#[test]
fn query_cases_pass() {
    let files = load_query_files(&queries_dir()).expect("query case files load");
    let mut failures = Vec::new();
    let mut count = 0;
    for (file, cases) in &files {
        for case in &cases.cases {
            count += 1;
            let outcome = query_outcome(&case.query, &cases.events)
                .unwrap_or_else(|e| serde_json::json!({"runner error": e}));
            if let Err(e) = check_query(case, &outcome) {
                failures.push(format!("{file}: `{}`: {e} ({})", case.query, case.why));
            }
        }
    }
    assert!(count >= 150, "only {count} query cases");
    assert!(
        failures.is_empty(),
        "{} of {count} query cases fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

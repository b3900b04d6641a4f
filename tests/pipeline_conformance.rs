//! Every pipeline conformance case (`tests/conformance/pipelines/`) natively; all differences
//! are listed at once.

use jobgraph_conformance::pipelines::{
    check_pipeline, load_pipeline_cases, pipeline_outcome, pipelines_dir,
};

#[test]
fn pipeline_cases_pass() {
    let cases = load_pipeline_cases(&pipelines_dir()).expect("pipeline case files load");
    assert!(cases.len() >= 45, "only {} pipeline cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(file, case)| {
            let outcome = pipeline_outcome(case);
            check_pipeline(case, &outcome)
                .err()
                .map(|e| format!("{file}: {}: {e} ({})", case.name, case.why))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} pipeline cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

//! Runs every conformance case natively and reports all failures at once.

use jobgraph_conformance::{cases_dir, check, load_cases, run_case};

#[test]
fn every_conformance_case_passes() {
    let cases = load_cases(&cases_dir()).expect("case files load");
    let mut names = std::collections::HashSet::new();
    let mut failures = Vec::new();
    for (file, case) in &cases {
        if !names.insert(case.name.clone()) {
            failures.push(format!("{file}: duplicate case name {:?}", case.name));
        }
        let result = run_case(case).and_then(|outcome| check(case, &outcome));
        if let Err(why) = result {
            failures.push(format!("{file} / {}: {why}", case.name));
        }
    }
    println!(
        "{} conformance cases run, {} failed",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} failing cases:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        cases.len() >= 60,
        "only {} cases; the suite must hold at least 60",
        cases.len()
    );
}

//! Every grok conformance case (`tests/conformance/grok/`) natively; all differences are
//! listed at once.

use jobgraph_conformance::grok::{check_grok, grok_dir, grok_outcome, load_grok_cases};

#[test]
fn grok_cases_pass() {
    let cases = load_grok_cases(&grok_dir()).expect("grok case files load");
    assert!(cases.len() >= 90, "only {} grok cases", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|(key, case)| {
            check_grok(case, &grok_outcome(case))
                .err()
                .map(|e| format!("{key}: {}: {e}", case.why))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} grok cases fail:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

//! Every grok conformance case (`tests/conformance/grok/`) natively; all differences are
//! listed at once.

use jobgraph_conformance::grok::{check_grok, grok_dir, grok_outcome, load_grok_cases};

#[test]
fn grok_cases_pass() {
    let cases = load_grok_cases(&grok_dir()).expect("grok case files load");
    assert!(cases.len() >= 190, "only {} grok cases", cases.len());
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

/// The cases transcribed from Datadog's parsing documentation: at least 30, each with the
/// address of the page section it comes from (and all passing, above).
#[test]
fn datadog_documentation_cases_name_their_source() {
    let cases = load_grok_cases(&grok_dir()).expect("grok case files load");
    let from_docs: Vec<_> = cases
        .iter()
        .filter(|(key, _)| key.starts_with("datadog-docs.json#"))
        .collect();
    assert!(
        from_docs.len() >= 30,
        "only {} cases from Datadog's documentation",
        from_docs.len()
    );
    for (key, case) in from_docs {
        let source = case.source.as_deref().unwrap_or_default();
        assert!(
            source.starts_with("https://docs.datadoghq.com/logs/log_configuration/parsing/#"),
            "{key} has no source address: {source:?}"
        );
    }
}

//! `grok:parse` here and with `--remote` (the service's `POST /v1/grok/parse/batch`): the same
//! output, every format, the summary, exit codes.

use super::*;

const RULES: &str =
    "login %{word:user} connected on %{date(\"MM/dd/yyyy\"):date} from %{ipv4:network.client.ip}";

#[test]
fn grok_parse_here_and_in_the_service_print_the_same() {
    let home = Home::new();
    let env = home.configure("local", "every");
    let work = tempfile::tempdir().unwrap();
    let samples = work.path().join("samples.log");
    std::fs::write(
        &samples,
        "john connected on 11/08/2017 from 127.0.0.1\n\nWARN disk almost full\n",
    )
    .unwrap();
    let rules = work.path().join("rules.grok");
    std::fs::write(
        &rules,
        format!("{RULES}\nlevel %{{word:tags.level:lowercase}} %{{data:msg}}\n"),
    )
    .unwrap();
    let rules_arg = format!("@{}", rules.display());
    let samples_arg = samples.display().to_string();

    // One sample: its result alone, pretty JSON.
    let one = home.run(
        &[
            "grok:parse",
            "-p",
            RULES,
            "--sample",
            "jane connected on 01/31/2024 from 10.0.0.2",
        ],
        &env,
    );
    let result = one.ok().json();
    assert_eq!(result["match"], true);
    assert_eq!(result["matchingRuleName"], "login");
    assert_eq!(result["attributes"]["user"], "jane");
    // 2024-01-31T00:00:00Z.
    assert_eq!(result["attributes"]["date"], 1_706_659_200_000_i64);

    // Several samples (blank lines skipped): headers, results and a summary; the same text
    // here and from the service.
    let args = [
        "grok:parse",
        "-p",
        &rules_arg,
        "--samples-file",
        &samples_arg,
    ];
    let here = home.run(&args, &env);
    let there = home.run(&[&args[..], &["--remote"]].concat(), &env);
    assert_eq!(here.code, Some(0), "{}", here.stderr);
    assert_eq!(here.stdout, there.stdout);
    assert_eq!(there.code, Some(0), "{}", there.stderr);
    assert!(
        here.stdout
            .starts_with("=== Sample 1 ===\njohn connected on 11/08/2017 from 127.0.0.1\n{"),
        "{}",
        here.stdout
    );
    assert!(
        here.stdout
            .contains("=== Sample 2 ===\nWARN disk almost full\n"),
        "{}",
        here.stdout
    );
    assert!(
        here.stdout
            .ends_with("=== Summary ===\nMatched 2 of 2 samples (100.0%)\n"),
        "{}",
        here.stdout
    );

    // compact: one JSON line per sample; csv: a row per sample.
    let compact = home.run(&[&args[..], &["-f", "compact"]].concat(), &env);
    let lines: Vec<Value> = compact
        .ok()
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["tags"], json!({"level": ["warn"]}));
    let csv = home.run(&[&args[..], &["-f", "csv"]].concat(), &env);
    let csv = &csv.ok().stdout;
    assert!(csv.starts_with("sample,match,matchingRuleName,"), "{csv}");
    assert_eq!(csv.lines().count(), 3, "{csv}");

    // A sample no rule matches: printed, counted, exit 1 with one line on stderr.
    let miss = home.run(
        &[
            "grok:parse",
            "-p",
            RULES,
            "--sample",
            "nothing here",
            "--sample",
            "bob connected on 02/03/2020 from 1.2.3.4",
        ],
        &env,
    );
    assert_eq!(miss.code, Some(1), "{}", miss.stderr);
    assert!(
        miss.stdout.contains("Matched 1 of 2 samples (50.0%)"),
        "{}",
        miss.stdout
    );
    assert_eq!(miss.stderr.trim(), "1 of 2 samples matched no rule");

    // A rule that does not compile: exit 1, its name, line and column, here and remotely.
    for remote in [false, true] {
        let mut args = vec![
            "grok:parse",
            "-p",
            "good %{word:a}",
            "-p",
            "bad %{word:a",
            "--sample",
            "x",
        ];
        if remote {
            args.push("--remote");
        }
        let r = home.run(&args, &env);
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        assert!(r.stdout.is_empty());
        assert!(
            r.stderr.contains("Invalid grok rule bad at 2:"),
            "{}",
            r.stderr
        );
    }
    // No sample: usage error.
    let r = home.run(&["grok:parse", "-p", RULES], &env);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("--sample"), "{}", r.stderr);
}

/// A sample that hits the per-line time limit is printed with its `error` and makes
/// `grok:parse` exit 1 (docs/cli.md), here and in the service; rules go as an array, one per
/// `-p`, and an error names the item.
#[test]
fn grok_parse_exits_1_on_a_time_limited_sample() {
    let home = Home::new();
    let env = home.configure("local", "every");
    let hostile = "a".repeat(40);
    for remote in [false, true] {
        let mut args = vec![
            "grok:parse",
            "-p",
            "bad %{regex(\"(a+)+b\")}",
            "-p",
            "word %{word:w}",
            "--sample",
            &hostile,
            "--sample",
            "hello",
            "-f",
            "compact",
        ];
        if remote {
            args.push("--remote");
        }
        let r = home.run(&args, &env);
        assert_eq!(r.code, Some(1), "remote {remote}: {}", r.stderr);
        let lines: Vec<Value> = r
            .stdout
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2, "{}", r.stdout);
        assert_eq!(lines[0]["match"], false);
        assert!(
            lines[0]["error"]
                .as_str()
                .is_some_and(|e| e.starts_with("Grok time limit exceeded")),
            "{}",
            r.stdout
        );
        assert_eq!(lines[1]["matchingRuleName"], "word");
        assert_eq!(
            r.stderr.trim(),
            "1 of 2 samples were not parsed (the grok time limit: see each sample's `error`)"
        );
    }
    // Each -p is an item of the rules array: an error names it.
    let r = home.run(
        &[
            "grok:parse",
            "-p",
            "good %{word:a}",
            "-p",
            "bad %{nope:a}",
            "--sample",
            "x",
        ],
        &env,
    );
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("Invalid grok rule bad at 2:5 (/grokParsingRules/1)"),
        "{}",
        r.stderr
    );
}

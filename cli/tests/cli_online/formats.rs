//! Every output format against its golden file in `tests/golden/` (`UPDATE_GOLDEN=1`
//! rewrites them), column choice and widths, time zones, no colours in a pipe.

use super::*;

/// Replaces each id by a placeholder of the same length (tables keep their widths).
fn anonymize(text: &str, ids: &[(&str, &str)]) -> String {
    let mut text = text.to_owned();
    for (id, label) in ids {
        assert_eq!(id.len(), 16);
        let placeholder = format!("{label:_<16}");
        text = text.replace(id, &placeholder);
    }
    text
}

fn golden(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/golden")
        .join(name);
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_GOLDEN=1 writes it)", path.display()));
    assert_eq!(actual, expected, "{name} differs from {}", path.display());
}

/// `job:create -q -f compact` of a job file `name` using `template_id` (see [`job_file`]),
/// written to `dir`: the created job.
fn create_job(
    home: &Home,
    env: &[(&str, &str)],
    dir: &Path,
    name: &str,
    template_id: &str,
    processing: &str,
) -> Value {
    let path = job_file(dir, name, template_id, processing);
    home.run(
        &["job:create", path.to_str().unwrap(), "-q", "-f", "compact"],
        env,
    )
    .ok()
    .json()
}

#[test]
fn every_output_format_matches_its_golden_file() {
    let home = Home::new();
    let env = home.configure("local", "golden");
    let work = tempfile::tempdir().unwrap();
    let template = home
        .run(
            &[
                "template:create",
                "examples/service/level-filter.json",
                "-f",
                "compact",
            ],
            &env,
        )
        .ok()
        .json();
    let tid = template["id"].as_str().unwrap().to_owned();
    let alpha = create_job(&home, &env, work.path(), "alpha-job", &tid, "STREAMING");
    let beta = create_job(&home, &env, work.path(), "beta-job", &tid, "BATCH");
    let ids = [
        (tid.as_str(), "TEMPLATE1"),
        (alpha["id"].as_str().unwrap(), "JOB_ALPHA"),
        (beta["id"].as_str().unwrap(), "JOB_BETA"),
    ];
    for (format, file) in [
        ("table", "jobs.table.txt"),
        ("csv", "jobs.csv"),
        ("pretty", "jobs.pretty.json"),
        ("raw", "jobs.raw.jsonl"),
        ("compact", "jobs.compact.json"),
    ] {
        let r = home.run(
            &["jobs", "-f", format, "--no-timestamps", "-s", "name:asc"],
            &env,
        );
        golden(file, &anonymize(&r.ok().stdout, &ids));
    }
    let r = home.run(&["templates", "--no-timestamps"], &env);
    golden("templates.table.txt", &anonymize(&r.ok().stdout, &ids));
    let r = home.run(&["job:get", ids[1].0, "--no-timestamps"], &env);
    golden("job-get.table.txt", &anonymize(&r.ok().stdout, &ids));
    let r = home.run(
        &[
            "job:get",
            ids[1].0,
            "--no-timestamps",
            "--max-lines",
            "0",
            "--resolved",
        ],
        &env,
    );
    golden(
        "job-get-resolved.table.txt",
        &anonymize(&r.ok().stdout, &ids),
    );
    let r = home.run(
        &[
            "jobs",
            "-f",
            "csv",
            "--no-timestamps",
            "--max-depth",
            "2",
            "-s",
            "name:desc",
        ],
        &env,
    );
    golden("jobs.depth2.csv", &anonymize(&r.ok().stdout, &ids));
    let r = home.run(
        &[
            "jobs",
            "--no-timestamps",
            "-s",
            "name",
            "-c",
            "name,processing,tags",
        ],
        &env,
    );
    golden("jobs.columns.txt", &anonymize(&r.ok().stdout, &ids));
    // Wider than 80 columns: the widest give up width first, down to their longest word.
    let wide = "id,name,state,version,processing,desiredState,editedBy";
    let r = home.run(&["jobs", "--no-timestamps", "-s", "name", "-c", wide], &env);
    golden("jobs.wide.txt", &anonymize(&r.ok().stdout, &ids));
    // Timestamps in the asked time zone; in JSON formats as the service wrote them.
    let r = home.run(
        &[
            "jobs",
            "-f",
            "csv",
            "--timezone",
            "+02:00",
            "-s",
            "name",
            "-c",
            "createdAt,id",
        ],
        &env,
    );
    let lines: Vec<&str> = r.ok().stdout.lines().collect();
    assert_eq!(
        lines[0], "createdAt,id",
        "-c picks csv columns in the order given"
    );
    assert!(lines[1].contains("+02:00,"), "{}", lines[1]);
    let r = home.run(&["jobs", "-f", "raw", "--timezone", "+02:00"], &env);
    assert!(r.ok().stdout.contains("Z\""), "{}", r.stdout);
    let r = home.run(&["jobs", "--timezone", "Mars/Olympus"], &env);
    assert!(
        r.fails(2).starts_with("--timezone: unknown time zone"),
        "{}",
        r.stderr
    );
    // Colours only on a terminal: never in a pipe, whatever NO_COLOR says.
    let r = home.run(&["jobs"], &env);
    assert!(!r.ok().stdout.contains('\x1b'));
    // Every table line fits in 80 columns.
    let r = home.run(&["job:get", ids[1].0], &env);
    for line in r.ok().stdout.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

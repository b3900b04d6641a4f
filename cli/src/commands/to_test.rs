//! `job:to-test`: the job with a tagger on every edge and its sinks replaced
//! (`jobgraph_sdk::job_to_test`), written as JSON to stdout or `-o`.

use jobgraph_sdk::{TestSink, ToTestOptions, job_to_test, random_test_run_id};

use crate::args::{Global, JobToTestArgs};
use crate::failure::Failure;
use crate::input::read_json;
use crate::output::emit_bytes;
use crate::term::Ui;

/// `job:to-test`.
pub fn run(args: JobToTestArgs, global: &Global) -> Result<(), Failure> {
    let job = read_json(&args.job_file)?;
    let test_run_id = match args.test_run_id {
        Some(id) if id.trim().is_empty() => {
            return Err(Failure::usage(
                "--test-run-id is empty: give an id or leave the option out",
            ));
        }
        Some(id) => id,
        None => {
            let id = random_test_run_id();
            Ui::new(global, false).note(&format!("test run id: {id}"));
            id
        }
    };
    let sink = match args.dataset_id {
        Some(dataset_id) => TestSink::Dataset {
            dataset_id,
            table: args.table,
        },
        None => TestSink::Sync,
    };
    let test = job_to_test(&job, &ToTestOptions { test_run_id, sink })
        .map_err(|e| Failure::usage(format!("{}: {e}", args.job_file.display())))?;
    let mut text = if args.compact {
        test.to_string()
    } else {
        serde_json::to_string_pretty(&test).map_err(|e| Failure::failed(e.to_string()))?
    };
    text.push('\n');
    emit_bytes(text.as_bytes(), global)
}

//! `grok:parse`: grok rules tried on sample lines, here (the core engine) or with `--remote` in
//! the service (`POST /v1/grok/parse/batch`); both give the same answer.

use std::io::Read;
use std::path::Path;

use jobgraph_core::GrokRules;
use jobgraph_core::grok::{GrokBatchRequest, GrokBatchResponse, GrokParserSpec, parse_batch};
use serde_json::{Map, Value};

use crate::args::{Format, Global, GrokParseArgs};
use crate::context::Context;
use crate::failure::Failure;
use crate::input::io_reason;
use crate::output::{Shape, emit, render, style};
use crate::session::Session;
use crate::term::Ui;

/// Columns of `-f table|csv`.
const SUMMARY: &[&str] = &[
    "sample",
    "match",
    "matchingRuleName",
    "attributes",
    "tags",
    "topLevelFields",
];

/// `grok:parse`.
pub fn run(args: GrokParseArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let request = request(&args)?;
    let response = if args.remote {
        let session = Session::open(ctx)?;
        let ui = Ui::new(global, false);
        session
            .runtime
            .block_on(ui.spin(
                "parsing in the service",
                session.client.parse_grok_batch(&request),
            ))
            .map_err(|e| session.failure(e))?
    } else {
        parse_batch(&request).map_err(|e| Failure::failed(e.to_string()))?
    };
    print(&request.log_samples, &response, &args, global)?;
    outcome(&response)
}

/// Exit status 1 when a sample matched no rule or hit the time limit (stderr counts each).
fn outcome(response: &GrokBatchResponse) -> Result<(), Failure> {
    let total = response.results.len();
    let limited = response
        .results
        .iter()
        .filter(|r| r.error.is_some())
        .count();
    let unmatched = response
        .results
        .iter()
        .filter(|r| !r.matched && r.error.is_none())
        .count();
    let mut problems = Vec::new();
    if unmatched > 0 {
        problems.push(format!("{unmatched} of {total} samples matched no rule"));
    }
    if limited > 0 {
        problems.push(format!(
            "{limited} of {total} samples were not parsed (the grok time limit: see each sample's `error`)"
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Failure::failed(problems.join("; ")))
    }
}

/// Text given inline, or read from the file after `@`.
fn text_or_file(flag: &str, text: &str) -> Result<String, Failure> {
    match text.strip_prefix('@') {
        Some(file) => std::fs::read_to_string(file)
            .map_err(|e| Failure::usage(format!("{flag}: cannot read {file}: {}", io_reason(&e)))),
        None => Ok(text.to_owned()),
    }
}

/// The request: the rules in order (one array item per `-p`, as the public client sends
/// them), the samples of `--sample` then of `--samples-file`.
fn request(args: &GrokParseArgs) -> Result<GrokBatchRequest, Failure> {
    let rules = args
        .pattern
        .iter()
        .map(|p| text_or_file("--pattern", p))
        .collect::<Result<Vec<_>, _>>()?;
    let helper_rules = args
        .helper_rules
        .as_deref()
        .map(|h| text_or_file("--helper-rules", h))
        .transpose()?;
    let mut samples = args.sample.clone();
    if let Some(file) = &args.samples_file {
        samples.extend(read_samples(file)?);
    }
    if samples.is_empty() {
        return Err(Failure::usage(
            "no sample to parse: give --sample LINE or --samples-file FILE",
        ));
    }
    Ok(GrokBatchRequest {
        grok_parser: GrokParserSpec {
            name: None,
            grok_parsing_rules: GrokRules::List(rules),
            grok_helper_rules: helper_rules.map(GrokRules::Text),
            extract_attribute: args.extract_attribute.clone(),
            r#type: Some("grok-parser".into()),
        },
        log_samples: samples,
    })
}

/// The non-blank lines of `file` (`-`: stdin), without their line breaks.
fn read_samples(file: &Path) -> Result<Vec<String>, Failure> {
    let mut text = String::new();
    let read = if file == Path::new("-") {
        std::io::stdin().read_to_string(&mut text).map(drop)
    } else {
        std::fs::read_to_string(file).map(|t| text = t)
    };
    read.map_err(|e| {
        Failure::usage(format!(
            "--samples-file: cannot read {}: {}",
            file.display(),
            io_reason(&e)
        ))
    })?;
    Ok(text
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(str::to_owned)
        .collect())
}

/// One result as printed: `match`, `matchingRuleName`, `attributes`, `tags`,
/// `topLevelFields` (and `error`), with `sample` first for tables.
fn record(sample: Option<&str>, result: Value) -> Value {
    let mut out = Map::new();
    if let Some(sample) = sample {
        out.insert("sample".into(), Value::String(sample.to_owned()));
    }
    if let Value::Object(fields) = result {
        out.extend(fields);
    }
    Value::Object(out)
}

/// Prints the results: pretty (default) one block per sample (`=== Sample N ===` when there
/// are several) and a success rate; compact and raw one JSON line per sample; table and csv
/// one row per sample.
fn print(
    samples: &[String],
    response: &GrokBatchResponse,
    args: &GrokParseArgs,
    global: &Global,
) -> Result<(), Failure> {
    // Tables and CSV show the summary's columns in its order unless -c says otherwise.
    let mut output = args.output.clone();
    if output.columns.is_empty() {
        output.columns = SUMMARY.iter().map(|c| (*c).to_owned()).collect();
    }
    let style = style(&output, Format::Pretty, global)?;
    let results: Vec<Value> = response
        .results
        .iter()
        .map(|r| serde_json::to_value(r).unwrap_or(Value::Null))
        .collect();
    let text = match style.format {
        Format::Pretty => {
            let mut text = String::new();
            let several = results.len() > 1;
            for (i, (sample, result)) in samples.iter().zip(results).enumerate() {
                if several {
                    text.push_str(&format!("=== Sample {} ===\n{sample}\n", i + 1));
                }
                text.push_str(&render(record(None, result), Shape::One, &style));
                if several {
                    text.push('\n');
                }
            }
            let matched = response.results.iter().filter(|r| r.matched).count();
            let total = response.results.len();
            if several {
                text.push_str(&format!(
                    "=== Summary ===\nMatched {matched} of {total} samples ({:.1}%)\n",
                    100.0 * matched as f64 / total.max(1) as f64
                ));
            }
            text
        }
        Format::Compact | Format::Raw => results
            .into_iter()
            .map(|r| serde_json::to_string(&r).unwrap_or_default() + "\n")
            .collect(),
        Format::Table | Format::Csv => {
            let rows: Vec<Value> = samples
                .iter()
                .zip(results)
                .map(|(sample, result)| record(Some(sample), result))
                .collect();
            render(Value::Array(rows), Shape::List(SUMMARY), &style)
        }
    };
    emit(&text, global)
}

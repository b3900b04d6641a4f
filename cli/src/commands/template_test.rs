//! `template:test`: one template's script run with input values, here or (`--remote`) in the
//! service, as `POST /v1/templates/test` does.

use jobgraph_core::{TestInput, TestRequest};
use jobgraph_sdk::api::{TemplateInput, TemplateTest, TestValues};
use jobgraph_sdk::directory::load_template_file;
use serde_json::{Map, Value};

use crate::args::TemplateTestArgs;
use crate::context::Context;
use crate::failure::Failure;
use crate::input::parse_values;
use crate::output::print_document;
use crate::session::Session;
use crate::term::Ui;

/// `template:test`.
pub fn run(args: TemplateTestArgs, ctx: &Context) -> Result<(), Failure> {
    let global = &ctx.global;
    let template =
        load_template_file(&args.template_file).map_err(|e| Failure::usage(e.to_string()))?;
    let values = parse_values(&args.values)?;
    if args.remote {
        return test_remote(template, values, &args, ctx);
    }
    let request = TestRequest {
        template,
        input: TestInput {
            is_draft: args.draft,
            values,
        },
        check_valid_job_graph: args.check_valid_job_graph,
    };
    let graph = args
        .common
        .resolver(
            jobgraph_core::TemplateSet::new(),
            false,
            args.common.user(None),
        )?
        .test_blocking(&request)
        .map_err(|e| Failure::failed(e.to_string()))?;
    print_document(graph.to_value(), &args.output, args.common.compact, global)
}

/// `template:test --remote`: `POST /v1/templates/test`.
fn test_remote(
    template: jobgraph_core::Template,
    values: Map<String, Value>,
    args: &TemplateTestArgs,
    ctx: &Context,
) -> Result<(), Failure> {
    let global = &ctx.global;
    let request = TemplateTest {
        template: TemplateInput::from(template),
        input: TestValues {
            is_draft: args.draft,
            values,
        },
        check_valid_job_graph: args.check_valid_job_graph,
    };
    let session = Session::open(ctx)?;
    let ui = Ui::new(global, false);
    let graph = session
        .runtime
        .block_on(ui.spin(
            "testing the template",
            session.client.test_template(&request),
        ))
        .map_err(|e| session.failure(e))?;
    print_document(graph, &args.output, args.common.compact, global)
}

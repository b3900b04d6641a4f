//! The npm package's TypeScript types of vertices (`pkg/vertices.d.ts`), from the catalog:
//! an interface per operation (`LogsFilterVertex`…), `OtherVertex`, and `CatalogVertex`, their
//! union. The file is generated; a test fails when it differs from the catalog
//! (`JOBGRAPH_UPDATE_TYPES=1 cargo test -p jobgraph-model --lib typescript` rewrites it).

use std::fmt::Write as _;

use super::schema::component_name;
use super::{Field, OPERATIONS, Shape};

/// The text of `pkg/vertices.d.ts`.
///
/// ```
/// let text = jobgraph_model::ops::typescript::declarations();
/// assert!(text.contains("export interface LogsFilterVertex {"));
/// assert!(text.contains("  type: \"logs-filter\";"));
/// ```
pub fn declarations() -> String {
    let mut out = String::from(
        "// Generated from the catalog of operations (model/src/ops): do not edit.\n\
         // `JOBGRAPH_UPDATE_TYPES=1 cargo test -p jobgraph-model --lib typescript` rewrites it.\n\n\
         type Json = null | boolean | number | string | Json[] | { [key: string]: Json };\n\n\
         /** A predicate: an object `{type, …}` (docs/pipeline.md, \"Predicates\"). */\n\
         export type Predicate = { type: string; [field: string]: Json };\n",
    );
    let mut names = Vec::new();
    for op in OPERATIONS {
        let name = component_name(op);
        let Shape::Object(fields) = (op.config)() else {
            continue;
        };
        let _ = write!(out, "\n{}export interface {name} {{\n", doc(op.summary, ""));
        let _ = writeln!(out, "  type: {:?};", op.type_name);
        out.push_str("  name: string;\n");
        for field in &fields {
            out.push_str(&field_line(field, "  "));
        }
        out.push_str("  /** Other fields are kept as they are (and reported as unknown). */\n");
        out.push_str("  [field: string]: unknown;\n}\n");
        names.push(name);
    }
    out.push_str(
        "\n/** A vertex of a type the catalog does not know: kept, passed through, named as not simulated. */\n\
         export interface OtherVertex {\n  type: string;\n  name: string;\n  [field: string]: unknown;\n}\n",
    );
    names.push("OtherVertex".into());
    let _ = write!(
        out,
        "\n/** Any vertex: one of the catalog's types, or another. */\nexport type CatalogVertex =\n  | {};\n",
        names.join("\n  | ")
    );
    out
}

fn doc(text: &str, indent: &str) -> String {
    if text.is_empty() {
        return String::new();
    }
    format!(
        "{indent}/** {} */\n",
        text.replace("*/", "*\\/").replace('\n', " ")
    )
}

fn field_line(field: &Field, indent: &str) -> String {
    let optional = if field.extra.required { "" } else { "?" };
    let mut text = field.doc.clone();
    if let Some(default) = field.extra.default {
        text = format!("{text} Default: `{default}`.").trim().to_owned();
    }
    format!(
        "{}{indent}{}{optional}: {};\n",
        doc(&text, indent),
        property_name(field.name),
        ts_type(&field.shape, indent)
    )
}

fn property_name(name: &str) -> String {
    if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        name.to_owned()
    } else {
        format!("{name:?}")
    }
}

fn ts_type(shape: &Shape, indent: &str) -> String {
    match shape {
        Shape::Any => "Json".into(),
        Shape::String => "string".into(),
        Shape::Boolean => "boolean".into(),
        Shape::Integer | Shape::Number => "number".into(),
        Shape::Enum(values) => values
            .iter()
            .map(|v| format!("{v:?}"))
            .collect::<Vec<_>>()
            .join(" | "),
        Shape::Array(item) => match **item {
            Shape::Enum(_) | Shape::Tagged { .. } | Shape::Predicate | Shape::GrokRules => {
                format!("Array<{}>", ts_type(item, indent))
            }
            _ => format!("{}[]", ts_type(item, indent)),
        },
        Shape::Map(item) => format!("{{ [key: string]: {} }}", ts_type(item, indent)),
        Shape::Object(fields) => object_type(fields, indent, None),
        Shape::Tagged { variants, .. } => {
            let mut parts: Vec<String> = variants
                .iter()
                .map(|(tag, shape)| match shape {
                    Shape::Object(fields) => object_type(fields, indent, Some(tag)),
                    other => ts_type(other, indent),
                })
                .collect();
            parts.push("{ type: string; [field: string]: unknown }".into());
            parts.join(" | ")
        }
        Shape::Predicate => "Predicate".into(),
        Shape::GrokRules => "string[] | string".into(),
    }
}

fn object_type(fields: &[Field], indent: &str, tag: Option<&str>) -> String {
    let inner = format!("{indent}  ");
    let mut out = String::from("{\n");
    if let Some(tag) = tag {
        let _ = writeln!(out, "{inner}type: {tag:?};");
    }
    for field in fields.iter().filter(|f| tag.is_none() || f.name != "type") {
        out.push_str(&field_line(field, &inner));
    }
    let _ = write!(out, "{inner}[field: string]: unknown;\n{indent}}}");
    out
}

#[cfg(test)]
mod tests {
    use super::declarations;

    /// `pkg/vertices.d.ts` is what the catalog generates.
    #[test]
    fn typescript_declarations_match_the_catalog() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../pkg/vertices.d.ts");
        let generated = declarations();
        if std::env::var_os("JOBGRAPH_UPDATE_TYPES").is_some() {
            std::fs::write(path, &generated).unwrap();
        }
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            on_disk == generated,
            "pkg/vertices.d.ts differs from the catalog of operations: run \
             `JOBGRAPH_UPDATE_TYPES=1 cargo test -p jobgraph-model --lib typescript` and commit it"
        );
    }
}

//! Turning boa's errors into [`ScriptFailure`]s: message, line, column and limit.
//!
//! The most fragile code of the sandbox: boa 0.22 reports positions and limits only inside its
//! error texts (`… at :L:C`, `… at line L, col C`, `RuntimeLimitError: …`), so they are parsed
//! from there. Every format read here is pinned by the sandbox's unit tests and the conformance
//! cases; a boa upgrade that changes one fails them.
//!
//! No script code runs here: a thrown object's `message`, `name` or `cause` getters, proxies
//! and `AggregateError` lists are never read through JavaScript (boa's `try_native` would run
//! them, unbounded).

use boa_engine::{Context, JsError, JsString, JsValue};

use super::limits::{LimitKind, Limits};
use super::outcome::ScriptFailure;

/// Prefix of the error thrown when run-time compiled code nests too deeply.
pub(super) const RUNTIME_NESTING: &str = "nesting limit of ";

/// The vendored parser's message for a source nested past its bound (see
/// `run::set_parser_limit`).
const PARSER_NESTING: &str = boa_engine::parser::parser::nesting::NESTING_ERROR;

/// Turns a boa error into a failure with message, position and limit. Runs no script code: a
/// thrown object's `message`, `name` or `cause` getters, proxies and `AggregateError` lists
/// are never read through JavaScript (boa's `try_native` would run them, unbounded).
pub(super) fn failure(
    error: &JsError,
    context: &mut Context,
    limits: &Limits,
    line_offset: u32,
) -> ScriptFailure {
    // The rendering of a thrown non-error object could be as large and deep as the object.
    let text = match error.as_opaque().and_then(JsValue::as_object) {
        Some(object) if !object.is::<boa_engine::builtins::error::Error>() => String::new(),
        _ => error.to_string(),
    };
    if let Some(rest) = text.strip_prefix("RuntimeLimitError: ") {
        let kind = if rest.contains("iteration loops") {
            LimitKind::Loop
        } else if rest.starts_with("stopped by the host") {
            // The sandbox's own hooks (`guard`) stopped it; `run` reports the limit they
            // recorded. Only the deadline is left to check once the hooks are gone.
            LimitKind::Time
        } else {
            // Recursive calls, the VM's stack, or the native stack (`native stack limit`):
            // recursion in scripts or in built-ins over deeply nested data.
            LimitKind::Recursion
        };
        return ScriptFailure::limit(limits.hit(kind));
    }
    let (mut line, mut column) = first_position(&text);
    if line.is_none() {
        (line, column) = syntax_position(&text);
    }
    // Positions in a wrapped source (see `realm::wrap`) are one line further down.
    let line = line.map(|l| l.saturating_sub(line_offset).max(1));
    let message = match (error.as_native(), error.as_opaque()) {
        (Some(native), _) => {
            let message = native.message().trim();
            if message.is_empty() {
                native.kind().to_string()
            } else {
                format!("{}: {message}", native.kind())
            }
        }
        (None, Some(value)) => thrown_message(value, context),
        (None, None) => first_line(&text).to_owned(),
    };
    let message = strip_position_suffix(&message);
    let message = match message.rfind(" at line ") {
        Some(i) if syntax_position(&message[i..]).0.is_some() => &message[..i],
        _ => message,
    }
    .to_owned();
    // Stack exhaustion inside built-ins surfaces as a RangeError; deep run-time compiled code
    // as ours.
    let limit = if message.contains("Maximum call stack size exceeded") {
        Some(limits.hit(LimitKind::Recursion))
    } else if message.starts_with(&format!("RangeError: {RUNTIME_NESTING}"))
        || message.contains(PARSER_NESTING)
    {
        Some(limits.hit(LimitKind::Nesting))
    } else {
        None
    };
    ScriptFailure {
        message,
        line,
        column,
        limit,
    }
}

/// The message of a thrown value: `Name: message` for error objects (read from data properties
/// only), the JSON of other values (bounded, no getters), `Uncaught "text"` for strings.
fn thrown_message(value: &JsValue, context: &mut Context) -> String {
    if let Some(s) = value.as_string() {
        return format!("Uncaught {:?}", s.to_std_string_escaped());
    }
    let Some(object) = value.as_object() else {
        return format!("Uncaught {}", value.display());
    };
    if object.is::<boa_engine::builtins::error::Error>() {
        let text = |key: &str| {
            data_property_in_chain(&object, key)
                .and_then(|v| v.as_string().map(|s| s.to_std_string_escaped()))
        };
        let name = text("name").unwrap_or_else(|| "Error".to_owned());
        let message = text("message").unwrap_or_default();
        let message: String = message.chars().take(1000).collect();
        return if message.trim().is_empty() {
            name
        } else {
            format!("{name}: {}", message.trim())
        };
    }
    match super::js_json::read(value, context, 1000) {
        Ok(Some(json)) => format!("Uncaught {json}"),
        _ => "Uncaught object".to_owned(),
    }
}

/// A data property of `object` or its prototypes (a few levels), read from storage: an accessor
/// or a proxy ends the search (their code is never run).
fn data_property_in_chain(object: &boa_engine::JsObject, key: &str) -> Option<JsValue> {
    let key = boa_engine::property::PropertyKey::from(JsString::from(key));
    let mut current = object.clone();
    for _ in 0..16 {
        if current.is::<boa_engine::builtins::proxy::Proxy>() {
            return None;
        }
        let next = {
            let borrowed = current.borrow();
            if let Some(descriptor) = borrowed.properties().get(&key) {
                return descriptor.value().cloned();
            }
            borrowed.prototype()
        };
        current = next?;
    }
    None
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

/// Removes a trailing ` (… at :L:C)` that boa appends to native messages.
fn strip_position_suffix(message: &str) -> &str {
    match message.rfind(" (") {
        Some(i) if message.ends_with(')') && first_position(&message[i..]).0.is_some() => {
            &message[..i]
        }
        _ => message,
    }
}

/// The first `:line:column` position in boa's rendering of an error, if any.
fn first_position(text: &str) -> (Option<u32>, Option<u32>) {
    for (i, _) in text.match_indices(" at :") {
        let rest = &text[i + 5..];
        let mut numbers = rest.split([':', ')']);
        if let (Some(Ok(line)), Some(Ok(column))) = (
            numbers.next().map(str::parse::<u32>),
            numbers.next().map(str::parse::<u32>),
        ) {
            return (Some(line), Some(column));
        }
    }
    (None, None)
}

/// The `at line L, col C` position of boa's syntax error messages.
fn syntax_position(text: &str) -> (Option<u32>, Option<u32>) {
    let Some(i) = text.rfind(" at line ") else {
        return (None, None);
    };
    let mut parts = text[i + 9..].split(", col ");
    let line = parts.next().and_then(|l| l.trim().parse().ok());
    let column = parts
        .next()
        .map(|c| {
            c.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|c| c.parse().ok());
    if line.is_some() && column.is_some() {
        (line, column)
    } else {
        (None, None)
    }
}

/// Line and column just past the end of `source`.
pub(super) fn end_position(source: &str) -> (u32, u32) {
    let line = source.split('\n').count();
    let column = source.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

//! Where results go (`-o FILE` or stdout) and the style a command prints them in.

use std::io::Write;

use serde_json::Value;

use super::{Format, OutputArgs, Shape, Style, parse_timezone, render};
use crate::args::Global;
use crate::failure::Failure;
use crate::input::io_reason;
use crate::term;

/// The time zone of `--timezone` (default: the system's).
fn timezone(global: &Global) -> Result<jiff::tz::TimeZone, Failure> {
    match &global.timezone {
        Some(name) => parse_timezone(name).map_err(|e| Failure::usage(format!("--timezone: {e}"))),
        None => Ok(jiff::tz::TimeZone::system()),
    }
}

/// The output style of a command. With `-o FILE` and no `-f`, a table becomes pretty JSON
/// (a file is for reuse).
pub fn style(output: &OutputArgs, default: Format, global: &Global) -> Result<Style, Failure> {
    let default = if global.output.is_some() && default == Format::Table {
        Format::Pretty
    } else {
        default
    };
    Style::new(
        output,
        default,
        timezone(global)?,
        term::stdout_color(global),
    )
    .map_err(Failure::usage)
}

/// Prints a document (a resolved job, a graph): pretty JSON unless `-f`/`--compact` say
/// otherwise.
pub fn print_document(
    value: Value,
    output: &OutputArgs,
    compact: bool,
    global: &Global,
) -> Result<(), Failure> {
    let default = if compact {
        Format::Compact
    } else {
        Format::Pretty
    };
    let style = style(output, default, global)?;
    emit(&render(value, Shape::One, &style), global)
}

/// Writes a result to `-o FILE` or stdout. A closed stdout (`| head`) is not an error.
pub fn emit(text: &str, global: &Global) -> Result<(), Failure> {
    emit_bytes(text.as_bytes(), global)
}

pub fn emit_bytes(bytes: &[u8], global: &Global) -> Result<(), Failure> {
    emit_pieces(&[bytes], global)
}

/// Writes `pieces`, in turn, to `-o FILE` or stdout (a result made in parts, not joined
/// first). A closed stdout (`| head`) is not an error.
pub fn emit_pieces(pieces: &[impl AsRef<[u8]>], global: &Global) -> Result<(), Failure> {
    let write_all = |out: &mut dyn Write| -> std::io::Result<()> {
        for piece in pieces {
            out.write_all(piece.as_ref())?;
        }
        out.flush()
    };
    match &global.output {
        Some(path) => std::fs::File::create(path)
            .and_then(|file| write_all(&mut std::io::BufWriter::new(file)))
            .map_err(|e| {
                Failure::usage(format!(
                    "cannot write {}: {}",
                    path.display(),
                    io_reason(&e)
                ))
            }),
        None => match write_all(&mut std::io::stdout().lock()) {
            Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                Err(Failure::usage(format!("cannot write to stdout: {e}")))
            }
            _ => Ok(()),
        },
    }
}

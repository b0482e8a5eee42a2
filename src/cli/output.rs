//! Output formats shared by the commands. Machine formats print only machine output on stdout
//! and always carry a `schemaVersion`.

use std::io::Write;

use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use serde::Serialize;
use serde_json::Value;

use crate::userfile::{self, ReadError};

/// Version of the JSON/YAML documents the commands print; bumped on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Format {
    /// Readable tables and text.
    #[default]
    Table,
    Json,
    Yaml,
}

/// Prints a machine document: `{"schemaVersion": 1, "kind": …, …body}`.
pub fn emit_machine(format: Format, kind: &str, body: &impl Serialize) -> miette::Result<()> {
    let mut document = serde_json::Map::new();
    document.insert("schemaVersion".into(), SCHEMA_VERSION.into());
    document.insert("kind".into(), kind.into());
    match serde_json::to_value(body).map_err(|e| miette::miette!("cannot serialize output: {e}"))? {
        Value::Object(fields) => document.extend(fields),
        other => {
            document.insert("data".into(), other);
        }
    }
    let document = Value::Object(document);
    let text = match format {
        Format::Yaml => serde_yaml_ng::to_string(&document).map_err(|e| miette::miette!("cannot write YAML: {e}"))?,
        _ => serde_json::to_string_pretty(&document).map_err(|e| miette::miette!("cannot write JSON: {e}"))? + "\n",
    };
    write_stdout(&text)
}

/// Writes to stdout, treating a closed pipe (`| head`) as success rather than a panic.
pub fn write_stdout(text: &str) -> miette::Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(miette::miette!("cannot write output: {e}")),
        _ => Ok(()),
    }
}

/// Streams a long output to stdout through a buffer, treating a closed pipe (`| head`) as success.
pub fn stream_stdout(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> miette::Result<()> {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(miette::miette!("cannot write output: {e}")),
        _ => Ok(()),
    }
}

/// A table in the house style.
pub fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Dynamic).set_header(header);
    table
}

/// Runs a JSONL batch: one JSON case per input line (`-` = standard input), one JSON answer per
/// output line, each with `schemaVersion`. `answer` gets the parsed case, or the parse error of a
/// line that is not JSON, so one bad line never stops the batch.
pub fn run_jsonl(
    path: &std::path::Path,
    mut answer: impl FnMut(Result<Value, String>) -> Value,
) -> miette::Result<std::process::ExitCode> {
    use std::io::BufRead;
    let read_error = |e: ReadError| miette::miette!(code = "batch::read", "cannot read {}: {e}", path.display());
    let mut reader: Box<dyn BufRead> = if path == std::path::Path::new("-") {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(userfile::open(path).map_err(read_error)?))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = Vec::new();
    for number in 1.. {
        let case = match userfile::read_line(&mut reader, &mut line, userfile::MAX_INPUT_BYTES) {
            Ok(false) => break,
            Ok(true) if line.trim_ascii().is_empty() => continue,
            Ok(true) => serde_json::from_slice::<Value>(&line).map_err(|e| format!("line {number}: {e}")),
            Err(ReadError::TooLarge(limit)) => Err(format!("line {number}: longer than {limit} bytes")),
            Err(e) => return Err(read_error(e)),
        };
        let mut result = answer(case);
        if let Some(object) = result.as_object_mut() {
            object.insert("schemaVersion".into(), SCHEMA_VERSION.into());
        }
        let written =
            serde_json::to_writer(&mut out, &result).map_err(std::io::Error::from).and_then(|()| out.write_all(b"\n"));
        if let Err(e) = written {
            return broken_pipe_ok(e);
        }
    }
    out.flush().map_or_else(broken_pipe_ok, |()| Ok(std::process::ExitCode::SUCCESS))
}

/// A write error ends the command; a closed pipe (`| head`) ends it successfully.
fn broken_pipe_ok(error: std::io::Error) -> miette::Result<std::process::ExitCode> {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(std::process::ExitCode::SUCCESS)
    } else {
        Err(miette::miette!("cannot write output: {error}"))
    }
}

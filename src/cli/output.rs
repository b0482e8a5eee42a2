//! Output formats shared by the commands. Machine formats print only machine output on stdout
//! and always carry a `schemaVersion`.

use std::io::Write;

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use serde::Serialize;
use serde_json::Value;

use crate::base::userfile::{self, ReadError};

/// Version of the JSON/YAML documents the commands print; bumped on incompatible changes.
pub const SCHEMA_VERSION: u32 = 1;

pub use crate::report::Format;

/// What most commands offer: tables (`table`), JSON and YAML.
pub const TABLES_AND_DOCUMENTS: &[Format] = &[Format::Human, Format::Json, Format::Yaml];

/// `--format`'s value parser for a command offering `offered`. The human format is called
/// `human_name` (`table` where the command prints tables, `human` where it prints prose), the
/// other name being an alias.
pub fn formats(human_name: &'static str, offered: &'static [Format]) -> impl TypedValueParser<Value = Format> {
    let values = offered.iter().map(move |&format| {
        let value = match format {
            Format::Human => {
                PossibleValue::new(human_name).alias(if human_name == "table" { "human" } else { "table" })
            }
            other => PossibleValue::new(other.name()),
        };
        value.help(format.summary())
    });
    PossibleValuesParser::new(values)
        .map(move |name| offered.iter().copied().find(|f| f.name() == name).unwrap_or(Format::Human))
}

/// Prints a machine document: `{"schemaVersion": 1, "kind": …, "ok": true, …body}`.
pub fn emit_machine(format: Format, kind: &str, body: &impl Serialize) -> miette::Result<()> {
    let document = machine_document(kind, body)?;
    let text = match format {
        // YAML prints a string with line breaks as a block of lines, where a config's text
        // could start a line of a CI log: such strings are shown escaped (JSON keeps every
        // string exactly, escaped by JSON itself).
        Format::Yaml => serde_yaml_ng::to_string(&visible_strings(document))
            .map_err(|e| miette::miette!("cannot write YAML: {e}"))?,
        _ => serde_json::to_string_pretty(&document).map_err(|e| miette::miette!("cannot write JSON: {e}"))? + "\n",
    };
    write_stdout(&text)
}

/// `{"schemaVersion": 1, "kind": …, "ok": true, …body}` as a JSON value.
fn machine_document(kind: &str, body: &impl Serialize) -> miette::Result<Value> {
    let mut document = serde_json::Map::new();
    document.insert("schemaVersion".into(), SCHEMA_VERSION.into());
    document.insert("kind".into(), kind.into());
    // A document answers; a refusal overrides this with `ok: false`.
    document.insert("ok".into(), Value::Bool(true));
    match serde_json::to_value(body).map_err(|e| miette::miette!("cannot serialize output: {e}"))? {
        Value::Object(fields) => document.extend(fields),
        other => {
            document.insert("data".into(), other);
        }
    }
    Ok(Value::Object(document))
}

/// [`emit_machine`] in JSON for a large document, serialized straight to stdout instead of
/// through a JSON value and a string (three copies of what may be many megabytes). `body` must
/// serialize to an object without the envelope's own keys (`schemaVersion`, `kind`, `ok`).
pub fn stream_machine_json(kind: &str, body: &impl Serialize) -> miette::Result<()> {
    stream_stdout(|out| write_machine_json(out, kind, body))
}

/// [`stream_machine_json`] for a body that ends in a long list (a matrix's agent rows): `head`'s
/// members, then `list` holding `items`. The items are serialized on all cores, a batch at a time
/// (writing 20 MB of JSON on one core took as long as resolving the sessions on two), and written
/// in order; the bytes are those of the document serialized whole.
pub fn stream_machine_json_list<T: Serialize + Sync>(
    kind: &str,
    head: &impl Serialize,
    list: &str,
    items: &[T],
) -> miette::Result<()> {
    stream_stdout(|out| write_machine_json_list(out, kind, head, list, items))
}

/// What [`stream_machine_json_list`] writes, to any writer.
fn write_machine_json_list<T: Serialize + Sync>(
    out: &mut dyn Write,
    kind: &str,
    head: &impl Serialize,
    list: &str,
    items: &[T],
) -> std::io::Result<()> {
    const BATCH: usize = 256;
    // The envelope and the head, without the closing brace; the list is the last member.
    let mut opening = Vec::new();
    write_machine_json(&mut opening, kind, head)?;
    let members = opening.strip_suffix(b"\n}\n").ok_or_else(|| std::io::Error::other("not a JSON object"))?;
    out.write_all(members)?;
    let key = serde_json::to_string(list).map_err(std::io::Error::from)?;
    if items.is_empty() {
        return write!(out, ",\n  {key}: []\n}}\n");
    }
    write!(out, ",\n  {key}: [")?;
    for (index, batch) in items.chunks(BATCH).enumerate() {
        let texts = crate::base::parallel::par_map(batch, |item| serde_json::to_string_pretty(item));
        for (offset, text) in texts.into_iter().enumerate() {
            let text = text.map_err(std::io::Error::from)?;
            // Each item sits two levels deep: four more spaces on every line.
            out.write_all(if index == 0 && offset == 0 { b"\n    " } else { b",\n    " })?;
            out.write_all(text.replace('\n', "\n    ").as_bytes())?;
        }
    }
    out.write_all(b"\n  ]\n}\n")
}

/// What [`stream_machine_json`] writes, to any writer.
fn write_machine_json(out: &mut dyn Write, kind: &str, body: &impl Serialize) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Envelope<'a, T> {
        #[serde(rename = "schemaVersion")]
        schema_version: u32,
        kind: &'a str,
        ok: bool,
        #[serde(flatten)]
        body: &'a T,
    }
    let envelope = Envelope { schema_version: SCHEMA_VERSION, kind, ok: true, body };
    // `From` keeps the writer's own error (a closed pipe stays `BrokenPipe`, which is not a failure).
    serde_json::to_writer_pretty(&mut *out, &envelope).map_err(std::io::Error::from)?;
    out.write_all(b"\n")
}

/// `value` with every string made safe to print in a document ([`crate::base::escape::document_string`]).
fn visible_strings(value: Value) -> Value {
    use crate::base::escape::{document_string, visible};
    match value {
        Value::String(text) => Value::String(document_string(&text).into_owned()),
        Value::Array(items) => Value::Array(items.into_iter().map(visible_strings).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (visible(&k).into_owned(), visible_strings(v))).collect())
        }
        other => other,
    }
}

/// Writes to stdout, treating a closed pipe (`| head`) as success rather than a panic. Off a
/// terminal (a CI log, a file) every control character a config smuggled into the text is made
/// visible, so nothing can forge a log line or drive whatever reads the output.
pub fn write_stdout(text: &str) -> miette::Result<()> {
    let text = if stdout_styled() { std::borrow::Cow::Borrowed(text) } else { crate::base::escape::block(text) };
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(miette::miette!("cannot write output: {e}")),
        _ => Ok(()),
    }
}

/// [`write_stdout`] for a long output written piece by piece (thousands of findings), so it is
/// never held whole: buffered, each piece made safe as `write_stdout` makes its text.
pub fn stream_stdout(write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) -> miette::Result<()> {
    let mut out = SafeWriter::new(std::io::stdout().lock(), stdout_styled());
    match write(&mut out).and_then(|()| out.flush()) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(miette::miette!("cannot write output: {e}")),
        _ => Ok(()),
    }
}

/// Off a terminal, control characters in the text written are made visible. A serializer writes
/// token by token, so the text is gathered into large pieces first and each piece is checked
/// whole; a character split between two pieces waits for its last bytes.
struct SafeWriter<W> {
    inner: W,
    styled: bool,
    pending: Vec<u8>,
}

impl<W: Write> SafeWriter<W> {
    const PIECE: usize = 64 * 1024;

    fn new(inner: W, styled: bool) -> Self {
        SafeWriter { inner, styled, pending: Vec::with_capacity(Self::PIECE + 1024) }
    }

    /// Writes the pending text out, all of it or up to its last whole character.
    fn drain(&mut self, all: bool) -> std::io::Result<()> {
        let end = if all { self.pending.len() } else { whole_characters(&self.pending) };
        let piece = &self.pending[..end];
        match std::str::from_utf8(piece) {
            Ok(text) if !self.styled && !plain_ascii(piece) => {
                self.inner.write_all(crate::base::escape::block(text).as_bytes())?;
            }
            _ => self.inner.write_all(piece)?,
        }
        self.pending.drain(..end);
        Ok(())
    }
}

/// Whether every byte is printable ASCII, a line break or a tab. Checked without a branch per
/// byte, so that it runs over whole vectors: the safe writer checks every byte it writes.
fn plain_ascii(bytes: &[u8]) -> bool {
    bytes.iter().fold(true, |plain, &b| plain & ((0x20..0x7f).contains(&b) | (b == b'\n') | (b == b'\t')))
}

/// The length of `bytes` without an unfinished UTF-8 sequence at its end.
fn whole_characters(bytes: &[u8]) -> usize {
    let lead = bytes.iter().rev().take(4).position(|b| b & 0xC0 != 0x80);
    let Some(back) = lead else { return bytes.len() };
    let start = bytes.len() - 1 - back;
    let needed = match bytes[start] {
        b if b >= 0xF0 => 4,
        b if b >= 0xE0 => 3,
        b if b >= 0xC0 => 2,
        _ => 1,
    };
    if bytes.len() - start < needed { start } else { bytes.len() }
}

impl<W: Write> Write for SafeWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        if self.pending.len() >= Self::PIECE {
            self.drain(false)?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.drain(true)?;
        self.inner.flush()
    }
}

/// Whether output on this stream may carry colour and styles: only on a terminal, and never
/// when `NO_COLOR` is set (<https://no-color.org>).
pub fn styled(stream_is_terminal: bool) -> bool {
    stream_is_terminal && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Whether standard output may be styled.
pub fn stdout_styled() -> bool {
    styled(std::io::IsTerminal::is_terminal(&std::io::stdout()))
}

/// Prints a diagnostic or a note on stderr, made safe as [`write_stdout`] makes stdout. A closed
/// stderr (`2>&1 | head`) loses the text instead of ending the process with a panic.
pub fn write_stderr(text: &str) {
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let text = if styled(terminal) { std::borrow::Cow::Borrowed(text) } else { crate::base::escape::block(text) };
    let _ = writeln!(std::io::stderr().lock(), "{text}");
}

/// Table cells from config text: control characters made visible (line breaks kept).
pub fn cells(values: impl IntoIterator<Item = String>) -> Vec<String> {
    values.into_iter().map(|v| crate::base::escape::block(&v).into_owned()).collect()
}

/// A table in the house style; unstyled off a terminal and under `NO_COLOR`.
pub fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Dynamic).set_header(header);
    if !stdout_styled() {
        table.force_no_tty();
    }
    table
}

/// The folder a batch file's `configPath`s are relative to: the file's own, absolute.
pub fn batch_folder(path: &std::path::Path) -> std::path::PathBuf {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(std::path::Path::new("."));
    std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
}

/// Runs a JSONL batch: one JSON case per input line (`-` = standard input), one JSON answer per
/// output line, each with `schemaVersion`. `answer` gets the parsed case, or the parse error of a
/// line that is not JSON, so one bad line never stops the batch.
pub fn run_jsonl(
    path: &std::path::Path,
    answer: impl Fn(Result<Value, String>) -> Value + Sync,
) -> miette::Result<std::process::ExitCode> {
    run_jsonl_lines(path, |line| answer(line.and_then(|(number, text)| parse_case(number, text.as_bytes()))))
}

fn parse_case(number: usize, line: &[u8]) -> Result<Value, String> {
    serde_json::from_slice::<Value>(line).map_err(|e| format!("line {number}: {e}"))
}

/// The lines of a batch read and not yet answered weigh at most this much together (a line
/// weighs its length and [`BATCH_ANSWER_WEIGHT`]); a longer line is answered alone. Cores answer
/// several cases at once, but never several large configs.
const BATCH_BUDGET: usize = 1024 * 1024;
/// What an answer weighs besides its line.
const BATCH_ANSWER_WEIGHT: usize = 4 * 1024;
/// The input a batch reads ahead: a core takes the lines already read.
const BATCH_READ_AHEAD: usize = 256 * 1024;
/// The most lines a core takes at once, and their most weight (a quarter of the budget, so that
/// every core has some): handing each line to a core on its own cost more than a short case.
const BATCH_CHUNK_LINES: usize = 32;
const BATCH_CHUNK_WEIGHT: usize = BATCH_BUDGET / 4;

/// [`run_jsonl`] for answerers that read a case's text themselves: `answer` gets the line's
/// number and text, or why the line cannot be read.
///
/// Cases are independent, so they are answered on every core, a few lines at a time, and written
/// in their order ([`crate::base::stream`]). The lines a core takes are those already read: what
/// was answered is written out before the batch waits for more input, so a program that writes
/// one case to a pipe and waits for its answer gets it.
pub fn run_jsonl_lines(
    path: &std::path::Path,
    answer: impl Fn(Result<(usize, &str), String>) -> Value + Sync,
) -> miette::Result<std::process::ExitCode> {
    use crate::base::stream::{Delivery, Stopped, map_ordered};
    let source: Box<dyn std::io::Read> = if path == std::path::Path::new("-") {
        Box::new(std::io::stdin())
    } else {
        Box::new(userfile::open(path).map_err(|e| read_error(path, &e))?)
    };
    let mut reader = std::io::BufReader::with_capacity(BATCH_READ_AHEAD, source);
    // Written from the stream's writer thread.
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut number = 0;
    // A read error after some lines of a chunk: the chunk is answered first.
    let mut failed = None;
    let read = || -> Result<Option<(Vec<BatchLine>, usize)>, BatchStop> {
        if let Some(e) = failed.take() {
            return Err(BatchStop::Read(e));
        }
        let mut chunk = Vec::new();
        let mut weight = 0;
        loop {
            let mut line = Vec::new();
            number += 1;
            let read = match userfile::read_line(&mut reader, &mut line, userfile::MAX_INPUT_BYTES) {
                Ok(false) => break,
                Ok(true) if line.trim_ascii().is_empty() => continue,
                Ok(true) if crate::base::json::holds_more_values(&line, BATCH_CASE_VALUES) => {
                    Err(format!("line {number}: holds more than {BATCH_CASE_VALUES} JSON values"))
                }
                Ok(true) => Ok(line),
                Err(ReadError::TooLarge(limit)) => Err(format!("line {number}: longer than {limit} bytes")),
                Err(e) if chunk.is_empty() => return Err(BatchStop::Read(e)),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            };
            weight += read.as_ref().map_or(0, Vec::len) + BATCH_ANSWER_WEIGHT;
            chunk.push((number, read));
            let next_line_read = reader.buffer().contains(&b'\n');
            if chunk.len() == BATCH_CHUNK_LINES || weight >= BATCH_CHUNK_WEIGHT || !next_line_read {
                break;
            }
        }
        Ok((!chunk.is_empty()).then_some((chunk, weight)))
    };
    let answer_chunk = |chunk: Vec<BatchLine>| {
        let mut text = Vec::new();
        for (number, line) in chunk {
            let case = match &line {
                // Not UTF-8: the JSON parser says where, as for any line that is not JSON.
                Ok(bytes) => std::str::from_utf8(bytes).map(|text| (number, text)).map_err(|_| {
                    parse_case(number, bytes).err().unwrap_or_else(|| format!("line {number}: not UTF-8"))
                }),
                Err(message) => Err(message.clone()),
            };
            let mut result = answer(case);
            if let Some(object) = result.as_object_mut() {
                object.insert("schemaVersion".into(), SCHEMA_VERSION.into());
            }
            serde_json::to_writer(&mut text, &result)?;
            text.push(b'\n');
        }
        Ok::<_, serde_json::Error>(text)
    };
    let write = |delivery: Delivery<Result<Vec<u8>, serde_json::Error>>| {
        let written = match delivery {
            Delivery::Answer(text) => text.map_err(std::io::Error::from).and_then(|text| out.write_all(&text)),
            Delivery::CaughtUp => out.flush(),
        };
        written.map_err(BatchStop::Write)
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let stopped = match map_ordered(cores, BATCH_BUDGET, read, answer_chunk, write) {
        Ok(()) => None,
        Err(Stopped::Reading(stop) | Stopped::Writing(stop)) => Some(stop),
    };
    match stopped {
        None => out.flush().map_or_else(broken_pipe_ok, |()| Ok(std::process::ExitCode::SUCCESS)),
        Some(BatchStop::Write(e)) => broken_pipe_ok(e),
        // The answers to the lines before it are written first.
        Some(BatchStop::Read(e)) => {
            out.flush().map_or_else(broken_pipe_ok, |()| Ok(std::process::ExitCode::SUCCESS))?;
            Err(read_error(path, &e))
        }
    }
}

/// The most JSON values a batch line may hold: a config's own budget
/// ([`crate::config::json5::MAX_VALUES`]) and room for the case's fields. A line is parsed whole
/// before its config is looked at, and a value costs tens of bytes parsed, so without this a
/// 16 MiB line of numbers took over 500 MB.
const BATCH_CASE_VALUES: usize = crate::config::json5::MAX_VALUES + 10_000;

/// A line of a batch by its number: its bytes, or why it cannot be read.
type BatchLine = (usize, Result<Vec<u8>, String>);

/// Why a batch stopped before the end of its input.
enum BatchStop {
    Read(ReadError),
    Write(std::io::Error),
}

fn read_error(path: &std::path::Path, e: &ReadError) -> miette::Report {
    miette::miette!(code = "batch::read", "cannot read {}: {e}", path.display())
}

/// A write error ends the command; a closed pipe (`| head`) ends it successfully.
fn broken_pipe_ok(error: std::io::Error) -> miette::Result<std::process::ExitCode> {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(std::process::ExitCode::SUCCESS)
    } else {
        Err(miette::miette!("cannot write output: {error}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_streamed_machine_document_is_the_document_emitted_whole() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Body {
            findings: Vec<Value>,
            summary: Value,
            empty: Vec<u8>,
        }
        let body = Body {
            findings: vec![serde_json::json!({"code": "CP201", "message": "a\nb \u{1b}", "line": 3})],
            summary: serde_json::json!({"error": 0, "warning": 1}),
            empty: Vec::new(),
        };
        let whole = serde_json::to_string_pretty(&machine_document("lint", &body).unwrap()).unwrap() + "\n";
        let mut streamed = Vec::new();
        write_machine_json(&mut streamed, "lint", &body).unwrap();
        assert_eq!(String::from_utf8(streamed).unwrap(), whole);
    }

    /// A document whose long list is serialized item by item is the document serialized whole,
    /// byte for byte, for no item, one, and more than a batch.
    #[test]
    fn a_list_serialized_by_items_is_the_document_serialized_whole() {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Head {
            openclaw_version: &'static str,
        }
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Whole<'a> {
            openclaw_version: &'static str,
            agents: &'a [Value],
        }
        let item = |i: usize| {
            serde_json::json!({"agentId": format!("a{i}\nb"), "tools": ["read", "exec"], "empty": [], "none": {},
                "cells": [{"context": "main", "added": [], "nested": {"deep": [1, {"x": null}]}}]})
        };
        for count in [0, 1, 2, 600] {
            let items: Vec<Value> = (0..count).map(item).collect();
            let mut whole = Vec::new();
            write_machine_json(&mut whole, "matrix", &Whole { openclaw_version: "2026.9.6", agents: &items }).unwrap();
            let mut listed = Vec::new();
            let head = Head { openclaw_version: "2026.9.6" };
            write_machine_json_list(&mut listed, "matrix", &head, "agents", &items).unwrap();
            assert!(listed == whole, "{count} items:\n{}", String::from_utf8_lossy(&listed));
        }
    }

    /// Text written in small pieces, with characters split across them and across the large
    /// pieces the writer checks, comes out as the whole text escaped at once.
    #[test]
    fn a_safe_writer_escapes_text_however_it_is_cut() {
        let unit = "é€𝄞 \u{1b}[31m ok\n\u{7f}\t\u{202e}";
        let text: String = std::iter::repeat_n(unit, 2 * SafeWriter::<Vec<u8>>::PIECE / unit.len() + 7).collect();
        let expected = crate::base::escape::block(&text).into_owned();
        for cut in [1, 2, 3, 5, 4096, 65_535, 65_537] {
            let mut writer = SafeWriter::new(Vec::new(), false);
            for piece in text.as_bytes().chunks(cut) {
                writer.write_all(piece).unwrap();
            }
            writer.flush().unwrap();
            assert!(String::from_utf8(writer.inner).unwrap() == expected, "cut every {cut} bytes");
        }
        let mut styled = SafeWriter::new(Vec::new(), true);
        styled.write_all(text.as_bytes()).unwrap();
        styled.flush().unwrap();
        assert_eq!(styled.inner, text.as_bytes(), "a terminal gets the text as written");
    }

    #[test]
    fn an_unfinished_character_waits() {
        assert_eq!(whole_characters(b"ab"), 2);
        assert_eq!(whole_characters("a\u{e9}".as_bytes()), 3);
        assert_eq!(whole_characters(&"a\u{e9}".as_bytes()[..2]), 1);
        assert_eq!(whole_characters(&"a\u{1d11e}".as_bytes()[..4]), 1);
        assert_eq!(whole_characters("a\u{1d11e}".as_bytes()), 5);
        assert_eq!(whole_characters(&[0x80, 0x80, 0x80, 0x80, 0x80]), 5, "not UTF-8: written as it is");
    }
}

//! Reading the project's own YAML files (suppressions, suites, scenarios) with bounded work.
//!
//! libyaml, under serde_yaml_ng, spends time proportional to the flow-collection depth on every
//! token, so `[` repeated 40,000 times takes seconds before serde_yaml_ng's own recursion limit
//! (128) is even reached. A first pass streams libyaml's events and stops at the first collection
//! nested deeper than that limit, after a bounded amount of work; only then is the text parsed
//! for real. The pass uses libyaml's own scanner, so it sees exactly the nesting the parse would.
//! It also counts the values: a parsed value costs tens of bytes, and within 16 MiB a list of
//! millions of items took 700 MB to parse.

use std::mem::MaybeUninit;

use serde::de::DeserializeOwned;
use unsafe_libyaml as unsafe_sys;

/// The largest YAML file read (a suite scaffolded from a large fleet stays far below it).
pub const MAX_BYTES: usize = 16 * 1024 * 1024;
/// Deepest collection nesting accepted: serde_yaml_ng's recursion limit.
pub const MAX_DEPTH: usize = 128;
/// The most values (collections and scalars) a file may hold, as for JSON documents.
pub const MAX_VALUES: usize = crate::base::json::MAX_VALUES;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum YamlError {
    #[error("the file is {size} bytes; at most {MAX_BYTES} are read")]
    TooLarge { size: usize },
    #[error("collections are nested more than {MAX_DEPTH} deep at line {line} column {column}")]
    TooDeep { line: usize, column: usize },
    #[error("the file holds more than {MAX_VALUES} values (the next at line {line} column {column})")]
    TooManyValues { line: usize, column: usize },
    #[error("{0}")]
    Syntax(String),
}

/// Parses `text` after checking its size and nesting.
pub fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    if text.len() > MAX_BYTES {
        return Err(YamlError::TooLarge { size: text.len() });
    }
    check_shape(text)?;
    serde_yaml_ng::from_str(text).map_err(|e| YamlError::Syntax(e.to_string()))
}

/// Streams the events of every document in `text` and fails at the first collection nested
/// deeper than [`MAX_DEPTH`], or at the value past [`MAX_VALUES`]. Syntax errors are left to the
/// real parse, which reports them.
fn check_shape(text: &str) -> Result<(), YamlError> {
    let mut parser = Parser::new(text);
    let (mut depth, mut values) = (0usize, 0usize);
    while let Some(event) = parser.next_event() {
        if let Event::Open { line, column } | Event::Scalar { line, column } = event {
            values += 1;
            if values > MAX_VALUES {
                return Err(YamlError::TooManyValues { line, column });
            }
        }
        match event {
            Event::Open { line, column } => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(YamlError::TooDeep { line, column });
                }
            }
            Event::Close => depth = depth.saturating_sub(1),
            Event::Scalar { .. } | Event::Other => {}
        }
    }
    Ok(())
}

/// What the pass reads of an event; positions are 1-based.
#[derive(Clone, Copy)]
enum Event {
    /// A sequence or mapping starts.
    Open {
        line: usize,
        column: usize,
    },
    Close,
    /// A scalar or an alias.
    Scalar {
        line: usize,
        column: usize,
    },
    Other,
}

/// A libyaml event parser over a borrowed string.
struct Parser<'a> {
    raw: Box<MaybeUninit<unsafe_sys::yaml_parser_t>>,
    initialized: bool,
    done: bool,
    _text: std::marker::PhantomData<&'a str>,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Self {
        let mut raw = Box::new(MaybeUninit::<unsafe_sys::yaml_parser_t>::uninit());
        // SAFETY: `yaml_parser_initialize` fully initializes the boxed parser (the box never moves
        // it); the input string outlives the parser through the `'a` borrow.
        let initialized = unsafe {
            let parser = raw.as_mut_ptr();
            let initialized = unsafe_sys::yaml_parser_initialize(parser).ok;
            if initialized {
                unsafe_sys::yaml_parser_set_input_string(parser, text.as_ptr(), text.len() as u64);
            }
            initialized
        };
        Parser { raw, initialized, done: !initialized, _text: std::marker::PhantomData }
    }

    /// The next event, or `None` at the end of the stream or at a syntax error.
    fn next_event(&mut self) -> Option<Event> {
        if self.done {
            return None;
        }
        let mut event = MaybeUninit::<unsafe_sys::yaml_event_t>::uninit();
        // SAFETY: the parser was initialized (`done` is false); a successful `yaml_parser_parse`
        // initializes `event`, which is read and then released exactly once.
        unsafe {
            if unsafe_sys::yaml_parser_parse(self.raw.as_mut_ptr(), event.as_mut_ptr()).fail {
                self.done = true;
                return None;
            }
            let event = event.as_mut_ptr();
            let mark = (*event).start_mark;
            let (line, column) = (mark.line as usize + 1, mark.column as usize + 1);
            let kind = match (*event).type_ {
                unsafe_sys::YAML_SEQUENCE_START_EVENT | unsafe_sys::YAML_MAPPING_START_EVENT => {
                    Event::Open { line, column }
                }
                unsafe_sys::YAML_SCALAR_EVENT | unsafe_sys::YAML_ALIAS_EVENT => Event::Scalar { line, column },
                unsafe_sys::YAML_SEQUENCE_END_EVENT | unsafe_sys::YAML_MAPPING_END_EVENT => Event::Close,
                unsafe_sys::YAML_STREAM_END_EVENT => {
                    self.done = true;
                    Event::Other
                }
                _ => Event::Other,
            };
            unsafe_sys::yaml_event_delete(event);
            Some(kind)
        }
    }
}

impl Drop for Parser<'_> {
    fn drop(&mut self) {
        if self.initialized {
            // SAFETY: the parser was initialized and is deleted once.
            unsafe { unsafe_sys::yaml_parser_delete(self.raw.as_mut_ptr()) }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deep_flow_nesting_is_refused_quickly() {
        let started = std::time::Instant::now();
        let error = from_str::<serde_json::Value>(&format!("a: {}", "[".repeat(40_000))).unwrap_err();
        assert_eq!(error, YamlError::TooDeep { line: 1, column: 4 + MAX_DEPTH - 1 });
        let error = from_str::<serde_json::Value>(&format!("- {}x", "{a: ".repeat(40_000))).unwrap_err();
        assert!(matches!(error, YamlError::TooDeep { .. }), "{error}");
        assert!(started.elapsed() < std::time::Duration::from_secs(1), "{:?}", started.elapsed());
    }

    #[test]
    fn nesting_up_to_the_limit_and_brackets_in_text_are_fine() {
        let nested = format!("a: {}x{}", "[".repeat(MAX_DEPTH - 1), "]".repeat(MAX_DEPTH - 1));
        assert!(from_str::<serde_json::Value>(&nested).is_ok());
        let text = format!("a: \"{}\"\nb: x{}\nc: |\n  {}\n", "[".repeat(50_000), "[".repeat(1000), "{".repeat(1000));
        let value: serde_json::Value = from_str(&text).unwrap();
        assert_eq!(value["a"].as_str().map(str::len), Some(50_000));
    }

    #[test]
    fn a_file_of_more_values_than_the_budget_is_refused_at_the_value_past_it() {
        // The mapping and its key are two values; the list is the third.
        let items = |n: usize| format!("cases:\n{}", "- 1\n".repeat(n));
        assert!(from_str::<serde_json::Value>(&items(MAX_VALUES - 3)).is_ok());
        let error = from_str::<serde_json::Value>(&items(MAX_VALUES - 2)).unwrap_err();
        assert_eq!(error, YamlError::TooManyValues { line: MAX_VALUES - 1, column: 3 });
    }

    #[test]
    fn size_and_syntax_errors() {
        assert!(matches!(from_str::<serde_json::Value>(&" ".repeat(MAX_BYTES + 1)), Err(YamlError::TooLarge { .. })));
        assert!(matches!(from_str::<serde_json::Value>("a: [1, 2"), Err(YamlError::Syntax(_))));
    }
}

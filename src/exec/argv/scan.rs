//! The one option scanner: walks an argv from some index, token by token, telling options
//! (with the values they take) from operands and the end-of-options marker, as an option grammar
//! says. Wrappers, shells, interpreters, package managers, safe bins and the `openclaw` CLI all
//! read their options through it; what differs between them is the [`Grammar`] (which tokens
//! are options and what each takes) and the [`Walk`] (trimming, empty tokens, `--`).
//!
//! The scanner only classifies; each caller decides what an item means for it (stop at the first
//! operand, refuse an unknown option, look for one flag…). A new option grammar is a new
//! [`Grammar`] (often an [`OptionTable`]), never a new loop.

use crate::release::exec::{Case, OptionTable};

/// How a grammar reads one option token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Opt<'t> {
    /// Stands alone (or a cluster of such: `-xv`).
    Flag,
    /// Carries its value in the token itself (`--signal=TERM`, `-n5`).
    Attached(&'t str),
    /// Takes the next `n` tokens as values (`-o FILE`; bash's `-oo a b` takes two).
    Takes(usize),
    /// Not an option of this grammar.
    Unknown,
}

/// An option grammar.
pub trait Grammar {
    /// Whether `token` is written as an option rather than an operand. Most programs: it starts
    /// with `-` and is not `-` alone.
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-') && token != "-"
    }

    /// How the option `token` reads.
    fn option<'t>(&self, token: &'t str) -> Opt<'t>;
}

impl<G: Grammar + ?Sized> Grammar for &G {
    fn is_option(&self, token: &str) -> bool {
        (**self).is_option(token)
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        (**self).option(token)
    }
}

/// Every token starting with `-` (`-` alone too) is a standalone flag: for looking for a flag
/// wherever it is, no token taken as a value.
pub struct AnyFlag;

impl Grammar for AnyFlag {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-')
    }

    fn option<'t>(&self, _: &'t str) -> Opt<'t> {
        Opt::Flag
    }
}

/// What the scanner does with an empty token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Empty {
    /// Reported as [`Item::Empty`]; read as a value when one is due.
    Report,
    /// Passed over where an option or operand is expected; still read as a value when one is due.
    Skip,
    /// Passed over everywhere, values included.
    Ignore,
}

/// How the scanner walks, beside the grammar.
#[derive(Debug, Clone, Copy)]
pub struct Walk {
    /// Tokens are trimmed before they are read.
    pub trim: bool,
    pub empty: Empty,
    /// Tokens that end the options (`--`): every later token is an operand.
    pub end_of_options: &'static [&'static str],
}

impl Walk {
    /// Trimmed tokens, empty ones ignored, `--` ends the options: how wrappers are read.
    pub const WRAPPER: Walk = Walk { trim: true, empty: Empty::Ignore, end_of_options: &["--"] };
    /// Trimmed tokens, empty ones skipped (still read as values), `--` ends the options.
    pub const TRIMMED: Walk = Walk { trim: true, empty: Empty::Skip, end_of_options: &["--"] };
    /// Tokens as written, an empty one reported, `--` ends the options: how carriers are read.
    pub const RAW: Walk = Walk { trim: false, empty: Empty::Report, end_of_options: &["--"] };
}

/// One step of a scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Item<'a> {
    /// An option; `value` is its first separate value, `complete` whether every value it takes
    /// was there, and `next` the index after it and its values.
    Option { index: usize, token: &'a str, opt: Opt<'a>, value: Option<&'a str>, complete: bool, next: usize },
    /// The end-of-options marker.
    EndOfOptions { index: usize },
    /// An operand (everything after the end-of-options marker is one).
    Operand { index: usize, token: &'a str },
    /// An empty token (with [`Empty::Report`]).
    Empty { index: usize },
}

impl Item<'_> {
    /// Where the item is in the argv.
    pub fn index(&self) -> usize {
        match self {
            Item::Option { index, .. }
            | Item::EndOfOptions { index }
            | Item::Operand { index, .. }
            | Item::Empty { index } => *index,
        }
    }
}

/// The scan of `argv` from index `from`.
pub struct Scan<'a, G: ?Sized> {
    argv: &'a [String],
    index: usize,
    walk: Walk,
    grammar: &'a G,
    options_ended: bool,
}

/// Scans `argv` from index `from` with `grammar`.
pub fn scan<'a, G: Grammar + ?Sized>(argv: &'a [String], from: usize, walk: Walk, grammar: &'a G) -> Scan<'a, G> {
    Scan { argv, index: from, walk, grammar, options_ended: false }
}

impl<'a, G: Grammar + ?Sized> Scan<'a, G> {
    fn token(&self, index: usize) -> &'a str {
        let token = self.argv[index].as_str();
        if self.walk.trim { token.trim() } else { token }
    }

    /// Reads `count` values after `index`; returns the first, whether all were there, and the
    /// index after them.
    fn values(&self, index: usize, count: usize) -> (Option<&'a str>, bool, usize) {
        let mut at = index + 1;
        let mut first = None;
        let mut taken = 0;
        while taken < count && at < self.argv.len() {
            if self.walk.empty == Empty::Ignore && self.token(at).is_empty() {
                at += 1;
                continue;
            }
            first = first.or(Some(self.token(at)));
            taken += 1;
            at += 1;
        }
        (first, taken == count, at)
    }
}

impl<'a, G: Grammar + ?Sized> Iterator for Scan<'a, G> {
    type Item = Item<'a>;

    fn next(&mut self) -> Option<Item<'a>> {
        loop {
            let index = self.index;
            if index >= self.argv.len() {
                return None;
            }
            let token = self.token(index);
            self.index += 1;
            if token.is_empty() && self.walk.empty != Empty::Report {
                continue;
            }
            if self.options_ended {
                return Some(Item::Operand { index, token });
            }
            if token.is_empty() {
                return Some(Item::Empty { index });
            }
            if self.walk.end_of_options.contains(&token) {
                self.options_ended = true;
                return Some(Item::EndOfOptions { index });
            }
            if !self.grammar.is_option(token) {
                return Some(Item::Operand { index, token });
            }
            let opt = self.grammar.option(token);
            let (value, complete, next) = match opt {
                Opt::Takes(count) => self.values(index, count),
                Opt::Attached(value) => (Some(value), true, index + 1),
                Opt::Flag | Opt::Unknown => (None, true, index + 1),
            };
            self.index = next;
            return Some(Item::Option { index, token, opt, value, complete, next });
        }
    }
}

/// Splits `--name=value` / `-x=v` at the first `=` (`parseInlineOptionToken`).
pub fn option_name(token: &str) -> &str {
    token.split_once('=').map_or(token, |(name, _)| name)
}

impl OptionTable {
    fn compared<'t>(&self, token: &'t str) -> std::borrow::Cow<'t, str> {
        let short = !token.starts_with("--");
        match self.case {
            Case::Sensitive => token.into(),
            Case::ShortSensitive if short => token.into(),
            _ => token.to_lowercase().into(),
        }
    }

    fn names(list: &[String], name: &str) -> bool {
        list.iter().any(|n| n == name)
    }
}

impl Grammar for OptionTable {
    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        let compared = self.compared(token);
        let name = option_name(&compared);
        let inline = token.split_once('=').map(|(_, value)| value);
        if self.exact_flags {
            if Self::names(&self.flags, &compared) {
                return Opt::Flag;
            }
        } else if Self::names(&self.flags, name) {
            return Opt::Flag;
        }
        if Self::names(&self.value_flags, name) {
            return inline.map_or(Opt::Takes(1), Opt::Attached);
        }
        let short = !token.starts_with("--");
        if self.numeric_flags && compared.len() > 1 && compared[1..].bytes().all(|b| b.is_ascii_digit()) {
            return Opt::Flag;
        }
        if self.attached_values && short {
            let attached =
                self.value_flags.iter().filter(|f| f.len() == 2).find_map(|f| compared.strip_prefix(f.as_str()));
            if let Some(value) = attached.filter(|v| !v.is_empty()) {
                return Opt::Attached(&token[token.len() - value.len()..]);
            }
        }
        let cluster = || token[1..].chars().all(|c| Self::names(&self.flags, &self.compared(&format!("-{c}"))));
        if self.flag_clusters && short && token.len() > 1 && cluster() {
            return Opt::Flag;
        }
        Opt::Unknown
    }
}

/// Options as carriers read them (`parseCarrierOptionToken`): `--name`, `--name=value`, or a
/// cluster of short options (`-iu NAME`) in which a value option takes the rest of the cluster
/// or, last, the next token; any unknown option refuses the token, and so does `-` alone.
pub struct CarrierOptions<'g, S> {
    pub flags: &'g [S],
    pub value_flags: &'g [S],
}

impl<S: AsRef<str>> CarrierOptions<'_, S> {
    fn has(list: &[S], name: &str) -> bool {
        list.iter().any(|n| n.as_ref() == name)
    }
}

impl<S: AsRef<str>> Grammar for CarrierOptions<'_, S> {
    fn is_option(&self, token: &str) -> bool {
        token.starts_with('-')
    }

    fn option<'t>(&self, token: &'t str) -> Opt<'t> {
        if token.starts_with("--") {
            let name = option_name(token);
            if Self::has(self.flags, name) {
                return Opt::Flag;
            }
            if !Self::has(self.value_flags, name) {
                return Opt::Unknown;
            }
            return token.split_once('=').map_or(Opt::Takes(1), |(_, value)| Opt::Attached(value));
        }
        if !token.chars().nth(1).is_some_and(|c| c.is_ascii_alphanumeric()) {
            return Opt::Unknown;
        }
        for (at, c) in token.char_indices().skip(1) {
            let name = format!("-{c}");
            if Self::has(self.value_flags, &name) {
                let rest = &token[at + c.len_utf8()..];
                return if rest.is_empty() { Opt::Takes(1) } else { Opt::Attached(rest) };
            }
            if !Self::has(self.flags, &name) {
                return Opt::Unknown;
            }
        }
        Opt::Flag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    fn table(flags: &[&str], value_flags: &[&str]) -> OptionTable {
        OptionTable {
            flags: flags.iter().map(|f| f.to_string()).collect(),
            value_flags: value_flags.iter().map(|f| f.to_string()).collect(),
            ..OptionTable::default()
        }
    }

    fn kinds(argv: &[String], walk: Walk, grammar: &impl Grammar) -> Vec<String> {
        scan(argv, 1, walk, grammar)
            .map(|item| match item {
                Item::Option { token, opt, value, .. } => format!("{token}:{opt:?}:{value:?}"),
                Item::EndOfOptions { .. } => "--".into(),
                Item::Operand { token, .. } => format!("operand {token}"),
                Item::Empty { .. } => "empty".into(),
            })
            .collect()
    }

    #[test]
    fn options_values_and_operands() {
        let grammar = table(&["-v"], &["-k", "--signal"]);
        let a = argv("timeout -v -k 5 --signal=TERM -x 10 ls");
        assert_eq!(
            kinds(&a, Walk::WRAPPER, &grammar),
            [
                "-v:Flag:None",
                "-k:Takes(1):Some(\"5\")",
                "--signal=TERM:Attached(\"TERM\"):Some(\"TERM\")",
                "-x:Unknown:None",
                "operand 10",
                "operand ls"
            ]
        );
        let after = argv("x -v -- -k");
        assert_eq!(kinds(&after, Walk::WRAPPER, &grammar), ["-v:Flag:None", "--", "operand -k"]);
    }

    #[test]
    fn empty_tokens_per_walk() {
        let grammar = table(&[], &["-k"]);
        let a = vec!["x".to_string(), "-k".into(), "".into(), "5".into(), "ls".into()];
        assert_eq!(kinds(&a, Walk::WRAPPER, &grammar), ["-k:Takes(1):Some(\"5\")", "operand ls"]);
        assert_eq!(kinds(&a, Walk::TRIMMED, &grammar), ["-k:Takes(1):Some(\"\")", "operand 5", "operand ls"]);
        let b = vec!["x".to_string(), "".into(), "ls".into()];
        assert_eq!(kinds(&b, Walk::RAW, &grammar), ["empty", "operand ls"]);
        let missing = argv("x -k");
        let last = scan(&missing, 1, Walk::WRAPPER, &grammar).last().unwrap();
        assert!(matches!(last, Item::Option { complete: false, next: 2, .. }));
    }

    #[test]
    fn table_switches() {
        let nice = OptionTable { attached_values: true, numeric_flags: true, ..table(&[], &["-n", "--adjustment"]) };
        assert_eq!(nice.option("-n5"), Opt::Attached("5"));
        assert_eq!(nice.option("-N5"), Opt::Attached("5"));
        assert_eq!(nice.option("-5"), Opt::Flag);
        assert_eq!(nice.option("--adjustment5"), Opt::Unknown);
        assert_eq!(table(&[], &["-k"]).option("-k5"), Opt::Unknown, "no attached values by default");
        let nohup = OptionTable { exact_flags: true, ..table(&["--help"], &[]) };
        assert_eq!((nohup.option("--HELP"), nohup.option("--help=x")), (Opt::Flag, Opt::Unknown));
        let flock = OptionTable {
            case: Case::ShortSensitive,
            flag_clusters: true,
            ..table(&["-F", "-n", "-x", "--nb"], &["-E"])
        };
        assert_eq!(
            (flock.option("-nx"), flock.option("-Fn"), flock.option("-fn")),
            (Opt::Flag, Opt::Flag, Opt::Unknown)
        );
        assert_eq!((flock.option("--NB"), flock.option("-e")), (Opt::Flag, Opt::Unknown));
    }

    #[test]
    fn carrier_clusters() {
        let sudo = CarrierOptions { flags: &["-E", "-n", "--login"], value_flags: &["-u", "--user"] };
        assert_eq!(sudo.option("-nE"), Opt::Flag);
        assert_eq!(sudo.option("-nu"), Opt::Takes(1));
        assert_eq!(sudo.option("-nuroot"), Opt::Attached("root"));
        assert_eq!(sudo.option("-nx"), Opt::Unknown);
        assert_eq!(sudo.option("--user=root"), Opt::Attached("root"));
        assert_eq!(sudo.option("--login=x"), Opt::Flag);
        assert_eq!(sudo.option("-"), Opt::Unknown);
    }
}

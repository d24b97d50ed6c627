//! GKE's CEL label selectors over `resource.labels`: parsing (with the column of every syntax error),
//! matching against a cluster's labels, and a canonical text.
//!
//! Only the subset GKE documents for rollout-sequence selectors is accepted: `==`, `!=`, `in [..]`,
//! `'key' in resource.labels`, `has(resource.labels.key)`, `&&`, `||`, `!`, parentheses, `true`,
//! `false`, and string literals (single, double, triple-quoted and raw, with CEL's escapes).
//!
//! Evaluation follows CEL: reading a label the cluster does not have (`resource.labels.env`) is a
//! "no such key" error, not an empty string. `&&` and `||` absorb an error when the other side decides
//! (`false && error` is false, `true || error` is true), `!error` is an error, and an expression that
//! ends in an error selects no cluster. So `resource.labels.env != 'prod'` does NOT select a cluster
//! without an `env` label — the surprise users meet in GKE; [`Expr::evaluate`] reports it so the plan
//! can say so.

use std::fmt;

use crate::label_map::LabelMap;
#[cfg(test)]
use crate::sorted_map::SortedMap;

/// Parentheses and `!` nested deeper than this are refused (no selector comes close; the parser and
/// every walk over the tree recurse, and `&&`/`||` chains are flat, so this bounds the stack).
pub const MAX_DEPTH: usize = 64;

/// A parsed selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr {
    Bool(bool),
    /// `a == b` over strings (label values or literals).
    Eq(Operand, Operand),
    /// `a != b`.
    Ne(Operand, Operand),
    /// `a in ['x', 'y']`.
    InList(Operand, Vec<String>),
    /// `a in resource.labels`: the cluster has a label with key `a`.
    InLabels(Operand),
    /// `has(resource.labels.key)`.
    Has(String),
    Not(Box<Expr>),
    /// Two or more terms, kept flat so long chains do not deepen the tree.
    And(Vec<Expr>),
    Or(Vec<Expr>),
}

/// A string-valued term.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Operand {
    /// `resource.labels.key` or `resource.labels['key']`.
    Label(String),
    Str(String),
}

/// A syntax error: where (1-based character column in the selector text) and what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CelError {
    pub column: usize,
    pub message: String,
}

impl fmt::Display for CelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "column {}: {}", self.column, self.message)
    }
}

/// Evaluating read a label the cluster does not have (CEL: `no such key: KEY`). The key is the
/// expression's own text: a selector is evaluated per cluster, and a copy of the key for each cluster
/// lacking it was three allocations per such cluster (a GKE fleet where a stage's label is set on
/// some regions only has hundreds of them per thousand clusters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoSuchKey<'e> {
    pub key: &'e str,
}

impl fmt::Display for NoSuchKey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no such key: {}", self.key)
    }
}

/// Parses a selector. Never panics; nesting deeper than [`MAX_DEPTH`] is an error.
pub fn parse(text: &str) -> Result<Expr, CelError> {
    let tokens = lex(text)?;
    let mut p = Parser {
        tokens,
        pos: 0,
        depth: 0,
    };
    if p.peek().kind == Tok::End {
        return Err(p.err_here("expected a selector expression, found an empty text"));
    }
    let e = p.or()?;
    if p.peek().kind != Tok::End {
        let t = p.peek();
        return Err(CelError {
            column: t.column,
            message: format!(
                "expected `&&`, `||` or the end of the selector, found {}",
                t.kind.describe()
            ),
        });
    }
    Ok(e)
}

/// Where an expression reads a cluster's labels: its map, or a view of it with keys added (the
/// missing-label check fills keys in without copying the map).
pub trait Labels {
    fn label(&self, key: &str) -> Option<&str>;
}

#[cfg(test)]
impl Labels for SortedMap<String, String> {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key).map(String::as_str)
    }
}

impl Labels for LabelMap {
    fn label(&self, key: &str) -> Option<&str> {
        self.get(key)
    }
}

impl Expr {
    /// Whether a cluster with these labels is selected. An evaluation error (a missing label read by
    /// `==`, `!=` or `in` without `&&`/`||` deciding otherwise) selects nothing.
    pub fn matches<L: Labels + ?Sized>(&self, labels: &L) -> bool {
        self.evaluate(labels) == Ok(true)
    }

    /// CEL's three-valued result: `Err` names the first missing label the outcome depended on.
    pub fn evaluate<L: Labels + ?Sized>(&self, labels: &L) -> Result<bool, NoSuchKey<'_>> {
        match self {
            Expr::Bool(b) => Ok(*b),
            Expr::Eq(a, b) => Ok(a.value(labels)? == b.value(labels)?),
            Expr::Ne(a, b) => Ok(a.value(labels)? != b.value(labels)?),
            Expr::InList(a, list) => {
                let v = a.value(labels)?;
                Ok(list.iter().any(|x| x == v))
            }
            Expr::InLabels(a) => Ok(labels.label(a.value(labels)?).is_some()),
            Expr::Has(k) => Ok(labels.label(k).is_some()),
            Expr::Not(e) => e.evaluate(labels).map(|b| !b),
            Expr::And(terms) => combine(terms, labels, false),
            Expr::Or(terms) => combine(terms, labels, true),
        }
    }
}

/// `&&` (decisive = false) and `||` (decisive = true) with CEL's commutative error absorption.
fn combine<'e, L: Labels + ?Sized>(
    terms: &'e [Expr],
    labels: &L,
    decisive: bool,
) -> Result<bool, NoSuchKey<'e>> {
    let mut error = None;
    for t in terms {
        match t.evaluate(labels) {
            Ok(b) if b == decisive => return Ok(decisive),
            Ok(_) => {}
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(!decisive),
    }
}

impl Operand {
    fn value<'a, 'e: 'a, L: Labels + ?Sized>(
        &'e self,
        labels: &'a L,
    ) -> Result<&'a str, NoSuchKey<'e>> {
        match self {
            Operand::Str(s) => Ok(s),
            Operand::Label(k) => labels.label(k).ok_or(NoSuchKey { key: k }),
        }
    }
}

// ---------------------------------------------------------------------------------------------------
// Canonical text

impl fmt::Display for Expr {
    /// Canonical text: single-quoted strings, `resource.labels.key` when the key is an identifier,
    /// spaces around binary operators, parentheses only where precedence needs them.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Expr::Bool(b) => write!(f, "{b}"),
            Expr::Eq(a, b) => write!(f, "{a} == {b}"),
            Expr::Ne(a, b) => write!(f, "{a} != {b}"),
            Expr::InList(a, list) => {
                write!(f, "{a} in [")?;
                for (i, s) in list.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write_str_literal(f, s)?;
                }
                f.write_str("]")
            }
            Expr::InLabels(a) => write!(f, "{a} in resource.labels"),
            Expr::Has(k) => write!(f, "has(resource.labels.{k})"),
            Expr::Not(e) => match **e {
                Expr::Bool(_) | Expr::Has(_) | Expr::Not(_) => write!(f, "!{e}"),
                _ => write!(f, "!({e})"),
            },
            Expr::And(terms) => write_joined(f, terms, " && ", |t| matches!(t, Expr::Or(_))),
            Expr::Or(terms) => write_joined(f, terms, " || ", |_| false),
        }
    }
}

fn write_joined(
    f: &mut fmt::Formatter<'_>,
    terms: &[Expr],
    sep: &str,
    needs_parens: impl Fn(&Expr) -> bool,
) -> fmt::Result {
    for (i, t) in terms.iter().enumerate() {
        if i > 0 {
            f.write_str(sep)?;
        }
        // A nested chain of the same operator only exists when the user parenthesised it; keep that.
        let same = matches!((t, sep), (Expr::And(_), " && ") | (Expr::Or(_), " || "));
        if needs_parens(t) || same {
            write!(f, "({t})")?;
        } else {
            write!(f, "{t}")?;
        }
    }
    Ok(())
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Str(s) => write_str_literal(f, s),
            Operand::Label(k) if is_identifier(k) => write!(f, "resource.labels.{k}"),
            Operand::Label(k) => {
                f.write_str("resource.labels[")?;
                write_str_literal(f, k)?;
                f.write_str("]")
            }
        }
    }
}

fn write_str_literal(f: &mut fmt::Formatter<'_>, s: &str) -> fmt::Result {
    f.write_str("'")?;
    for c in s.chars() {
        match c {
            '\'' => f.write_str("\\'")?,
            '\\' => f.write_str("\\\\")?,
            '\n' => f.write_str("\\n")?,
            '\r' => f.write_str("\\r")?,
            '\t' => f.write_str("\\t")?,
            c if c.is_control() => write!(f, "\\u{:04x}", c as u32)?,
            c => write!(f, "{c}")?,
        }
    }
    f.write_str("'")
}

/// A CEL identifier that is not a reserved word, so `resource.labels.KEY` reads back as that key.
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok && chars.all(|c| c.is_ascii_alphanumeric() || c == '_') && !is_reserved(s)
}

/// CEL's reserved words and literals: not usable as a field name after `.`.
fn is_reserved(s: &str) -> bool {
    matches!(
        s,
        "true"
            | "false"
            | "null"
            | "in"
            | "as"
            | "break"
            | "const"
            | "continue"
            | "else"
            | "for"
            | "function"
            | "if"
            | "import"
            | "let"
            | "loop"
            | "package"
            | "namespace"
            | "return"
            | "var"
            | "void"
            | "while"
    )
}

// ---------------------------------------------------------------------------------------------------
// Lexer

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Number(String),
    /// Punctuation and operators, as written.
    Punct(&'static str),
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => format!("`{s}`"),
            Tok::Str(s) => format!("the string '{}'", truncate(s)),
            Tok::Number(n) => format!("the number `{n}`"),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::End => "the end of the selector".into(),
        }
    }
}

fn truncate(s: &str) -> String {
    if s.chars().count() > 40 {
        let head: String = s.chars().take(37).collect();
        format!("{head}...")
    } else {
        s.to_string()
    }
}

#[derive(Clone, Debug)]
struct Token {
    kind: Tok,
    /// 1-based character column of the token's first character.
    column: usize,
}

const PUNCT: &[&str] = &[
    "==", "!=", "&&", "||", "<=", ">=", "(", ")", "[", "]", "{", "}", ",", ".", "!", "<", ">", "?",
    ":", "+", "-", "*", "/", "%", "=", "&", "|",
];

fn lex(text: &str) -> Result<Vec<Token>, CelError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let column = i + 1;
        if c.is_whitespace() {
            i += 1;
            continue;
        }
        // Raw strings: r'...' / R"..." (no escapes).
        if matches!(c, 'r' | 'R') && matches!(chars.get(i + 1), Some('\'' | '"')) {
            let (s, next) = string(&chars, i + 1, true)?;
            out.push(Token {
                kind: Tok::Str(s),
                column,
            });
            i = next;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token {
                kind: Tok::Ident(chars[start..i].iter().collect()),
                column,
            });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                i += 1;
            }
            out.push(Token {
                kind: Tok::Number(chars[start..i].iter().collect()),
                column,
            });
            continue;
        }
        if c == '\'' || c == '"' {
            let (s, next) = string(&chars, i, false)?;
            out.push(Token {
                kind: Tok::Str(s),
                column,
            });
            i = next;
            continue;
        }
        let two: String = chars[i..chars.len().min(i + 2)].iter().collect();
        if let Some(p) = PUNCT
            .iter()
            .find(|p| p.len() == 2 && **p == two)
            .or_else(|| PUNCT.iter().find(|p| p.len() == 1 && p.starts_with(c)))
        {
            out.push(Token {
                kind: Tok::Punct(p),
                column,
            });
            i += p.len();
            continue;
        }
        return Err(CelError {
            column,
            message: format!("unexpected character `{c}`"),
        });
    }
    out.push(Token {
        kind: Tok::End,
        column: chars.len() + 1,
    });
    Ok(out)
}

/// A string literal starting at `start` (its opening quote). Returns the value and the index after it.
fn string(chars: &[char], start: usize, raw: bool) -> Result<(String, usize), CelError> {
    let q = chars[start];
    let triple = chars.get(start + 1) == Some(&q) && chars.get(start + 2) == Some(&q);
    let mut i = start + if triple { 3 } else { 1 };
    let mut out = String::new();
    loop {
        let Some(&c) = chars.get(i) else {
            return Err(CelError {
                column: start + 1,
                message: format!(
                    "unterminated string: expected a closing {q}, found the end of the selector"
                ),
            });
        };
        if c == q {
            if !triple {
                return Ok((out, i + 1));
            }
            if chars.get(i + 1) == Some(&q) && chars.get(i + 2) == Some(&q) {
                return Ok((out, i + 3));
            }
        }
        if !triple && (c == '\n' || c == '\r') {
            return Err(CelError {
                column: i + 1,
                message: format!("unterminated string: expected a closing {q} before the line break (use triple quotes for text over several lines)"),
            });
        }
        if c == '\\' && !raw {
            let (decoded, next) = escape(chars, i)?;
            out.push(decoded);
            i = next;
            continue;
        }
        out.push(c);
        i += 1;
    }
}

/// One escape sequence at `at` (the backslash), as CEL defines them.
fn escape(chars: &[char], at: usize) -> Result<(char, usize), CelError> {
    let bad = |message: String| CelError {
        column: at + 1,
        message,
    };
    let Some(&c) = chars.get(at + 1) else {
        return Err(bad(
            "expected an escape sequence after `\\`, found the end of the selector".into(),
        ));
    };
    let simple = match c {
        '\\' => Some('\\'),
        '\'' => Some('\''),
        '"' => Some('"'),
        '`' => Some('`'),
        '?' => Some('?'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'a' => Some('\u{7}'),
        'b' => Some('\u{8}'),
        'f' => Some('\u{c}'),
        'v' => Some('\u{b}'),
        _ => None,
    };
    if let Some(s) = simple {
        return Ok((s, at + 2));
    }
    let (digits, radix, skip) = match c {
        'x' | 'X' => (2, 16, 2),
        'u' => (4, 16, 2),
        'U' => (8, 16, 2),
        '0'..='3' => (3, 8, 1),
        _ => {
            return Err(bad(format!(
                "unknown escape `\\{c}`; expected one of \\\\ \\' \\\" \\n \\r \\t \\xHH \\uHHHH"
            )))
        }
    };
    let from = at + skip;
    let text: String = chars.iter().skip(from).take(digits).collect();
    let valid = text.chars().count() == digits && text.chars().all(|d| d.is_digit(radix));
    let decoded = valid
        .then(|| u32::from_str_radix(&text, radix).ok())
        .flatten()
        .and_then(char::from_u32);
    match decoded {
        Some(d) => Ok((d, from + digits)),
        None => Err(bad(format!(
            "invalid escape `\\{}`: expected {digits} {} digits",
            chars[at + 1..(from + digits).min(chars.len())]
                .iter()
                .collect::<String>(),
            if radix == 16 { "hexadecimal" } else { "octal" }
        ))),
    }
}

/// `resource.labels.prod-region` parses in CEL as `resource.labels.prod - region` and fails; say so,
/// and give the form that reads the key.
fn dashed_key_error(key: &str, column: usize, in_has: bool) -> CelError {
    let (first, rest) = key.split_once('-').unwrap_or((key, ""));
    let fix = if in_has {
        format!("'{key}' in resource.labels (has() takes only keys without `-`)")
    } else {
        format!("resource.labels['{key}']")
    };
    CelError {
        column,
        message: format!(
            "`resource.labels.{key}` reads as `resource.labels.{first} - {}` (a subtraction), not as the label `{key}`: write {fix}",
            rest.replace('-', " - ")
        ),
    }
}

// ---------------------------------------------------------------------------------------------------
// Parser

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

/// What a term turned out to be before an operator gives it a role.
enum Term {
    Bool(Expr),
    Value(Operand),
    List(Vec<String>),
    /// `resource.labels` itself (only the right side of `in`).
    Labels,
}

const EXPECTED_TERM: &str = "a label (resource.labels.KEY), a string, `has(`, `!` or `(`";

impl Parser {
    fn peek(&self) -> &Token {
        // The token list always ends with End, and `pos` never passes it.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn next(&mut self) -> Token {
        let t = self.peek().clone();
        if self.pos < self.tokens.len() - 1 {
            self.pos += 1;
        }
        t
    }

    fn at(&self, p: &str) -> bool {
        matches!(&self.peek().kind, Tok::Punct(q) if *q == p)
    }

    fn err_here(&self, message: impl Into<String>) -> CelError {
        CelError {
            column: self.peek().column,
            message: message.into(),
        }
    }

    fn expect(&mut self, p: &str, context: &str) -> Result<(), CelError> {
        if self.at(p) {
            self.next();
            return Ok(());
        }
        Err(self.err_here(format!(
            "expected `{p}`{context}, found {}",
            self.peek().kind.describe()
        )))
    }

    /// One more level of `(` or `!`, the one written at `column`.
    fn enter(&mut self, column: usize) -> Result<(), CelError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(CelError {
                column,
                message: format!("the selector is nested more than {MAX_DEPTH} levels deep"),
            });
        }
        Ok(())
    }

    fn or(&mut self) -> Result<Expr, CelError> {
        let mut terms = vec![self.and()?];
        while self.at("||") {
            self.next();
            terms.push(self.and()?);
        }
        Ok(if terms.len() == 1 {
            terms.pop().unwrap_or(Expr::Bool(false))
        } else {
            Expr::Or(terms)
        })
    }

    fn and(&mut self) -> Result<Expr, CelError> {
        let mut terms = vec![self.relation()?];
        loop {
            if self.at("&") {
                return Err(self.err_here("expected `&&`, found `&`"));
            }
            if self.at("|") {
                return Err(self.err_here("expected `||`, found `|`"));
            }
            if let Tok::Ident(w) = &self.peek().kind {
                let op = match w.to_ascii_lowercase().as_str() {
                    "and" => "&&",
                    "or" => "||",
                    _ => "",
                };
                if !op.is_empty() {
                    return Err(self.err_here(format!(
                        "expected `{op}`, found `{w}` (CEL writes it `{op}`)"
                    )));
                }
            }
            if !self.at("&&") {
                break;
            }
            self.next();
            terms.push(self.relation()?);
        }
        Ok(if terms.len() == 1 {
            terms.pop().unwrap_or(Expr::Bool(false))
        } else {
            Expr::And(terms)
        })
    }

    fn relation(&mut self) -> Result<Expr, CelError> {
        let start = self.peek().column;
        let left = self.unary()?;
        let op = match &self.peek().kind {
            Tok::Punct(p @ ("==" | "!=")) => *p,
            Tok::Ident(w) if w == "in" => "in",
            Tok::Punct(p @ ("<" | "<=" | ">" | ">=")) => {
                return Err(self.err_here(format!(
                "`{p}` is not supported: label values are strings compared with `==`, `!=` or `in`"
            )))
            }
            Tok::Punct("=") => {
                return Err(
                    self.err_here("expected `==` (CEL compares with two equals signs), found `=`")
                )
            }
            _ => {
                return match left {
                    Term::Bool(e) => Ok(e),
                    Term::Value(_) | Term::Labels => Err(self.err_here(format!(
                        "expected `==`, `!=` or `in` after the value at column {start}, found {}",
                        self.peek().kind.describe()
                    ))),
                    Term::List(_) => Err(CelError {
                        column: start,
                        message: "a list is only allowed after `in`".into(),
                    }),
                }
            }
        };
        let op_column = self.next().column;
        let Term::Value(left) = left else {
            return Err(CelError {
                column: start,
                message: format!(
                    "the left side of `{op}` must be a label (resource.labels.KEY) or a string"
                ),
            });
        };
        let right_column = self.peek().column;
        // The right side is a value, never a condition: `in ('x')` is a list written with the wrong
        // brackets, not a parenthesised expression.
        if self.at("(") || self.at("!") {
            let message = if op == "in" {
                "expected a list of strings such as ['a', 'b'] (or resource.labels) after `in`"
                    .into()
            } else {
                format!(
                    "the right side of `{op}` (column {op_column}) must be a label (resource.labels.KEY) or a string"
                )
            };
            return Err(CelError {
                column: right_column,
                message,
            });
        }
        let right = self.unary()?;
        let expr = match (op, right) {
            ("==", Term::Value(r)) => Expr::Eq(left, r),
            ("!=", Term::Value(r)) => Expr::Ne(left, r),
            ("in", Term::List(list)) => Expr::InList(left, list),
            ("in", Term::Labels) => Expr::InLabels(left),
            ("in", _) => {
                return Err(CelError {
                    column: right_column,
                    message: "expected a list of strings such as ['a', 'b'] (or resource.labels) after `in`".into(),
                })
            }
            _ => {
                return Err(CelError {
                    column: right_column,
                    message: format!(
                        "the right side of `{op}` (column {op_column}) must be a label (resource.labels.KEY) or a string"
                    ),
                })
            }
        };
        // `a == b == c` is legal CEL but compares a bool with a string: always a type error.
        if matches!(&self.peek().kind, Tok::Punct("==" | "!="))
            || self.peek().kind == Tok::Ident("in".into())
        {
            return Err(self.err_here(format!(
                "expected `&&`, `||` or `)` after a comparison, found {} (compare one pair at a time)",
                self.peek().kind.describe()
            )));
        }
        Ok(expr)
    }

    fn unary(&mut self) -> Result<Term, CelError> {
        if self.at("!") {
            let column = self.next().column;
            self.enter(column)?;
            let inner_column = self.peek().column;
            let inner = self.unary()?;
            self.depth -= 1;
            return match inner {
                Term::Bool(e) => Ok(Term::Bool(Expr::Not(Box::new(e)))),
                _ => Err(CelError {
                    column: inner_column,
                    message: format!(
                        "`!` at column {column} negates only the next term, which is not a condition; write !( ... ) around the comparison"
                    ),
                }),
            };
        }
        if self.at("-") {
            return Err(self.err_here(format!("expected {EXPECTED_TERM}, found `-`")));
        }
        self.primary()
    }

    fn primary(&mut self) -> Result<Term, CelError> {
        let t = self.next();
        match t.kind {
            Tok::Punct("(") => {
                self.enter(t.column)?;
                let e = self.or()?;
                self.depth -= 1;
                self.expect(")", &format!(" to close the `(` at column {}", t.column))?;
                Ok(Term::Bool(e))
            }
            Tok::Punct("[") => self.list(t.column),
            Tok::Str(s) => Ok(Term::Value(Operand::Str(s))),
            Tok::Ident(w) => match w.as_str() {
                "true" => Ok(Term::Bool(Expr::Bool(true))),
                "false" => Ok(Term::Bool(Expr::Bool(false))),
                "has" => self.has(t.column),
                "resource" => self.resource(t.column, false),
                "not" | "NOT" => Err(CelError {
                    column: t.column,
                    message: format!("expected a condition, found `{w}`: CEL negates with `!`, as in !has(resource.labels.KEY)"),
                }),
                "null" => Err(CelError {
                    column: t.column,
                    message: "`null` is not a label value; use has(resource.labels.KEY) to test whether a label is set".into(),
                }),
                _ if self.at("(") => Err(CelError {
                    column: t.column,
                    message: format!(
                        "unsupported function `{w}`: GKE label selectors support only has(resource.labels.KEY)"
                    ),
                }),
                _ => Err(CelError {
                    column: t.column,
                    message: format!(
                        "unknown name `{w}`: labels are read as resource.labels.KEY, and strings need quotes ('{w}')"
                    ),
                }),
            },
            Tok::Number(n) => Err(CelError {
                column: t.column,
                message: format!(
                    "expected {EXPECTED_TERM}, found the number `{n}`; label values are strings, so quote it: '{n}'"
                ),
            }),
            other => Err(CelError {
                column: t.column,
                message: format!("expected {EXPECTED_TERM}, found {}", other.describe()),
            }),
        }
    }

    /// After `resource` (written at `column`): `.labels`, then `.key`, `['key']`, or nothing
    /// (`resource.labels` itself). `in_has`: inside `has(...)`, where the fix for a dashed key differs.
    fn resource(&mut self, column: usize, in_has: bool) -> Result<Term, CelError> {
        self.expect(".", " after `resource` (as in resource.labels.KEY)")?;
        match self.next() {
            Token {
                kind: Tok::Ident(w),
                ..
            } if w == "labels" => {}
            t => {
                return Err(CelError {
                    column: t.column,
                    message: format!(
                        "expected `labels` after `resource.` (selectors can only read resource.labels), found {}",
                        t.kind.describe()
                    ),
                })
            }
        }
        if self.at(".") {
            self.next();
            let t = self.next();
            return match t.kind {
                Tok::Ident(k) if !is_reserved(&k) => {
                    let end = t.column + k.chars().count();
                    match self.dashed_key(k, end) {
                        Ok(k) => Ok(Term::Value(Operand::Label(k))),
                        Err(k) => Err(dashed_key_error(&k, column, in_has)),
                    }
                }
                other => Err(CelError {
                    column: t.column,
                    message: format!(
                        "expected a label key after `resource.labels.`, found {} (write resource.labels['KEY'] for keys with dots, slashes or dashes)",
                        other.describe()
                    ),
                }),
            };
        }
        if self.at("[") {
            let open = self.next().column;
            let t = self.next();
            let Tok::Str(k) = t.kind else {
                return Err(CelError {
                    column: t.column,
                    message: format!(
                        "expected a quoted label key inside `resource.labels[...]`, found {}",
                        t.kind.describe()
                    ),
                });
            };
            self.expect("]", &format!(" to close the `[` at column {open}"))?;
            return Ok(Term::Value(Operand::Label(k)));
        }
        if self.at("-") {
            return Err(self.err_here(
                "a label key with `-` must be written resource.labels['key-with-dash']",
            ));
        }
        Ok(Term::Labels)
    }

    /// A key read after `resource.labels.` that ends at column `end`: `Ok` as it is, or `Err` with the
    /// whole key when `-` and more of it follow without a space (`prod-region`, `zone-1a`), which CEL
    /// reads as a subtraction.
    fn dashed_key(&mut self, key: String, mut end: usize) -> Result<String, String> {
        let mut whole = key.clone();
        loop {
            let (dash, part) = (self.peek(), self.tokens.get(self.pos + 1));
            let part = match (&dash.kind, part) {
                (Tok::Punct("-"), Some(p)) if dash.column == end && p.column == end + 1 => p,
                _ => break,
            };
            let text = match &part.kind {
                Tok::Ident(w) | Tok::Number(w) => w.clone(),
                _ => break,
            };
            end = part.column + text.chars().count();
            whole.push('-');
            whole.push_str(&text);
            self.next();
            self.next();
        }
        if whole == key {
            Ok(key)
        } else {
            Err(whole)
        }
    }

    /// `has(resource.labels.key)`; CEL's has() takes a field selection, so the `['key']` form is
    /// refused as CEL refuses it.
    fn has(&mut self, column: usize) -> Result<Term, CelError> {
        self.expect("(", " after `has`")?;
        let inner = self.peek().column;
        let is_resource = matches!(&self.peek().kind, Tok::Ident(w) if w == "resource");
        if !is_resource {
            return Err(self.err_here(format!(
                "expected resource.labels.KEY inside has(), found {}",
                self.peek().kind.describe()
            )));
        }
        let bracket = self
            .tokens
            .get(self.pos + 3)
            .is_some_and(|t| t.kind == Tok::Punct("["));
        let resource = self.next().column;
        let term = self.resource(resource, true)?;
        let Term::Value(Operand::Label(k)) = term else {
            return Err(CelError {
                column: inner,
                message: "expected resource.labels.KEY inside has(); has(resource.labels) is not a test of one label".into(),
            });
        };
        if bracket {
            return Err(CelError {
                column: inner,
                message: format!(
                    "invalid argument to has() macro: has() takes resource.labels.KEY; for this key write '{k}' in resource.labels"
                ),
            });
        }
        self.expect(")", &format!(" to close has( at column {column}"))?;
        Ok(Term::Bool(Expr::Has(k)))
    }

    /// A list literal of strings, after its `[`.
    fn list(&mut self, open: usize) -> Result<Term, CelError> {
        let mut items = Vec::new();
        loop {
            if self.at("]") {
                self.next();
                return Ok(Term::List(items));
            }
            let t = self.next();
            match t.kind {
                Tok::Str(s) => items.push(s),
                Tok::Number(n) => {
                    return Err(CelError {
                        column: t.column,
                        message: format!("label values are strings: quote the number ('{n}')"),
                    })
                }
                other => {
                    return Err(CelError {
                        column: t.column,
                        message: format!(
                        "expected a string or `]` in the list opened at column {open}, found {}",
                        other.describe()
                    ),
                    })
                }
            }
            if self.at(",") {
                self.next();
            } else if !self.at("]") {
                return Err(self.err_here(format!(
                    "expected `,` or `]` in the list opened at column {open}, found {}",
                    self.peek().kind.describe()
                )));
            }
        }
    }
}

#[cfg(test)]
mod tests;

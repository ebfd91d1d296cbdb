//! Language-aware reading of changed source lines: calls, declarations, literals, JSX text, test titles and `@qa` annotations.
//!
//! qa-intent sees changed lines, not whole files, so this is a lexer with a little state
//! carried from line to line (block comments, multi-line strings, template literals, JSX
//! nesting, open brackets) plus token-pattern rules; it is not a parser. The rules favour
//! precision: a token inside a string, comment or regular-expression literal never becomes
//! a call or an identifier, and a rule that is unsure says nothing.
//!
//! Everything here is pure and allocation-light: it runs on every changed line of a range.
//! Odd input (unbalanced quotes, stray `</`, lone backslashes, any UTF-8) never panics:
//! every slice goes through [`str::get`] and every loop advances.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

/// The languages read with their own lexical rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// TypeScript and JavaScript, JSX and TSX included.
    TypeScript,
    Python,
    Rust,
    Go,
    /// Anything else, read conservatively: `"`/`'` strings that close on the line, `//`,
    /// `/* */` and `#` comments after whitespace, and calls; no declarations.
    Other,
}

/// The language of a repository path, by its extension.
pub fn language_of(path: &str) -> Language {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let ext = match name.rsplit_once('.') {
        Some((stem, ext)) if !stem.is_empty() => ext,
        _ => return Language::Other,
    };
    let is = |list: &[&str]| list.iter().any(|e| ext.eq_ignore_ascii_case(e));
    // Vue and Svelte components are script plus JSX-like markup: read them the same way.
    if is(&[
        "ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs", "vue", "svelte",
    ]) {
        Language::TypeScript
    } else if is(&["py", "pyi"]) {
        Language::Python
    } else if is(&["rs"]) {
        Language::Rust
    } else if is(&["go"]) {
        Language::Go
    } else {
        Language::Other
    }
}

/// What one changed line says, with strings, comments and regex literals understood.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineFacts {
    /// Callees in order of appearance, deduplicated: `saveCart`, `store.save` (for
    /// `this.store.save(`), `res.status`, `Foo::new`, `println!`. A method called on an
    /// unnamed receiver (a call result, a literal, a regex) is `.name`: `.then`, `.test`.
    pub calls: Vec<String>,
    /// Symbols this line declares: functions, methods, classes, types, constants and
    /// variables (`const`, `let`, `var`, Go `:=`), exported or not.
    pub declared: Vec<String>,
    /// `export ...`, bare `pub ...`, or a top-level Python/Go declaration that is public by
    /// naming convention.
    pub exported: bool,
    /// Identifiers in code (never in strings, comments or regexes), keywords excluded,
    /// deduplicated, in order of appearance.
    pub identifiers: Vec<String>,
    /// String literal contents that may be user-visible text, template-literal static
    /// parts included; blank ones, module specifiers and matcher vocabulary are left out.
    pub strings: Vec<String>,
    /// Matcher vocabulary: strings given to `new RegExp`, `re.compile`, `Regex::new`,
    /// `regexp.MustCompile`, `.match`, `.test`, `.includes`, `.startsWith`, `.contains` and
    /// kin, plus the source of every regex literal.
    pub matcher_strings: Vec<String>,
    /// Module specifiers named on the line: `import ... from "x"`, `require("x")`, Go
    /// imports, Python `import a.b` / `from a.b import c`, Rust `use a::b`.
    pub imports: Vec<String>,
    /// Text between JSX tags: `<p>Saved!</p>` gives `Saved!`.
    pub jsx_text: Vec<String>,
    /// JSX attributes with literal values that name an element (`data-testid`, `aria-label`,
    /// `role`, `placeholder`, `name`, `id` and test-id variants), plus event attributes with
    /// the handler they call: `onClick={() => save(cart)}` gives `("onClick", "save")`.
    pub jsx_attrs: Vec<(String, String)>,
    /// The comment text on the line (a Python docstring counts), markers stripped.
    pub comment: Option<String>,
}

/// Lexical context carried from one line to the next.
///
/// Feed consecutive lines to [`read_line`] with one state; start a fresh state
/// (`LexState::default()`) where the lines stop being consecutive (a new hunk).
#[derive(Debug, Clone, Default)]
pub struct LexState {
    /// Open constructs, innermost last.
    modes: Vec<Mode>,
    /// Open brackets and what their contents are (matcher arguments, module specifiers).
    groups: Vec<Group>,
    /// The last code token ends a value, so a `/` divides and a `<` compares (JS).
    after_value: bool,
    /// Inside a Go `import ( ... )` block.
    go_imports: bool,
}

/// Deepest nesting kept; deeper input is junk and resets the state.
const MAX_DEPTH: usize = 32;

/// How far ahead a `<` looks to decide whether it opens a JSX element.
const JSX_LOOKAHEAD: usize = 512;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Inside `/* */`; Rust block comments nest.
    BlockComment {
        depth: u8,
    },
    Str(StrMode),
    /// Static text of a JS template literal.
    Template,
    /// Code inside `${...}`, an f-string `{...}` or a JSX `{...}`; `depth` counts brackets
    /// opened inside it, `fstring` allows the `:spec` / `!r` tail.
    Interp {
        depth: u16,
        fstring: bool,
    },
    /// Inside `<Tag ...` before its `>`.
    JsxTag,
    /// Between `<Tag>` and `</Tag>`.
    JsxChildren,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct StrMode {
    quote: u8,
    /// Python `"""`/`'''`.
    triple: bool,
    /// No escapes (Rust raw, Go raw); Python raw strings still skip `\"`.
    raw: bool,
    /// `{expr}` inside is code (Python f-strings).
    fmt: bool,
    /// Rust `r#"..."#` hash count.
    hashes: u8,
    /// A Python docstring: its text is a comment.
    doc: bool,
    /// May continue on the next line.
    multiline: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Group {
    Plain,
    /// Arguments of a matcher call: its strings are matcher vocabulary.
    Matcher,
    /// Arguments of `require(`/`import(`: its strings are module specifiers.
    Import,
    /// A Rust attribute `#[...]`: nothing inside is a call or user text.
    Attr,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Ident,
    Punct,
    /// A string literal's content, or one static part of a template literal or f-string.
    Str,
    /// A regex literal's source.
    Regex,
    /// Numbers and character literals.
    Lit,
    InterpOpen,
    InterpClose,
    /// A capitalised JSX element name: a component reference.
    JsxName,
}

#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    kind: Kind,
    text: &'a str,
    /// Byte offset in its line.
    at: u32,
    /// Index of its line in the lexed run (0 for a single line).
    line: u32,
}

/// Read one changed line. `state` carries open comments, strings, templates and JSX from
/// the previous line of the same hunk.
pub fn read_line(lang: Language, text: &str, state: &mut LexState) -> LineFacts {
    let mut facts = LineFacts::default();
    let mut toks = Vec::with_capacity(32);
    Lexer::new(lang, text, 0, state, &mut toks, &mut facts).run();
    analyze(lang, &toks, state, &mut facts);
    facts
}

// ---------------------------------------------------------------------------------------
// Lexing

struct Lexer<'a, 's> {
    lang: Language,
    text: &'a str,
    b: &'a [u8],
    pos: usize,
    line: u32,
    st: &'s mut LexState,
    toks: &'s mut Vec<Tok<'a>>,
    /// Tokens before this index belong to earlier lines.
    first_tok: usize,
    facts: &'s mut LineFacts,
    /// A `/` already failed to start a regex on this line: later ones divide (keeps junk
    /// lines linear).
    regex_failed: bool,
}

impl<'a, 's> Lexer<'a, 's> {
    fn new(
        lang: Language,
        text: &'a str,
        line: u32,
        st: &'s mut LexState,
        toks: &'s mut Vec<Tok<'a>>,
        facts: &'s mut LineFacts,
    ) -> Self {
        let first_tok = toks.len();
        Lexer {
            lang,
            text,
            b: text.as_bytes(),
            pos: 0,
            line,
            st,
            toks,
            first_tok,
            facts,
            regex_failed: false,
        }
    }

    fn run(mut self) {
        // A changed line in code usually starts a statement or an operand (formatters break
        // after operators), so a leading `/` is a regex and a leading `<` an element.
        if matches!(self.st.modes.last(), None | Some(Mode::Interp { .. })) {
            self.st.after_value = false;
        }
        let mut stalls = 0u8;
        while self.pos < self.b.len() {
            let before = self.pos;
            match self.st.modes.last().copied() {
                None | Some(Mode::Interp { .. }) => self.code(),
                Some(Mode::BlockComment { depth }) => self.block_comment(depth),
                Some(Mode::Str(s)) => self.string_body(s),
                Some(Mode::Template) => self.template_body(),
                Some(Mode::JsxTag) => self.jsx_tag(),
                Some(Mode::JsxChildren) => self.jsx_children(),
            }
            // Mode switches may not move; a run of them that never does is a bug in a
            // rule, and skipping a character is better than looping forever.
            if self.pos == before {
                stalls += 1;
                if stalls > 8 {
                    self.pos += self.char_len(self.pos);
                    stalls = 0;
                }
            } else {
                stalls = 0;
            }
        }
        // Strings that cannot span lines end here, with whatever opened inside them.
        if let Some(i) = self
            .st
            .modes
            .iter()
            .position(|m| matches!(m, Mode::Str(s) if !s.multiline))
        {
            self.st.modes.truncate(i);
            self.st.after_value = true;
        }
    }

    fn at(&self, p: usize) -> u8 {
        self.b.get(p).copied().unwrap_or(0)
    }

    fn slice(&self, a: usize, b: usize) -> &'a str {
        self.text.get(a..b.min(self.b.len())).unwrap_or("")
    }

    fn char_len(&self, p: usize) -> usize {
        match self.at(p) {
            0..=0x7f => 1,
            0xc0..=0xdf => 2,
            0xe0..=0xef => 3,
            0xf0..=0xff => 4,
            _ => 1,
        }
        .min(self.b.len().saturating_sub(p).max(1))
    }

    fn is_ident_start(&self, p: usize) -> bool {
        let c = self.at(p);
        if c.is_ascii_alphabetic() || c == b'_' || (c == b'$' && self.lang == Language::TypeScript)
        {
            return true;
        }
        c >= 0x80
            && self
                .text
                .get(p..)
                .and_then(|s| s.chars().next())
                .is_some_and(char::is_alphabetic)
    }

    fn ident_end(&self, mut p: usize) -> usize {
        while p < self.b.len() {
            let c = self.b[p];
            if c.is_ascii_alphanumeric()
                || c == b'_'
                || (c == b'$' && self.lang == Language::TypeScript)
            {
                p += 1;
            } else if c >= 0x80
                && self
                    .text
                    .get(p..)
                    .and_then(|s| s.chars().next())
                    .is_some_and(char::is_alphanumeric)
            {
                p += self.char_len(p);
            } else {
                break;
            }
        }
        p
    }

    fn emit(&mut self, kind: Kind, a: usize, b: usize) {
        let text = self.slice(a, b);
        self.toks.push(Tok {
            kind,
            text,
            at: a as u32,
            line: self.line,
        });
    }

    fn push(&mut self, m: Mode) {
        if self.st.modes.len() >= MAX_DEPTH {
            self.st.modes.clear();
        }
        self.st.modes.push(m);
    }

    /// Replace the innermost mode.
    fn swap_top(&mut self, m: Mode) {
        self.st.modes.pop();
        self.st.modes.push(m);
    }

    fn comment_piece(&mut self, raw: &str) {
        let t = raw
            .trim()
            .trim_start_matches(['*', '!', '/'])
            .trim_end_matches('*')
            .trim();
        if t.is_empty() {
            return;
        }
        match &mut self.facts.comment {
            Some(c) => {
                c.push(' ');
                c.push_str(t);
            }
            None => self.facts.comment = Some(t.to_string()),
        }
    }

    fn after_space(&self) -> bool {
        self.pos == 0 || matches!(self.at(self.pos - 1), b' ' | b'\t')
    }

    // --- code -----------------------------------------------------------------------

    fn code(&mut self) {
        let c = self.b[self.pos];
        let next = self.at(self.pos + 1);
        let lang = self.lang;
        let c_comments = lang != Language::Python;
        match c {
            b' ' | b'\t' | b'\r' | b'\n' | 0x0b | 0x0c => self.pos += 1,
            b'/' if c_comments
                && next == b'/'
                && (lang != Language::Other || self.after_space()) =>
            {
                let rest = self.slice(self.pos + 2, self.b.len());
                self.comment_piece(rest);
                self.pos = self.b.len();
            }
            b'/' if c_comments && next == b'*' => {
                self.pos += 2;
                self.push(Mode::BlockComment { depth: 1 });
            }
            b'#' if lang == Language::Python || (lang == Language::Other && self.after_space()) => {
                let rest = self.slice(self.pos + 1, self.b.len());
                self.comment_piece(rest);
                self.pos = self.b.len();
            }
            b'/' if lang == Language::TypeScript && !self.st.after_value && !self.regex_failed => {
                if !self.regex() {
                    self.operator();
                }
            }
            b'"' | b'\'' => self.quote(c),
            b'`' if lang == Language::TypeScript => {
                self.emit(Kind::Punct, self.pos, self.pos + 1);
                self.pos += 1;
                self.push(Mode::Template);
            }
            b'`' if lang == Language::Go => self.open_string(
                self.pos + 1,
                StrMode {
                    quote: b'`',
                    raw: true,
                    multiline: true,
                    ..StrMode::default()
                },
            ),
            b'<' if lang == Language::TypeScript && !self.st.after_value => {
                if !self.jsx_open() {
                    self.operator();
                }
            }
            b'0'..=b'9' => self.number(),
            b'.' if next.is_ascii_digit() => self.number(),
            b'{' | b'(' | b'[' => {
                self.nest(true);
                self.punct(1, false);
            }
            b'}' => match self.st.modes.last() {
                Some(Mode::Interp { depth: 0, .. }) => {
                    self.emit(Kind::InterpClose, self.pos, self.pos + 1);
                    self.pos += 1;
                    self.st.modes.pop();
                }
                _ => {
                    self.nest(false);
                    self.punct(1, false);
                }
            },
            b')' | b']' => {
                self.nest(false);
                self.punct(1, true);
            }
            b':' | b'!'
                if matches!(
                    self.st.modes.last(),
                    Some(Mode::Interp {
                        depth: 0,
                        fstring: true
                    })
                ) && !(c == b'!' && next == b'=') =>
            {
                self.format_spec()
            }
            _ if self.is_ident_start(self.pos) => self.word(),
            _ => self.operator(),
        }
    }

    /// Count brackets opened inside an interpolation, so its own `}` is found.
    fn nest(&mut self, open: bool) {
        if let Some(Mode::Interp { depth, .. }) = self.st.modes.last_mut() {
            *depth = if open {
                depth.saturating_add(1)
            } else {
                depth.saturating_sub(1)
            };
        }
    }

    fn punct(&mut self, len: usize, ends_value: bool) {
        self.emit(Kind::Punct, self.pos, self.pos + len);
        self.pos += len;
        self.st.after_value = ends_value;
    }

    fn operator(&mut self) {
        const OPS3: [&str; 3] = ["===", "!==", "..."];
        const OPS2: [&str; 17] = [
            "?.", "::", "=>", "->", ":=", "==", "!=", "<=", ">=", "&&", "||", "??", "++", "--",
            "..", "+=", "-=",
        ];
        let rest = self.b.get(self.pos..).unwrap_or(&[]);
        let len = if OPS3.iter().any(|o| rest.starts_with(o.as_bytes())) {
            3
        } else if OPS2.iter().any(|o| rest.starts_with(o.as_bytes()))
            && !(rest.starts_with(b"?.") && rest.get(2).is_some_and(u8::is_ascii_digit))
        {
            2
        } else {
            self.char_len(self.pos)
        };
        let op = self.slice(self.pos, self.pos + len);
        self.punct(len, matches!(op, "++" | "--"));
    }

    fn number(&mut self) {
        let start = self.pos;
        let mut p = self.pos + 1;
        while p < self.b.len() {
            let c = self.b[p];
            if c.is_ascii_alphanumeric()
                || c == b'_'
                || (c == b'.' && self.at(p + 1).is_ascii_digit())
            {
                p += 1;
            } else {
                break;
            }
        }
        self.emit(Kind::Lit, start, p);
        self.pos = p;
        self.st.after_value = true;
    }

    fn word(&mut self) {
        let start = self.pos;
        let end = self.ident_end(start).max(start + self.char_len(start));
        let w = self.slice(start, end);
        let next = self.at(end);
        match self.lang {
            Language::Python if matches!(next, b'"' | b'\'') && is_python_prefix(w) => {
                self.python_string(end, w);
                return;
            }
            Language::Rust => {
                if matches!(w, "r" | "br" | "cr") && matches!(next, b'"' | b'#') {
                    let mut h = end;
                    while self.at(h) == b'#' && h - end < 255 {
                        h += 1;
                    }
                    if self.at(h) == b'"' {
                        let hashes = (h - end) as u8;
                        let s = StrMode {
                            quote: b'"',
                            raw: true,
                            hashes,
                            multiline: true,
                            ..StrMode::default()
                        };
                        self.open_string(h + 1, s);
                        return;
                    }
                    if w == "r" && h == end + 1 && self.is_ident_start(h) {
                        // A raw identifier: `r#type`.
                        let e = self.ident_end(h);
                        self.emit(Kind::Ident, h, e);
                        self.pos = e;
                        self.st.after_value = true;
                        return;
                    }
                }
                if matches!(w, "b" | "c") && next == b'"' {
                    self.open_string(
                        end + 1,
                        StrMode {
                            quote: b'"',
                            multiline: true,
                            ..StrMode::default()
                        },
                    );
                    return;
                }
                if w == "b" && next == b'\'' {
                    self.pos = end;
                    self.rust_quote();
                    return;
                }
            }
            _ => {}
        }
        self.emit(Kind::Ident, start, end);
        self.pos = end;
        self.st.after_value = !(self.lang == Language::TypeScript && starts_expression(w));
    }

    // --- strings --------------------------------------------------------------------

    fn quote(&mut self, q: u8) {
        match (self.lang, q) {
            (Language::Rust, b'\'') => self.rust_quote(),
            (Language::Go, b'\'') => self.char_literal(),
            (Language::Python, _) => self.python_string(self.pos, ""),
            (Language::Rust, _) => self.open_string(
                self.pos + 1,
                StrMode {
                    quote: q,
                    multiline: true,
                    ..StrMode::default()
                },
            ),
            (Language::Other, _) if !self.b[self.pos + 1..].contains(&q) => self.operator(),
            _ => self.open_string(
                self.pos + 1,
                StrMode {
                    quote: q,
                    ..StrMode::default()
                },
            ),
        }
    }

    fn open_string(&mut self, content: usize, s: StrMode) {
        self.pos = content;
        self.push(Mode::Str(s));
    }

    /// A Python string at `q` (its quote), after `prefix` (`r`, `f`, `rb`, ...).
    fn python_string(&mut self, q: usize, prefix: &str) {
        let quote = self.at(q);
        let triple = self.at(q + 1) == quote && self.at(q + 2) == quote;
        let fmt = prefix
            .bytes()
            .any(|c| matches!(c, b'f' | b'F' | b't' | b'T'));
        let raw = prefix.bytes().any(|c| matches!(c, b'r' | b'R'));
        // A triple-quoted string opening a statement is documentation.
        let doc = triple && !fmt && self.toks.len() == self.first_tok && self.st.groups.is_empty();
        let s = StrMode {
            quote,
            triple,
            raw,
            fmt,
            doc,
            multiline: triple,
            hashes: 0,
        };
        self.open_string(q + if triple { 3 } else { 1 }, s);
    }

    /// Rust `'`: a char literal (`'a'`, `'\n'`, `'"'`) or a lifetime (`'a`), which is skipped.
    fn rust_quote(&mut self) {
        let p = self.pos;
        if self.at(p + 1) == b'\\' {
            self.char_literal();
            return;
        }
        let cl = self.char_len(p + 1);
        if p + 1 < self.b.len() && self.at(p + 1 + cl) == b'\'' {
            self.emit(Kind::Lit, p, p + 2 + cl);
            self.pos = p + 2 + cl;
            self.st.after_value = true;
        } else {
            self.pos = self.ident_end(p + 1).max(p + 1);
        }
    }

    /// A short quoted literal closed on the line (`'x'`, `'\''`); a lone quote is punctuation.
    fn char_literal(&mut self) {
        let p = self.pos;
        let mut q = p + 1;
        while q < self.b.len() && q < p + 16 {
            match self.b[q] {
                b'\\' => q += 2,
                b'\'' => {
                    self.emit(Kind::Lit, p, q + 1);
                    self.pos = q + 1;
                    self.st.after_value = true;
                    return;
                }
                _ => q += 1,
            }
        }
        self.operator();
    }

    fn string_body(&mut self, s: StrMode) {
        let start = self.pos;
        let mut p = start;
        let escapes = !s.raw || self.lang == Language::Python;
        while p < self.b.len() {
            let c = self.b[p];
            if c == b'\\' && escapes {
                p += 1 + self.char_len(p + 1);
                continue;
            }
            if c == s.quote {
                let close = if s.triple {
                    (self.at(p + 1) == s.quote && self.at(p + 2) == s.quote).then_some(p + 3)
                } else {
                    let h = s.hashes as usize;
                    (self
                        .b
                        .get(p + 1..p + 1 + h)
                        .is_some_and(|t| t.iter().all(|&c| c == b'#')))
                    .then_some(p + 1 + h)
                };
                if let Some(end) = close {
                    self.string_part(s, start, p);
                    self.pos = end;
                    self.st.modes.pop();
                    self.st.after_value = true;
                    return;
                }
            }
            if s.fmt && c == b'{' {
                if self.at(p + 1) == b'{' {
                    p += 2;
                    continue;
                }
                self.string_part(s, start, p);
                self.emit(Kind::InterpOpen, p, p + 1);
                self.pos = p + 1;
                self.push(Mode::Interp {
                    depth: 0,
                    fstring: true,
                });
                return;
            }
            p += 1;
        }
        self.string_part(s, start, self.b.len());
        self.pos = self.b.len();
    }

    fn string_part(&mut self, s: StrMode, a: usize, b: usize) {
        if s.doc {
            let t = self.slice(a, b);
            self.comment_piece(t);
        } else {
            self.emit(Kind::Str, a, b);
        }
    }

    /// An f-string's `:spec` or `!r` tail: skipped to the interpolation's `}`.
    fn format_spec(&mut self) {
        let mut depth = 0u32;
        let mut p = self.pos;
        while p < self.b.len() {
            match self.b[p] {
                b'{' => depth += 1,
                b'}' if depth == 0 => {
                    self.emit(Kind::InterpClose, p, p + 1);
                    self.pos = p + 1;
                    self.st.modes.pop();
                    return;
                }
                b'}' => depth -= 1,
                _ => {}
            }
            p += 1;
        }
        self.pos = self.b.len();
    }

    fn template_body(&mut self) {
        let start = self.pos;
        let mut p = start;
        while p < self.b.len() {
            match self.b[p] {
                b'\\' => p += 1 + self.char_len(p + 1),
                b'`' => {
                    self.emit(Kind::Str, start, p);
                    self.emit(Kind::Punct, p, p + 1);
                    self.pos = p + 1;
                    self.st.modes.pop();
                    self.st.after_value = true;
                    return;
                }
                b'$' if self.at(p + 1) == b'{' => {
                    self.emit(Kind::Str, start, p);
                    self.emit(Kind::InterpOpen, p, p + 2);
                    self.pos = p + 2;
                    self.push(Mode::Interp {
                        depth: 0,
                        fstring: false,
                    });
                    self.st.after_value = false;
                    return;
                }
                _ => p += 1,
            }
        }
        self.emit(Kind::Str, start, self.b.len());
        self.pos = self.b.len();
    }

    fn block_comment(&mut self, mut depth: u8) {
        let start = self.pos;
        let mut p = start;
        while p < self.b.len() {
            if self.b[p] == b'*' && self.at(p + 1) == b'/' {
                depth -= 1;
                if depth == 0 {
                    let t = self.slice(start, p);
                    self.comment_piece(t);
                    self.pos = p + 2;
                    self.st.modes.pop();
                    return;
                }
                p += 2;
            } else if self.lang == Language::Rust && self.b[p] == b'/' && self.at(p + 1) == b'*' {
                depth = depth.saturating_add(1);
                p += 2;
            } else {
                p += 1;
            }
        }
        let t = self.slice(start, self.b.len());
        self.comment_piece(t);
        self.pos = self.b.len();
        self.swap_top(Mode::BlockComment { depth });
    }

    /// A JS regex literal at `/`; false (and no more tries on this line) when none closes.
    fn regex(&mut self) -> bool {
        let mut p = self.pos + 1;
        let mut class = false;
        while p < self.b.len() {
            match self.b[p] {
                b'\\' => p += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => break,
                _ => {}
            }
            p += 1;
        }
        if p >= self.b.len() {
            self.regex_failed = true;
            return false;
        }
        self.emit(Kind::Regex, self.pos + 1, p);
        let flags = p + 1;
        self.pos = self.ident_end(flags);
        self.st.after_value = true;
        true
    }

    // --- JSX ------------------------------------------------------------------------

    /// A `<` where an expression starts: a JSX element, a stray closing tag, or nothing.
    fn jsx_open(&mut self) -> bool {
        let p = self.pos;
        if self.at(p + 1) == b'/' {
            // A closing tag outside any element we saw open: the hunk starts mid-tree.
            let limit = (p + JSX_LOOKAHEAD).min(self.b.len());
            let Some(gt) = (p + 2..limit).find(|&q| self.b[q] == b'>') else {
                return false;
            };
            let name = self.slice(p + 2, gt).trim();
            if !name
                .bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-' | b':' | b'_'))
            {
                return false;
            }
            self.pos = gt + 1;
            self.st.after_value = true;
            return true;
        }
        if !self.jsx_plausible(p) {
            return false;
        }
        self.open_element(p);
        true
    }

    /// Open the element whose `<` is at `p`: a fragment goes straight to its children.
    fn open_element(&mut self, p: usize) {
        if self.at(p + 1) == b'>' {
            self.pos = p + 2;
            self.push(Mode::JsxChildren);
            return;
        }
        let end = self.jsx_name_end(p + 1);
        if self.at(p + 1).is_ascii_uppercase() {
            let first = (p + 1..end).find(|&q| self.b[q] == b'.').unwrap_or(end);
            self.emit(Kind::JsxName, p + 1, first);
        }
        self.pos = end;
        self.push(Mode::JsxTag);
    }

    fn jsx_name_end(&self, mut p: usize) -> usize {
        while p < self.b.len()
            && (self.b[p].is_ascii_alphanumeric()
                || matches!(self.b[p], b'_' | b'$' | b'.' | b'-' | b':'))
        {
            p += 1;
        }
        p
    }

    /// Whether a `<` at expression start opens a JSX element rather than a TypeScript
    /// generic (`<T,>(x) =>`, `<T extends U>`) or type assertion (`<Foo>value`, `<any>x`).
    fn jsx_plausible(&self, p: usize) -> bool {
        if self.at(p + 1) == b'>' {
            return true;
        }
        let c = self.at(p + 1);
        if !(c.is_ascii_alphabetic() || c == b'_' || c == b'$') {
            return false;
        }
        let ne = self.jsx_name_end(p + 1);
        let name = self.slice(p + 1, ne);
        if !matches!(self.at(ne), b' ' | b'\t' | b'\r' | b'>' | b'/' | 0) {
            return false;
        }
        let mut q = ne;
        while matches!(self.at(q), b' ' | b'\t') {
            q += 1;
        }
        if self.slice(q, self.ident_end(q)) == "extends" {
            return false;
        }
        let limit = (p + JSX_LOOKAHEAD).min(self.b.len());
        let mut depth = 0u32;
        let mut has_attrs = false;
        let mut gt = None;
        let mut q = ne;
        while q < limit {
            let c = self.b[q];
            match c {
                b'"' | b'\'' if depth == 0 => {
                    has_attrs = true;
                    q += 1;
                    while q < limit && self.b[q] != c {
                        q += 1;
                    }
                }
                b'{' => {
                    has_attrs |= depth == 0;
                    depth += 1;
                }
                b'}' => depth = depth.saturating_sub(1),
                b'/' if depth == 0 && self.at(q + 1) == b'>' => return true,
                b'>' if depth == 0 => {
                    gt = Some(q);
                    break;
                }
                _ if depth == 0 && (c.is_ascii_alphabetic() || c == b'_') => has_attrs = true,
                _ => {}
            }
            q += 1;
        }
        let Some(gt) = gt else {
            // The open tag continues on the next line.
            return has_attrs || self.slice(ne, self.b.len()).trim().is_empty();
        };
        if has_attrs {
            return true;
        }
        let after = gt + 1;
        if self.at(after) == b'(' || is_ts_primitive(name) {
            return false;
        }
        if name.starts_with(|c: char| c.is_ascii_lowercase()) {
            return true;
        }
        // `<Foo>value` is a type assertion unless the element ends the line or closes on it.
        let rest = self.slice(after, (after + JSX_LOOKAHEAD).min(self.b.len()));
        rest.trim().is_empty() || rest.contains("</")
    }

    fn jsx_tag(&mut self) {
        while matches!(self.at(self.pos), b' ' | b'\t' | b'\r') {
            self.pos += 1;
        }
        if self.pos >= self.b.len() {
            return;
        }
        let c = self.b[self.pos];
        match c {
            b'/' if self.at(self.pos + 1) == b'>' => {
                self.pos += 2;
                self.st.modes.pop();
                self.element_closed();
            }
            b'>' => {
                self.pos += 1;
                self.swap_top(Mode::JsxChildren);
            }
            b'{' => self.open_interp(),
            _ if c.is_ascii_alphabetic() || c == b'_' || c == b'$' => self.jsx_attribute(),
            _ => self.pos += self.char_len(self.pos),
        }
    }

    fn jsx_attribute(&mut self) {
        let start = self.pos;
        let end = self.jsx_name_end(start);
        let name = self.slice(start, end);
        self.pos = end;
        let mut p = end;
        while matches!(self.at(p), b' ' | b'\t') {
            p += 1;
        }
        if self.at(p) != b'=' {
            return;
        }
        p += 1;
        while matches!(self.at(p), b' ' | b'\t') {
            p += 1;
        }
        let q = self.at(p);
        if q == b'"' || q == b'\'' {
            let close = (p + 1..self.b.len())
                .find(|&i| self.b[i] == q)
                .unwrap_or(self.b.len());
            self.jsx_value(name, p + 1, close);
            self.pos = (close + 1).min(self.b.len());
        } else if q == b'{' {
            // `{"Close"}` is a literal value too.
            let mut v = p + 1;
            while matches!(self.at(v), b' ' | b'\t') {
                v += 1;
            }
            let vq = self.at(v);
            if matches!(vq, b'"' | b'\'' | b'`') {
                if let Some(close) = (v + 1..self.b.len()).find(|&i| self.b[i] == vq) {
                    let mut e = close + 1;
                    while matches!(self.at(e), b' ' | b'\t') {
                        e += 1;
                    }
                    if self.at(e) == b'}' && !self.slice(v, close).contains("${") {
                        self.jsx_value(name, v + 1, close);
                        self.pos = e + 1;
                        return;
                    }
                }
            }
            if is_event_attr(name) {
                if let Some(handler) = HANDLER
                    .captures(self.slice(p, self.b.len()))
                    .and_then(|c| c.get(1))
                {
                    let h = handler.as_str().trim_start_matches("this.");
                    self.facts.jsx_attrs.push((name.to_string(), h.to_string()));
                }
            }
            self.pos = p;
            self.open_interp();
        } else {
            self.pos = p;
        }
    }

    /// A literal attribute value: element names are reported, visible text is a string.
    fn jsx_value(&mut self, name: &str, a: usize, b: usize) {
        const NAMING: [&str; 11] = [
            "data-testid",
            "data-test-id",
            "data-test",
            "data-cy",
            "data-qa",
            "testID",
            "aria-label",
            "role",
            "placeholder",
            "name",
            "id",
        ];
        if NAMING.contains(&name) {
            let v = self.slice(a, b);
            self.facts.jsx_attrs.push((name.to_string(), v.to_string()));
        } else if matches!(name, "title" | "alt" | "label") {
            self.emit(Kind::Str, a, b);
        }
    }

    fn open_interp(&mut self) {
        self.emit(Kind::InterpOpen, self.pos, self.pos + 1);
        self.pos += 1;
        self.push(Mode::Interp {
            depth: 0,
            fstring: false,
        });
        self.st.after_value = false;
    }

    /// An element ended; back in code, the element is a value.
    fn element_closed(&mut self) {
        if !matches!(self.st.modes.last(), Some(Mode::JsxChildren)) {
            self.st.after_value = true;
        }
    }

    fn jsx_children(&mut self) {
        let start = self.pos;
        let mut p = start;
        while p < self.b.len() && !matches!(self.b[p], b'<' | b'{') {
            p += 1;
        }
        let text = self.slice(start, p);
        let text: Vec<&str> = text.split_whitespace().collect();
        if !text.is_empty() {
            self.facts.jsx_text.push(text.join(" "));
        }
        self.pos = p;
        if p >= self.b.len() {
            return;
        }
        if self.b[p] == b'{' {
            self.open_interp();
            return;
        }
        match self.at(p + 1) {
            b'/' => {
                let limit = (p + JSX_LOOKAHEAD).min(self.b.len());
                self.pos = (p + 2..limit)
                    .find(|&q| self.b[q] == b'>')
                    .map_or(self.b.len(), |gt| gt + 1);
                self.st.modes.pop();
                self.element_closed();
            }
            c if c == b'>' || c.is_ascii_alphabetic() || c == b'_' => self.open_element(p),
            // A literal `<` in text (invalid JSX, but never a reason to stop).
            _ => self.pos = p + 1,
        }
    }
}

/// `onClick={save}`, `onClick={() => save(cart)}`, `onChange={(e) => setName(e.target.value)}`.
static HANDLER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^\{\s*(?:(?:async\s+)?(?:\([^()]*\)|[A-Za-z_$][\w$]*)\s*=>\s*\{?\s*)?((?:this\.)?[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)*)",
    )
    .expect("constant regex")
});

fn is_event_attr(name: &str) -> bool {
    name.len() > 2 && name.starts_with("on") && name.as_bytes()[2].is_ascii_uppercase()
}

fn is_python_prefix(w: &str) -> bool {
    (1..=2).contains(&w.len())
        && w.bytes()
            .all(|c| matches!(c.to_ascii_lowercase(), b'r' | b'b' | b'u' | b'f' | b't'))
}

fn is_ts_primitive(name: &str) -> bool {
    matches!(
        name,
        "string"
            | "number"
            | "boolean"
            | "any"
            | "unknown"
            | "never"
            | "object"
            | "void"
            | "bigint"
            | "symbol"
            | "undefined"
            | "null"
    )
}

/// JS words after which `/` starts a regex and `<` a JSX element.
fn starts_expression(w: &str) -> bool {
    matches!(
        w,
        "return"
            | "typeof"
            | "instanceof"
            | "in"
            | "of"
            | "new"
            | "delete"
            | "void"
            | "throw"
            | "case"
            | "do"
            | "else"
            | "yield"
            | "await"
    )
}

fn is_keyword(lang: Language, w: &str) -> bool {
    match lang {
        Language::TypeScript => matches!(
            w,
            "break"
                | "case"
                | "catch"
                | "class"
                | "const"
                | "continue"
                | "debugger"
                | "default"
                | "delete"
                | "do"
                | "else"
                | "enum"
                | "export"
                | "extends"
                | "false"
                | "finally"
                | "for"
                | "function"
                | "if"
                | "import"
                | "in"
                | "instanceof"
                | "new"
                | "null"
                | "return"
                | "super"
                | "switch"
                | "this"
                | "throw"
                | "true"
                | "try"
                | "typeof"
                | "var"
                | "void"
                | "while"
                | "with"
                | "yield"
                | "let"
                | "static"
                | "await"
                | "async"
                | "implements"
                | "interface"
                | "private"
                | "protected"
                | "public"
                | "undefined"
                | "as"
                | "satisfies"
                | "keyof"
                | "declare"
                | "readonly"
                | "abstract"
                | "infer"
        ),
        Language::Python => matches!(
            w,
            "False"
                | "None"
                | "True"
                | "and"
                | "as"
                | "assert"
                | "async"
                | "await"
                | "break"
                | "class"
                | "continue"
                | "def"
                | "del"
                | "elif"
                | "else"
                | "except"
                | "finally"
                | "for"
                | "from"
                | "global"
                | "if"
                | "import"
                | "in"
                | "is"
                | "lambda"
                | "nonlocal"
                | "not"
                | "or"
                | "pass"
                | "raise"
                | "return"
                | "try"
                | "while"
                | "with"
                | "yield"
                | "self"
                | "cls"
        ),
        Language::Rust => matches!(
            w,
            "as" | "async"
                | "await"
                | "break"
                | "const"
                | "continue"
                | "crate"
                | "dyn"
                | "else"
                | "enum"
                | "extern"
                | "false"
                | "fn"
                | "for"
                | "if"
                | "impl"
                | "in"
                | "let"
                | "loop"
                | "match"
                | "mod"
                | "move"
                | "mut"
                | "pub"
                | "ref"
                | "return"
                | "self"
                | "Self"
                | "static"
                | "struct"
                | "super"
                | "trait"
                | "true"
                | "type"
                | "unsafe"
                | "use"
                | "where"
                | "while"
        ),
        Language::Go => matches!(
            w,
            "break"
                | "case"
                | "chan"
                | "const"
                | "continue"
                | "default"
                | "defer"
                | "else"
                | "fallthrough"
                | "for"
                | "func"
                | "go"
                | "goto"
                | "if"
                | "import"
                | "interface"
                | "map"
                | "package"
                | "range"
                | "return"
                | "select"
                | "struct"
                | "switch"
                | "type"
                | "var"
                | "nil"
                | "true"
                | "false"
                | "iota"
        ),
        Language::Other => matches!(
            w,
            "if" | "else"
                | "elif"
                | "elsif"
                | "for"
                | "foreach"
                | "while"
                | "until"
                | "unless"
                | "switch"
                | "case"
                | "return"
                | "catch"
                | "sizeof"
                | "typeof"
                | "and"
                | "or"
                | "not"
                | "do"
                | "then"
                | "when"
                | "new"
                | "function"
                | "def"
                | "fn"
                | "func"
                | "sub"
                | "class"
                | "struct"
                | "true"
                | "false"
                | "null"
                | "nil"
                | "None"
                | "this"
                | "self"
                | "in"
        ),
    }
}

/// Bare callees that are constructors of values, not behaviour: Rust prelude variants and
/// closure traits, Go conversions to builtin types.
fn is_value_constructor(lang: Language, w: &str) -> bool {
    match lang {
        Language::Rust => matches!(w, "Some" | "Ok" | "Err" | "Fn" | "FnMut" | "FnOnce"),
        Language::Go => matches!(
            w,
            "bool"
                | "byte"
                | "complex64"
                | "complex128"
                | "error"
                | "float32"
                | "float64"
                | "int"
                | "int8"
                | "int16"
                | "int32"
                | "int64"
                | "rune"
                | "string"
                | "uint"
                | "uint8"
                | "uint16"
                | "uint32"
                | "uint64"
                | "uintptr"
                | "any"
        ),
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------
// Analysis of one line's tokens

/// A token-sequence view with the small predicates every rule uses.
struct Toks<'t, 'a> {
    lang: Language,
    t: &'t [Tok<'a>],
}

impl<'a> Toks<'_, 'a> {
    fn get(&self, i: usize) -> Option<&Tok<'a>> {
        self.t.get(i)
    }
    fn text(&self, i: usize) -> &'a str {
        self.t.get(i).map_or("", |t| t.text)
    }
    fn p(&self, i: usize, s: &str) -> bool {
        self.get(i)
            .is_some_and(|t| t.kind == Kind::Punct && t.text == s)
    }
    fn word(&self, i: usize, s: &str) -> bool {
        self.get(i)
            .is_some_and(|t| t.kind == Kind::Ident && t.text == s)
    }
    /// A declarable name: an identifier that is no keyword and not `_`.
    fn name(&self, i: usize) -> bool {
        self.get(i).is_some_and(|t| {
            t.kind == Kind::Ident && t.text != "_" && !is_keyword(self.lang, t.text)
        })
    }
    /// Preceded by `.`, `?.` or `::`: a member or path segment, never a keyword.
    fn member(&self, i: usize) -> bool {
        i > 0 && (self.p(i - 1, ".") || self.p(i - 1, "?.") || self.p(i - 1, "::"))
    }
    fn adjacent(&self, i: usize, j: usize) -> bool {
        match (self.get(i), self.get(j)) {
            (Some(a), Some(b)) => a.line == b.line && a.at as usize + a.text.len() == b.at as usize,
            _ => false,
        }
    }
    /// The index of the bracket closing the one at `open`.
    fn matching(&self, open: usize) -> Option<usize> {
        let mut depth = 0i32;
        for (k, t) in self.t.iter().enumerate().skip(open) {
            match t.kind {
                Kind::Punct if matches!(t.text, "(" | "[" | "{") => depth += 1,
                Kind::InterpOpen => depth += 1,
                Kind::Punct if matches!(t.text, ")" | "]" | "}") => depth -= 1,
                Kind::InterpClose => depth -= 1,
                _ => {}
            }
            if depth == 0 {
                return Some(k);
            }
        }
        None
    }
}

fn analyze(lang: Language, toks: &[Tok], st: &mut LexState, f: &mut LineFacts) {
    let v = Toks { lang, t: toks };
    let declared = declarations(&v, f);
    module_imports(&v, st, f);
    let directive = lang == Language::TypeScript
        && matches!(toks, [s] | [s, Tok { kind: Kind::Punct, text: ";", .. }]
            if s.kind == Kind::Str && matches!(s.text, "use strict" | "use client" | "use server"));
    for (i, t) in toks.iter().enumerate() {
        let inside = st.groups.last().copied().unwrap_or(Group::Plain);
        match t.kind {
            Kind::Ident if v.member(i) || !is_contextual_keyword(&v, i) => {
                push_unique(&mut f.identifiers, t.text)
            }
            Kind::JsxName => push_unique(&mut f.identifiers, t.text),
            Kind::Regex => f.matcher_strings.push(t.text.to_string()),
            Kind::Str if directive || inside == Group::Attr || t.text.trim().is_empty() => {}
            Kind::Str => {
                let module = inside == Group::Import
                    || (lang == Language::TypeScript
                        && i > 0
                        && (v.word(i - 1, "from") || v.word(i - 1, "import")))
                    || (lang == Language::Go && (st.go_imports || v.word(0, "import")));
                if module {
                    f.imports.push(t.text.to_string());
                } else if inside == Group::Matcher {
                    f.matcher_strings.push(t.text.to_string());
                } else if !(lang == Language::Go && is_struct_tag(t.text)) {
                    f.strings.push(t.text.to_string());
                }
            }
            Kind::InterpOpen => open_group(st, Group::Plain),
            Kind::InterpClose => {
                st.groups.pop();
            }
            Kind::Punct => match t.text {
                "(" => {
                    let group = match callee(&v, i) {
                        Some(c) if !declared.contains(&c.name_tok) && inside != Group::Attr => {
                            push_unique(&mut f.calls, &c.text);
                            c.group(lang)
                        }
                        _ if lang == Language::TypeScript && i > 0 && v.word(i - 1, "import") => {
                            Group::Import
                        }
                        _ => Group::Plain,
                    };
                    open_group(st, group);
                }
                "[" | "{" => {
                    let attribute = lang == Language::Rust
                        && i > 0
                        && (v.p(i - 1, "#") || v.p(i - 1, "!") && i > 1 && v.p(i - 2, "#"));
                    if attribute {
                        open_group(st, Group::Attr);
                        continue;
                    }
                    if let Some(c) = callee(&v, i).filter(|_| inside != Group::Attr) {
                        push_unique(&mut f.calls, &c.text);
                    }
                    open_group(st, Group::Plain);
                }
                ")" | "]" | "}" => {
                    st.groups.pop();
                }
                _ => {}
            },
            _ => {}
        }
    }
    if lang == Language::Go && v.p(0, ")") {
        st.go_imports = false;
    }
}

/// Keywords, plus words that are keywords only in place: `for (x of xs)`, `from "m"`.
fn is_contextual_keyword(v: &Toks, i: usize) -> bool {
    let w = v.text(i);
    is_keyword(v.lang, w)
        || v.lang == Language::TypeScript
            && match w {
                "of" => i > 0 && v.get(i - 1).is_some_and(|t| t.kind == Kind::Ident),
                "from" => v.get(i + 1).is_some_and(|t| t.kind == Kind::Str),
                _ => false,
            }
}

fn open_group(st: &mut LexState, g: Group) {
    if st.groups.len() >= 2 * MAX_DEPTH {
        st.groups.clear();
    }
    // Attribute contents stay attribute contents however deep.
    let g = if st.groups.last() == Some(&Group::Attr) {
        Group::Attr
    } else {
        g
    };
    st.groups.push(g);
}

fn push_unique(list: &mut Vec<String>, s: &str) {
    if !list.iter().any(|x| x == s) {
        list.push(s.to_string());
    }
}

/// Go struct tags (`` `json:"name"` ``) are metadata, not text.
fn is_struct_tag(s: &str) -> bool {
    let key_end = s.find(':').unwrap_or(0);
    key_end > 0
        && s[..key_end]
            .bytes()
            .all(|c| c.is_ascii_lowercase() || c == b'_')
        && s[key_end + 1..].starts_with('"')
}

/// The callee of a call, read backwards from its `(`.
struct Callee<'a> {
    /// `store.save`, `Foo::new`, `println!`, `.then`.
    text: String,
    /// Path or member segments, in order.
    segs: Vec<&'a str>,
    /// Index of the callee's own name token.
    name_tok: usize,
    /// Called on a receiver (`a.b(`, `x::y(`, `<expr>.b(`).
    member: bool,
}

impl Callee<'_> {
    fn last(&self) -> &str {
        self.segs.last().copied().unwrap_or("")
    }
    fn first(&self) -> &str {
        self.segs.first().copied().unwrap_or("")
    }

    /// What the call's string arguments are: matcher vocabulary, module specifiers or text.
    fn group(&self, lang: Language) -> Group {
        let (first, last, member) = (self.first(), self.last(), self.member);
        let two = self.segs.len() >= 2;
        let matcher = match lang {
            Language::TypeScript => {
                last == "RegExp"
                    || member
                        && matches!(
                            last,
                            "match"
                                | "matchAll"
                                | "test"
                                | "includes"
                                | "startsWith"
                                | "endsWith"
                                | "search"
                        )
            }
            Language::Python => {
                two && matches!(first, "re" | "regex")
                    && matches!(
                        last,
                        "compile"
                            | "match"
                            | "search"
                            | "fullmatch"
                            | "findall"
                            | "finditer"
                            | "split"
                    )
                    || member && matches!(last, "startswith" | "endswith")
            }
            Language::Rust => {
                two && last == "new"
                    && matches!(
                        self.segs[self.segs.len() - 2],
                        "Regex" | "RegexBuilder" | "RegexSet" | "RegexSetBuilder"
                    )
                    || member
                        && matches!(last, "contains" | "starts_with" | "ends_with" | "matches")
            }
            Language::Go => {
                two && first == "regexp"
                    || two
                        && matches!(first, "strings" | "bytes")
                        && matches!(last, "Contains" | "ContainsAny" | "HasPrefix" | "HasSuffix")
            }
            Language::Other => {
                member
                    && matches!(
                        last,
                        "contains"
                            | "includes"
                            | "startsWith"
                            | "endsWith"
                            | "starts_with"
                            | "ends_with"
                            | "matches"
                            | "match"
                            | "test"
                    )
            }
        };
        let import = match lang {
            Language::TypeScript => {
                !member && last == "require"
                    || two
                        && matches!(first, "jest" | "vi")
                        && matches!(last, "mock" | "doMock" | "unmock" | "requireActual")
            }
            Language::Python => {
                self.text == "importlib.import_module" || !member && last == "__import__"
            }
            _ => false,
        };
        if matcher {
            Group::Matcher
        } else if import {
            Group::Import
        } else {
            Group::Plain
        }
    }
}

/// The callee of the call opened at `open`: a `(`, or a Rust macro's `(`, `[` or `{`.
fn callee<'a>(v: &Toks<'_, 'a>, open: usize) -> Option<Callee<'a>> {
    let lang = v.lang;
    let mut j = open.checked_sub(1)?;
    let bang = lang == Language::Rust
        && v.p(j, "!")
        && j > 0
        && v.adjacent(j - 1, j)
        && v.name(j - 1)
        && v.text(j - 1) != "macro_rules";
    if bang {
        j -= 1;
    } else if !v.p(open, "(") {
        return None;
    } else if v.p(j, ">")
        && v.adjacent(j, open)
        && matches!(lang, Language::TypeScript | Language::Rust)
    {
        j = generic_start(v, j)?;
    } else if lang == Language::TypeScript && v.p(j, "?.") {
        j = j.checked_sub(1)?;
    }
    let t = v.get(j)?;
    if t.kind != Kind::Ident {
        return None;
    }
    let member_name = v.member(j);
    if !member_name && (is_keyword(lang, t.text) || is_value_constructor(lang, t.text)) {
        return None;
    }
    let mut segs = vec![t.text];
    let mut seps: Vec<&str> = Vec::new();
    let mut k = j;
    let mut anonymous = false;
    while k > 0 && v.member(k) {
        let sep = if v.p(k - 1, "::") { "::" } else { "." };
        let receiver = k.checked_sub(2).and_then(|r| v.get(r).map(|t| (r, t)));
        match receiver {
            Some((_, r))
                if r.kind == Kind::Ident && matches!(r.text, "this" | "self" | "cls" | "super") =>
            {
                break
            }
            Some((r, rt))
                if rt.kind == Kind::Ident
                    && (!is_keyword(lang, rt.text)
                        || v.member(r)
                        || lang == Language::Rust && matches!(rt.text, "crate" | "Self")) =>
            {
                segs.insert(0, rt.text);
                seps.insert(0, sep);
                k = r;
            }
            _ => {
                anonymous = true;
                break;
            }
        }
    }
    let mut text = String::new();
    if anonymous && segs.len() == 1 {
        text.push('.');
    }
    for (n, s) in segs.iter().enumerate() {
        if n > 0 {
            text.push_str(seps[n - 1]);
        }
        text.push_str(s);
    }
    if bang {
        text.push('!');
    }
    Some(Callee {
        text,
        member: member_name,
        segs,
        name_tok: j,
    })
}

/// Walk back over `<...>` generic arguments ending at `gt`: `useState<string>(`,
/// `collect::<Vec<_>>(`. Returns the callee name's index.
fn generic_start(v: &Toks, gt: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut k = gt;
    for _ in 0..48 {
        let t = v.get(k)?;
        match (t.kind, t.text) {
            (Kind::Punct, ">") => depth += 1,
            (Kind::Punct, "<") => {
                depth -= 1;
                if depth == 0 {
                    return match v.lang {
                        Language::TypeScript => {
                            (k > 0 && v.name(k - 1) && v.adjacent(k - 1, k)).then(|| k - 1)
                        }
                        _ => (k > 1
                            && v.p(k - 1, "::")
                            && v.get(k - 2).is_some_and(|t| t.kind == Kind::Ident))
                        .then(|| k - 2),
                    };
                }
            }
            (Kind::Ident | Kind::Lit | Kind::Str, _) => {}
            (
                Kind::Punct,
                "," | "|" | "&" | "[" | "]" | "." | "?" | ":" | "::" | "(" | ")" | "=>" | "{" | "}"
                | ";" | "*",
            ) => {}
            _ => return None,
        }
        k = k.checked_sub(1)?;
    }
    None
}

/// Fill `declared` and `exported`; returns the declared names' token indices (their `(`
/// is a declaration, not a call).
fn declarations(v: &Toks, f: &mut LineFacts) -> Vec<usize> {
    let mut names: Vec<usize> = Vec::new();
    let n = v.t.len();
    let col0 = v.get(0).is_some_and(|t| t.at == 0 && t.kind == Kind::Ident);
    let keyword_at = |i: usize| v.get(i).is_some_and(|t| t.kind == Kind::Ident) && !v.member(i);
    match v.lang {
        Language::TypeScript => {
            for i in 0..n {
                if !keyword_at(i) {
                    continue;
                }
                match v.text(i) {
                    "function" => {
                        let j = if v.p(i + 1, "*") { i + 2 } else { i + 1 };
                        if v.name(j) {
                            names.push(j);
                        }
                    }
                    "class" | "interface" | "enum" if v.name(i + 1) => names.push(i + 1),
                    "type"
                        if (i == 0 || v.word(i - 1, "export") || v.word(i - 1, "declare"))
                            && v.name(i + 1)
                            && (v.p(i + 2, "=") || v.p(i + 2, "<")) =>
                    {
                        names.push(i + 1)
                    }
                    "const" | "let" | "var" => binding(v, i + 1, &mut names),
                    _ => {}
                }
            }
            if let Some(m) = method_definition(v) {
                names.push(m);
            }
            f.exported = v.word(0, "export")
                || v.word(0, "module") && v.p(1, ".") && v.word(2, "exports")
                || v.word(0, "exports") && v.p(1, ".");
            if v.word(0, "exports") && v.p(1, ".") && v.name(2) && v.p(3, "=") {
                names.push(2);
            }
        }
        Language::Python => {
            for i in 0..n {
                if keyword_at(i) && matches!(v.text(i), "def" | "class") && v.name(i + 1) {
                    names.push(i + 1);
                }
            }
            let assigns = v.p(1, "=") || v.p(1, ":") && !v.word(0, "lambda");
            if col0 && names.is_empty() && v.name(0) && assigns {
                names.push(0);
            }
            f.exported = col0
                && (matches!(v.text(0), "def" | "class" | "async") || names.first() == Some(&0))
                && names.first().is_some_and(|&i| !v.text(i).starts_with('_'));
        }
        Language::Rust => {
            for i in 0..n {
                if !keyword_at(i) {
                    continue;
                }
                match v.text(i) {
                    "fn" | "struct" | "enum" | "trait" | "mod" | "type" if v.name(i + 1) => {
                        names.push(i + 1)
                    }
                    "union" if v.name(i + 1) && (v.p(i + 2, "{") || v.p(i + 2, "<")) => {
                        names.push(i + 1)
                    }
                    "const" | "static" => {
                        let j = if v.word(i + 1, "mut") { i + 2 } else { i + 1 };
                        if v.name(j) {
                            names.push(j);
                        }
                    }
                    "let" => {
                        let mut j = i + 1;
                        while v.word(j, "mut") || v.word(j, "ref") {
                            j += 1;
                        }
                        if v.name(j) && !(v.p(j + 1, "(") || v.p(j + 1, "{") || v.p(j + 1, "::")) {
                            names.push(j);
                        } else if v.p(j, "(") {
                            binding(v, j, &mut names);
                        }
                    }
                    "macro_rules" if v.p(i + 1, "!") && v.name(i + 2) => names.push(i + 2),
                    _ => {}
                }
            }
            f.exported = v.word(0, "pub") && !v.p(1, "(");
        }
        Language::Go => {
            for i in 0..n {
                if keyword_at(i) {
                    match v.text(i) {
                        "func" if i == 0 && v.p(1, "(") => {
                            // A method: `func (s *Server) Handle(`.
                            if let Some(r) = v.matching(1) {
                                if v.name(r + 1) && (v.p(r + 2, "(") || v.p(r + 2, "[")) {
                                    names.push(r + 1);
                                }
                            }
                        }
                        "func" | "type" if v.name(i + 1) => names.push(i + 1),
                        "var" | "const" => {
                            let mut j = i + 1;
                            while v.name(j) {
                                names.push(j);
                                if !v.p(j + 1, ",") {
                                    break;
                                }
                                j += 2;
                            }
                        }
                        _ => {}
                    }
                } else if v.p(i, ":=") {
                    short_declaration(v, i, &mut names);
                }
            }
            let top = col0 && matches!(v.text(0), "func" | "type" | "var" | "const");
            f.exported = top
                && names
                    .first()
                    .is_some_and(|&i| v.text(i).starts_with(|c: char| c.is_uppercase()));
        }
        Language::Other => {}
    }
    for &i in &names {
        push_unique(&mut f.declared, v.text(i));
    }
    names
}

/// Names bound by a declaration starting at `j`: a name, or a `{ a, b: c }` / `[x, y]` /
/// `(a, b)` pattern (nested patterns are left out).
fn binding(v: &Toks, j: usize, names: &mut Vec<usize>) {
    if v.name(j) {
        names.push(j);
        return;
    }
    if !(v.p(j, "{") || v.p(j, "[") || v.p(j, "(")) {
        return;
    }
    let Some(end) = v.matching(j) else { return };
    let mut depth = 0;
    for k in j..end {
        match v.text(k) {
            "{" | "[" | "(" if v.get(k).is_some_and(|t| t.kind == Kind::Punct) => depth += 1,
            "}" | "]" | ")" if v.get(k).is_some_and(|t| t.kind == Kind::Punct) => depth -= 1,
            _ if depth == 1
                && v.name(k)
                && (v.p(k + 1, ",") || v.p(k + 1, "=") || k + 1 == end) =>
            {
                names.push(k)
            }
            _ => {}
        }
    }
}

/// Go `a, err := f()` at a statement start (or after `if`/`for`/`switch`).
fn short_declaration(v: &Toks, op: usize, names: &mut Vec<usize>) {
    let mut found = Vec::new();
    let mut k = op;
    while let Some(j) = k.checked_sub(1) {
        if !(v.name(j) || v.word(j, "_")) {
            return;
        }
        found.push(j);
        if j >= 1 && v.p(j - 1, ",") {
            k = j - 1;
            continue;
        }
        let at_start = j == 0
            || v.p(j - 1, ";")
            || v.p(j - 1, "{")
            || ["if", "for", "switch", "select", "else"]
                .iter()
                .any(|w| v.word(j - 1, w));
        if !at_start {
            return;
        }
        break;
    }
    names.extend(found.into_iter().rev().filter(|&j| v.text(j) != "_"));
}

/// A JS/TS method definition opening the line: `async save(item: Item): Promise<void> {`.
fn method_definition(v: &Toks) -> Option<usize> {
    const MODIFIERS: [&str; 11] = [
        "async",
        "static",
        "get",
        "set",
        "public",
        "private",
        "protected",
        "readonly",
        "override",
        "abstract",
        "declare",
    ];
    let mut m = 0;
    while MODIFIERS.iter().any(|w| v.word(m, w))
        && (v.get(m + 1).is_some_and(|t| t.kind == Kind::Ident) || v.p(m + 1, "*"))
    {
        m += 1;
    }
    if v.p(m, "*") {
        m += 1;
    }
    if !(v.name(m) || v.word(m, "constructor")) || !v.p(m + 1, "(") {
        return None;
    }
    let close = v.matching(m + 1)?;
    (v.p(close + 1, "{") || v.p(close + 1, ":")).then_some(m)
}

/// Module specifiers of import statements that are not string literals (Python, Rust),
/// and the Go import block.
fn module_imports(v: &Toks, st: &mut LexState, f: &mut LineFacts) {
    let dotted = |from: usize, sep: &str| {
        let mut s = String::new();
        let mut k = from;
        while let Some(t) = v.get(k) {
            let part = t.kind == Kind::Ident && !(t.text == "import" || t.text == "as")
                || t.kind == Kind::Punct
                    && (t.text == sep || matches!(t.text, "." | ".." | "...") && sep == ".");
            if !part {
                break;
            }
            s.push_str(t.text);
            k += 1;
        }
        (s, k)
    };
    match v.lang {
        Language::Python if v.word(0, "from") => {
            let (m, _) = dotted(1, ".");
            if !m.is_empty() {
                f.imports.push(m);
            }
        }
        Language::Python if v.word(0, "import") => {
            let mut k = 1;
            loop {
                let (m, end) = dotted(k, ".");
                if m.is_empty() {
                    break;
                }
                f.imports.push(m);
                k = end;
                if v.word(k, "as") {
                    k += 2;
                }
                if !v.p(k, ",") {
                    break;
                }
                k += 1;
            }
        }
        Language::Rust => {
            let start = if !v.word(0, "pub") {
                Some(0)
            } else if v.p(1, "(") {
                v.matching(1).map(|c| c + 1)
            } else {
                Some(1)
            };
            if let Some(k) = start.filter(|&k| v.word(k, "use")) {
                let (m, _) = dotted(k + 1, "::");
                let m = m.trim_end_matches("::").to_string();
                if !m.is_empty() {
                    f.imports.push(m);
                }
            }
        }
        Language::Go if v.word(0, "import") && v.p(1, "(") => st.go_imports = true,
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Test contracts and annotations over a file's added lines

/// Changed tests as repository contracts: `(line, title, framework)` for each test added
/// in `lines` (one file's added lines, in order). Frameworks: `js` (`it`/`test`, with
/// `.only`, `.concurrent`, `.failing`, `.each`), `pytest` (`def test*` in `test_*.py` /
/// `*_test.py`), `go` (`func TestX(t *testing.T)` in `*_test.go`), `rust` (`#[test]`,
/// `#[tokio::test]`, ... then `fn name`). Skipped tests (`it.skip`, `@pytest.mark.skip`,
/// `#[ignore]`) and `describe` titles are not contracts. A gap in line numbers ends
/// whatever was pending.
pub fn test_contracts(
    lang: Language,
    path: &str,
    lines: &[(u32, &str)],
) -> Vec<(u32, String, &'static str)> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let framework = match lang {
        Language::TypeScript => "js",
        Language::Python if name.starts_with("test_") || name.ends_with("_test.py") => "pytest",
        Language::Go if name.ends_with("_test.go") => "go",
        Language::Rust => "rust",
        _ => return Vec::new(),
    };
    let mut out = Vec::new();
    for run in lines.chunk_by(|a, b| b.0 == a.0.wrapping_add(1)) {
        let toks = lex_run(lang, run);
        let v = Toks { lang, t: &toks };
        let line_of = |i: usize| v.get(i).map_or(0, |t| run[t.line as usize].0);
        let found = match lang {
            Language::TypeScript => js_tests(&v, run),
            Language::Python => python_tests(&v),
            Language::Go => go_tests(&v),
            _ => rust_tests(&v),
        };
        out.extend(
            found
                .into_iter()
                .map(|(i, title)| (line_of(i), title, framework)),
        );
    }
    out
}

/// Tokens of consecutive lines, lexed with one carried state.
fn lex_run<'a>(lang: Language, run: &[(u32, &'a str)]) -> Vec<Tok<'a>> {
    let mut st = LexState::default();
    let mut toks = Vec::new();
    for (idx, (_, text)) in run.iter().enumerate() {
        let mut scratch = LineFacts::default();
        Lexer::new(lang, text, idx as u32, &mut st, &mut toks, &mut scratch).run();
    }
    toks
}

fn js_tests(v: &Toks, run: &[(u32, &str)]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for i in 0..v.t.len() {
        if !(v.word(i, "it") || v.word(i, "test") || v.word(i, "specify")) || v.member(i) {
            continue;
        }
        let mut j = i + 1;
        let mut each = false;
        let mut contract = true;
        while v.p(j, ".") && v.get(j + 1).is_some_and(|t| t.kind == Kind::Ident) {
            match v.text(j + 1) {
                "only" | "concurrent" | "failing" => {}
                "each" => each = true,
                _ => contract = false,
            }
            j += 2;
        }
        if !contract {
            continue;
        }
        if each {
            // The table: `.each([...])(` or `` .each`...`( ``.
            if v.p(j, "(") {
                match v.matching(j) {
                    Some(c) => j = c + 1,
                    None => continue,
                }
            } else if v.p(j, "`") {
                match (j + 1..v.t.len()).find(|&k| v.p(k, "`")) {
                    Some(c) => j = c + 1,
                    None => continue,
                }
            } else {
                continue;
            }
        }
        if !v.p(j, "(") {
            continue;
        }
        let title = if v.p(j + 1, "`") {
            let open = v.t[j + 1];
            let close = (j + 2..v.t.len()).find(|&k| v.p(k, "`")).map(|k| v.t[k]);
            match close {
                Some(c) if c.line == open.line => run[open.line as usize]
                    .1
                    .get(open.at as usize + 1..c.at as usize)
                    .unwrap_or("")
                    .to_string(),
                _ => v.text(j + 2).to_string(),
            }
        } else if v.get(j + 1).is_some_and(|t| t.kind == Kind::Str) {
            v.text(j + 1).to_string()
        } else {
            continue;
        };
        if !title.trim().is_empty() {
            out.push((i, title));
        }
    }
    out
}

fn python_tests(v: &Toks) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut skipped = false;
    for i in 0..v.t.len() {
        if v.p(i, "@") {
            // `@pytest.mark.skip`, `@unittest.skip(...)`, `@pytest.mark.xfail`.
            let mut k = i + 1;
            while v.get(k).is_some_and(|t| t.kind == Kind::Ident) && v.p(k + 1, ".") {
                k += 2;
            }
            skipped |= matches!(v.text(k), "skip" | "xfail");
        } else if v.word(i, "class") {
            skipped = false;
        } else if v.word(i, "def") && !v.member(i) {
            if v.name(i + 1) && v.text(i + 1).starts_with("test") && !skipped {
                out.push((i + 1, v.text(i + 1).to_string()));
            }
            skipped = false;
        }
    }
    out
}

fn go_tests(v: &Toks) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for i in 0..v.t.len() {
        if !(v.word(i, "func") && v.name(i + 1) && v.p(i + 2, "(")) {
            continue;
        }
        let name = v.text(i + 1);
        let Some(rest) = name.strip_prefix("Test") else {
            continue;
        };
        if rest.starts_with(|c: char| c.is_lowercase()) {
            continue;
        }
        let Some(close) = v.matching(i + 2) else {
            continue;
        };
        let takes_t =
            (i + 3..close).any(|k| v.word(k, "testing") && v.p(k + 1, ".") && v.word(k + 2, "T"));
        if takes_t {
            out.push((i + 1, name.to_string()));
        }
    }
    out
}

fn rust_tests(v: &Toks) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let (mut test, mut ignored) = (false, false);
    let mut i = 0;
    while i < v.t.len() {
        if v.p(i, "#") && v.p(i + 1, "[") {
            let mut k = i + 2;
            while v.get(k).is_some_and(|t| t.kind == Kind::Ident) && v.p(k + 1, "::") {
                k += 2;
            }
            match v.text(k) {
                "test" => test = true,
                "ignore" => ignored = true,
                _ => {}
            }
            i = v.matching(i + 1).map_or(v.t.len(), |c| c + 1);
            continue;
        }
        if test && v.word(i, "fn") && v.name(i + 1) {
            if !ignored {
                out.push((i + 1, v.text(i + 1).to_string()));
            }
            (test, ignored) = (false, false);
        } else if !(test
            && ["pub", "async", "unsafe", "const", "extern"]
                .iter()
                .any(|w| v.word(i, w)))
        {
            (test, ignored) = (false, false);
        }
        i += 1;
    }
    out
}

static QA_TAG: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"@(qaFlow|qaStage|qaOutcome|qaRisk)\b").expect("constant regex"));

/// An exported top-level declaration opening a line.
static EXPORTED_DECLARATION: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(concat!(
        r"^(?:export\s+(?:default\s+)?(?:declare\s+)?(?:async\s+)?(?:function\b|const\b|let\b|var\b|class\b|abstract\s+class\b|interface\b|type\b|enum\b)",
        r#"|\s*pub\s+(?:(?:async|const|unsafe)\s+|extern\s+"[^"]*"\s+)*fn\s"#,
        r"|(?:async\s+)?def\s+[A-Za-z]",
        r"|func\s+(?:\([^)]*\)\s*)?\p{Lu})",
    ))
    .expect("constant regex")
});

/// `@qaFlow`, `@qaStage`, `@qaOutcome` and `@qaRisk` tags of doc comments (`/** */`, `///`,
/// `//`, `#`) directly followed, on the next added line, by an exported top-level
/// declaration (`export function|const|class|...`, `pub fn`, a Python `def` at column 0
/// not starting with `_`, a Go capitalised `func`). Attribute and decorator lines may sit
/// between. Returns `(line of the declaration, tag without @, value)`. A comment not
/// attached to an added declaration says nothing.
pub fn annotations(lines: &[(u32, &str)]) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut in_block = false;
    let mut prev: Option<u32> = None;
    for &(n, text) in lines {
        if prev.is_some_and(|p| n != p.wrapping_add(1)) {
            pending.clear();
            in_block = false;
        }
        prev = Some(n);
        let t = text.trim_start();
        let mut code = text;
        if in_block || t.starts_with("/*") {
            let body = if in_block { t } else { &t[2..] };
            match body.find("*/") {
                Some(end) => {
                    collect_tags(&body[..end], &mut pending);
                    in_block = false;
                    code = &body[end + 2..];
                    if code.trim().is_empty() {
                        continue;
                    }
                    code = code.trim_start();
                }
                None => {
                    collect_tags(body, &mut pending);
                    in_block = true;
                    continue;
                }
            }
        } else if t.starts_with("//")
            || t.starts_with('#') && !t.starts_with("#[") && !t.starts_with("#!")
        {
            collect_tags(t, &mut pending);
            continue;
        }
        let attribute = t.starts_with("#[") || t.starts_with('@') && !t.starts_with("@qa");
        if attribute && !pending.is_empty() {
            continue;
        }
        if EXPORTED_DECLARATION.is_match(code) {
            out.extend(pending.drain(..).map(|(tag, value)| (n, tag, value)));
        }
        pending.clear();
    }
    out
}

fn collect_tags(comment: &str, into: &mut Vec<(String, String)>) {
    let tags: Vec<regex::Match> = QA_TAG.find_iter(comment).collect();
    for (k, m) in tags.iter().enumerate() {
        let end = tags.get(k + 1).map_or(comment.len(), |next| next.start());
        let value = comment[m.end()..end].trim().trim_end_matches('*').trim();
        if !value.is_empty() {
            into.push((m.as_str()[1..].to_string(), value.to_string()));
        }
    }
}

#[cfg(test)]
mod tests;

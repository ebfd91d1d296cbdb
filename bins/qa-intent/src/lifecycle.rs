//! Lifecycle facts: what changed lines and commit clauses say about triggers, conditions,
//! actions, state changes, side effects and observable outcomes, each located.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use qa_records::change::{FileData, Location, Op, Role, Stage};
use regex::Regex;

use qa_syntax::lines::LineFacts;

/// What kind of evidence a fact is; scenarios are built from these, never from prose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FactKind {
    /// An event handler, route or entry point (`onClick={save}`, `app.post("/refund")`).
    Trigger,
    /// A branch condition (`if (amount < 0)`).
    Condition,
    /// A branch condition comparing against a limit: boundary evidence.
    Comparison,
    /// A call of a function the change declares.
    Call,
    /// A state update; `literal` is the state a transition moves to, when named.
    State {
        literal: Option<String>,
        durable: bool,
    },
    /// A request, message, event or file write leaving the unit.
    SideEffect,
    /// A read of a web-storage key (`localStorage.getItem("theme")`): with a write of the
    /// same key, the change claims the value survives a reload.
    StoredRead { key: String },
    /// Something a user or caller sees; `error` for failure outcomes.
    Outcome { error: bool },
    /// A command-line argument or subcommand definition.
    Argument,
    /// Command output on stdout or stderr.
    Output,
    /// A process exit status.
    ExitCode,
    /// A matcher in an analysis rule (regex, pattern list).
    Pattern,
    /// A changed configuration line.
    Setting,
}

/// One located fact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fact {
    pub kind: FactKind,
    pub stage: Stage,
    pub text: String,
    pub at: Location,
    /// Specific words of the line, for telling apart intents that share a file.
    pub words: Vec<String>,
    /// The range commit that added the line, when qa-diff could tell.
    pub commit: Option<String>,
    /// The fact's text is on a removed line of the same file too: the line moved or was
    /// renamed around, the behaviour is not new.
    pub preexisting: bool,
}

/// Longest excerpt kept from a source line.
const EXCERPT: usize = 160;

/// Most facts kept per file: a huge generated-looking diff must not swamp the intent.
const PER_FILE: usize = 48;

pub fn excerpt(text: &str) -> String {
    let t = text.trim();
    match t.char_indices().nth(EXCERPT) {
        Some((i, _)) => format!("{}…", &t[..i]),
        None => t.to_string(),
    }
}

fn re(pattern: &str) -> Regex {
    qa_records::code_pattern::regex(pattern)
}

/// Compiles the patterns [`read_file`] matches every added line against (18 of them, about
/// 4 ms of CPU), which the first line read would otherwise compile: called where the
/// thread would wait for the other one.
pub fn compile_patterns() {
    let patterns = [
        &ROUTE,
        &LISTENER,
        &CONDITION,
        &COMPARISON,
        &AFFIX,
        &THROW,
        &STATUS,
        &NOTICE,
        &RESPONSE,
        &NAVIGATE,
        &STATE_TRANSITION,
        &DURABLE,
        &SETTER,
        &REQUEST,
        &ARGUMENT,
        &OUTPUT,
        &EXIT,
        &PATTERN,
    ];
    for pattern in patterns {
        LazyLock::force(pattern);
    }
}

static ROUTE: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        \b(?:app|router|server|fastify|api|bp|blueprint|http|r|e|g|mux)\s*\.\s*(get|post|put|patch|delete|route|handle(?:func)?|Handle(?:Func)?|GET|POST|PUT|PATCH|DELETE)\s*\(\s*["'`]([^"'`]+)["'`]
      | \#\[\s*(get|post|put|patch|delete)\s*\(\s*"([^"]+)"
      | \.route\s*\(\s*"([^"]+)"
      | \bpath\s*\(\s*["']([^"']*)["']
    "#)
});
static LISTENER: LazyLock<Regex> = LazyLock::new(|| re(r#"addEventListener\s*\(\s*["'](\w+)["']"#));
static CONDITION: LazyLock<Regex> = LazyLock::new(|| {
    // Loops (`while attempt < MAX_RETRIES`) are mechanics, not product conditions.
    re(r"^\s*(?:\}\s*)?(else\s+if|if|elif|unless|guard|case|when)\b\s*(.*)$")
});
static COMPARISON: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        ([\w.\]\)]+)\s*(<=|>=|<|>|===|==)\s*(-?\d+(?:\.\d+)?|[A-Z][A-Z0-9_]{2,}|\w*(?:max|min|limit|Max|Min|Limit)\w*)\b
      | (-?\d+(?:\.\d+)?)\s*(<=|>=|<|>)\s*([\w.]+)
    ")
});
/// An input tested against a literal at its start or end (`code.ends_with("\r\n")`,
/// `name.startsWith('_')`, `strings.HasPrefix(s, "v")`): like a comparison, a limit that
/// splits inputs in two.
static AFFIX: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        ((?:[\w.\[\]]|\(\))+)\s*\.\s*(ends_with|endsWith|endswith|starts_with|startsWith|startswith)
            \(\s*("(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\)
      | \b(HasSuffix|HasPrefix)\(\s*([\w.]+)\s*,\s*("(?:[^"\\]|\\.)*")\s*\)
    "#)
});

/// A condition joining several tests (`a > 0 || b`): no single limit to probe.
pub fn is_compound(condition: &str) -> bool {
    condition.contains("||")
        || condition.contains("&&")
        || condition.contains(" and ")
        || condition.contains(" or ")
}

/// What an affix test in `condition` probes: (the input, "starts" or "ends", the literal).
pub fn affix_test(condition: &str) -> Option<(&str, &'static str, &str)> {
    let c = AFFIX.captures(condition)?;
    let (input, predicate, lit) = match c.get(1) {
        Some(input) => (input, c.get(2)?, c.get(3)?),
        None => (c.get(5)?, c.get(4)?, c.get(6)?),
    };
    let p = predicate.as_str().to_ascii_lowercase();
    let side = if p.starts_with("ends") || p.ends_with("suffix") {
        "ends"
    } else {
        "starts"
    };
    Some((input.as_str(), side, lit.as_str()))
}

static THROW: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        \bthrow\s+new\s+\w*\s*\(\s*["'`]([^"'`]+)
      | \braise\s+\w+\s*\(\s*[fr]?["']([^"']+)
      | \b(?:bail|anyhow|ensure)!\s*\((?:[^"]*,\s*)?"([^"]+)
      | \bErr\s*\(\s*[\w:]*\(?\s*"([^"]+)
      | \berrors\.New\s*\(\s*"([^"]+)
      | \bfmt\.Errorf\s*\(\s*"([^"]+)
      | \bhttp\.Error\s*\(\s*\w+\s*,\s*"([^"]+)
      | \b(?:toast|message|notification)\.error\s*\(\s*["'`]([^"'`]+)
      | \bset(?:Error|ErrorMessage|FormError)\s*\(\s*["'`]([^"'`]+)
      | \bHTTPException\s*\(\s*status_code\s*=\s*(\d{3})
      | \bthrow\s+error\s*\(\s*\d{3}\s*,\s*["'`]([^"'`]+)
      | \bstatus\.Errorf?\s*\(\s*codes\.\w+\s*,\s*"([^"]+)
      | \braise\s+(?:[A-Z]\w*(?:::\w+)*\s*,\s*)?["']([^"']+)
      | \berror\s*:\s*["'`]([^"'`]+)
    "#)
});
static STATUS: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \.status\s*\(\s*(\d{3})\s*\)
      | \bstatus(?:_code)?\s*[=:]\s*(\d{3})\b
      | \bStatusCode::([A-Z_]+)
      | \bhttp\.Status(\w+)
      | \bstatus\.HTTP_(\d{3})
    ")
});
static NOTICE: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        \b(?:toast(?:\.success|\.info|\.warning)?|alert|notify|flash|showToast|showNotice|setMessage|setNotice|setStatusMessage|message\.(?:success|info)|snackbar\.\w+|enqueueSnackbar)\s*\(\s*(?:["'`]([^"'`]+)|(\w+))
    "#)
});
static RESPONSE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:res|reply|response|ctx|c)\s*\.\s*(?:json|send|render|JSON|String)\s*\(|\b(?:jsonify|JSONResponse|render_template|Json)\s*\(|\breturn\s+render\s*\(",
    )
});
static NAVIGATE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"\b(?:navigate|redirect|router\.push|router\.replace|history\.push|window\.location\.assign)\s*\(\s*["'`]([^"'`]+)"#,
    )
});
/// A move to a named state: an assignment through a receiver (`order.status = "shipped"`,
/// `self.state = State::Open`), a state setter (`setStatus("shipped")`) or a status in an
/// update call's payload. Local variables (`let state = "plain"`), field declarations
/// (`status = models.CharField(...)`) and query filters (`filter(status="x")`) are not.
static STATE_TRANSITION: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        \b[A-Za-z_]\w*(?:\.\w+)*\.\w*(?:status|state|Status|State)\s*=\s*["'`](\w[\w-]*)["'`]
      | \bset\w*(?:Status|State)\s*\(\s*["'`](\w[\w-]*)["'`]
      | \b[A-Za-z_]\w*(?:\.\w+)*\.\w*(?:status|state|Status|State)\s*=\s*(?:\w+(?:::|\.))+([A-Z]\w*)\s*;?\s*$
      | \bset\w*(?:Status|State)\s*\(\s*(?:\w+(?:::|\.))+([A-Z]\w*)\s*\)
      | \b(?:update\w*|save\w*|upsert\w*|patch\w*|insert\w*|setState|findOneAndUpdate|update_or_create)\s*\(.*?\b\w*(?:status|state)\s*[:=]\s*["'`](\w[\w-]*)["'`]
    "#)
});
static DURABLE: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \b(?:localStorage|sessionStorage|AsyncStorage)\s*\.\s*setItem\s*\(
      | \.(?:save|persist|upsert|insert_one|insertOne|insertMany|updateOne|updateMany|deleteOne|deleteMany|bulk_create|put_item|findOneAndUpdate|saveAll)\s*\(
      | \b(?:db|repo|repository|store|storage|collection|table|session|objects|prisma|knex|tx|conn|cursor)\b(?:\.\w+)*\.(?:insert|update|delete|destroy|remove|create|execute|exec|query|set|put|commit)\s*\(
      | \b(?:INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b
      | \bfs\.write(?:File(?:Sync)?)?\s*\(
      | \bdb\.(?:Create|Save|Exec|Delete|Model)\s*\(
    ")
});
static SETTER: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?x)
        \bset[A-Z]\w*\s*\(
      | \bsetState\s*\(
      | \bthis\.state\.\w+\s*=
      | \bself\.\w+\s*=[^=]
      | \bdispatch\s*\(
    ")
});
static REQUEST: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        \bfetch\s*\(
      | \baxios(?:\.\w+)?\s*\(
      | \brequests\.(?:get|post|put|patch|delete)\s*\(
      | \bhttpx?\.(?:get|post|put|patch|delete|Get|Post|NewRequest)\s*\(
      | \breqwest::
      | \b(?:send_?[eE]mail|send_mail|sendMail|mailer\.\w+|publish|enqueue|emit|postMessage|track)\s*\(
    "#)
});
static ARGUMENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"(?x)
        \bArg::new\s*\(
      | \#\[\s*(?:arg|clap|command)\s*\(
      | \.(?:arg|long|short|subcommand)\s*\(
      | \badd_argument\s*\(
      | \badd_parser\s*\(
      | \.option\s*\(\s*["'`]-
      | \.command\s*\(\s*["'`]
      | \bflag\.(?:String|Bool|Int|Duration)(?:Var)?\s*\(
      | \.(?:Persistent)?Flags\(\)\.\w+\s*\(
      | @click\.(?:option|argument|command|group)\b
      | \b(?:Use|Args)\s*:\s*
      | \b(?:pub\s+)?\w+\s*:\s*(?:Option<|bool|String|PathBuf|u\d+|usize|Vec<)
    "#)
});
static OUTPUT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:println!|eprintln!|print!|eprint!|writeln!|print|console\.(?:log|error|warn)|sys\.(?:stdout|stderr)\.write|fmt\.(?:Print|Fprint)\w*|click\.echo|process\.(?:stdout|stderr)\.write)\s*\(",
    )
});
static EXIT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\b(?:process\.exit|sys\.exit|std::process::exit|os\.Exit|ExitCode::from|exit)\s*\(\s*(-?\d+)?|\bExitCode::(SUCCESS|FAILURE)",
    )
});
static PATTERN: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\bRegex(?:Set|Builder)?::new\s*\(|\bregex!\s*\(|\bRegExp\s*\(|\bre\.(?:compile|match|search|findall|fullmatch|sub)\s*\(|\bregexp\.MustCompile\w*\s*\(|\bPattern\.compile\s*\(|/[^/\s][^/]*/[gimsuy]*\.test\s*\(",
    )
});

/// What qa-intent learns from one changed file's added lines.
#[derive(Debug, Clone, Default)]
pub struct Reading {
    pub facts: Vec<Fact>,
    /// Symbols declared on added lines.
    pub declared: BTreeSet<String>,
    /// Specific words of identifiers used on added lines.
    pub words: BTreeSet<String>,
    /// File stems of the modules added lines import (`../src/rules/urgency` -> urgency).
    pub imports: BTreeSet<String>,
}

/// The file stem a module specifier names, lowercased: `../src/rules/urgency.js` and
/// `./urgency` -> urgency, Python's `app.orders` -> orders.
pub fn module_stem(spec: &str) -> String {
    let spec = spec.trim_end_matches('/');
    let stem = if spec.contains('/') {
        let last = spec.rsplit('/').next().unwrap_or(spec);
        last.split('.').next().unwrap_or(last)
    } else {
        spec.rsplit(['.', ':'])
            .find(|p| !p.is_empty())
            .unwrap_or(spec)
    };
    stem.to_ascii_lowercase()
}

/// Reads one changed file, by its role. Only added lines count: they are what the
/// change makes true. `lines` are the facts its syntax trees give for its added lines; a
/// line they do not read (a file with no grammar, or whose head cannot be read) gives no
/// facts of code: no facts rather than wrong ones.
pub fn read_file(file: &FileData, lines: Option<&BTreeMap<u32, LineFacts>>) -> Reading {
    let none = LineFacts::default();
    let mut reading = Reading::default();
    let out = &mut reading.facts;
    for hunk in &file.hunks {
        for line in &hunk.lines {
            if line.op != Op::Add {
                continue;
            }
            let facts = lines.and_then(|l| l.get(&line.line)).unwrap_or(&none);
            reading.declared.extend(facts.declared.iter().cloned());
            reading
                .imports
                .extend(facts.imports.iter().map(|i| module_stem(i)));
            reading.words.extend(
                facts
                    .identifiers
                    .iter()
                    .flat_map(|i| crate::vocabulary::usage_terms(i)),
            );
            let at = Location {
                file: file.path.clone(),
                line: line.line,
            };
            // Test code a product file holds (a `#[cfg(test)]` module) is the oracle's,
            // read as tests: its conditions and panics are no product behaviour.
            if out.len() >= PER_FILE || facts.test_code {
                continue;
            }
            let before = out.len();
            match file.role {
                Role::Product => product_facts(&line.text, facts, &at, out),
                Role::Command => command_facts(&line.text, facts, &at, out),
                Role::AnalysisRule => rule_facts(&line.text, facts, &at, out),
                Role::Configuration | Role::RepositoryWorkflow => {
                    setting_facts(&line.text, &at, out)
                }
                _ => {}
            }
            for fact in &mut out[before..] {
                fact.commit.clone_from(&line.commit);
            }
        }
    }
    // Error messages already on a removed line were moved or renamed, not introduced.
    let removed: Vec<&str> = file
        .hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.op == Op::Remove)
        .map(|l| l.text.as_str())
        .collect();
    if !removed.is_empty() {
        for fact in &mut reading.facts {
            if matches!(fact.kind, FactKind::Outcome { error: true }) && fact.text.len() >= 6 {
                let literal = fact.text.split('{').next().unwrap_or(&fact.text).trim();
                fact.preexisting =
                    literal.len() >= 6 && removed.iter().any(|r| r.contains(literal));
            }
        }
    }
    reading
}

/// Marks the facts that are not new: a condition whose text the base file already had
/// (moved into a loop, out of a helper: the trees say so), and a condition or error on a
/// line that was copied from the base file or moved from a removed line of any file of
/// the change (`moved`: removed lines, whitespace-free). Such facts make no boundary or
/// failure scenario.
pub fn refine(
    reading: &mut Reading,
    file: &FileData,
    delta: Option<&crate::deltas::FileDelta>,
    moved: &std::collections::HashSet<String>,
) {
    let added: std::collections::HashMap<u32, &str> = file
        .hunks
        .iter()
        .flat_map(|h| h.lines.iter())
        .filter(|l| l.op == Op::Add)
        .map(|l| (l.line, l.text.as_str()))
        .collect();
    for fact in &mut reading.facts {
        if !matches!(
            fact.kind,
            FactKind::Condition | FactKind::Comparison | FactKind::Outcome { error: true }
        ) {
            continue;
        }
        let line = fact.at.line;
        let on = |list: &[crate::deltas::At]| list.iter().any(|c| c.line == line);
        let moved_condition = delta.is_some_and(|d| {
            matches!(fact.kind, FactKind::Condition | FactKind::Comparison)
                && on(&d.moved_conditions)
                && !on(&d.new_conditions)
        });
        let copied = delta.is_some_and(|d| d.copied_lines.contains(&line));
        let moved_line = added
            .get(&line)
            .is_some_and(|t| moved.contains(&crate::deltas::squeeze(t)));
        if moved_condition || copied || moved_line {
            fact.preexisting = true;
        }
    }
}

/// True when the line is only a comment (or blank): nothing in it is code.
fn is_comment_only(text: &str, facts: &LineFacts) -> bool {
    let t = text.trim();
    t.is_empty()
        || t.starts_with("//")
        || t.starts_with('#') && !t.starts_with("#[")
        || t.starts_with("/*")
        || t.starts_with('*')
        || (facts.calls.is_empty()
            && facts.identifiers.is_empty()
            && facts.jsx_text.is_empty()
            && facts.comment.is_some())
}

fn push(
    out: &mut Vec<Fact>,
    kind: FactKind,
    stage: Stage,
    text: String,
    at: &Location,
    facts: &LineFacts,
) {
    // Identifiers and the line's own strings (a message names its behaviour too), singular.
    let words = facts
        .identifiers
        .iter()
        .chain(&facts.strings)
        .flat_map(|i| crate::vocabulary::words_of(i))
        .map(|w| crate::vocabulary::singular(&w))
        .collect();
    out.push(Fact {
        kind,
        stage,
        text,
        at: at.clone(),
        words,
        commit: None,
        preexisting: false,
    });
}

/// True when the regex match starts in code: its first identifier is one the tree saw
/// outside strings, comments and regex literals.
fn in_code(m: &regex::Match, facts: &LineFacts) -> bool {
    let lead: String = m
        .as_str()
        .trim_start_matches(|c: char| !c.is_alphanumeric() && c != '_')
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    lead.is_empty()
        || facts.identifiers.iter().any(|i| {
            i == &lead
                || i.starts_with(&format!("{lead}."))
                || i.ends_with(&format!(".{lead}"))
                || i.split(['.', ':']).any(|p| p == lead)
        })
        || facts
            .calls
            .iter()
            .any(|c| c.split(['.', ':']).any(|p| p.trim_end_matches('!') == lead))
        || matches!(
            lead.as_str(),
            "throw" | "raise" | "if" | "self" | "this" | "INSERT" | "UPDATE" | "DELETE" | "print"
        )
}

fn find<'t>(re: &Regex, text: &'t str, facts: &LineFacts) -> Option<regex::Captures<'t>> {
    // Most patterns miss most lines: the plain match test is far cheaper than captures.
    if !re.is_match(text) {
        return None;
    }
    re.captures_iter(text)
        .find(|c| in_code(&c.get(0).expect("group 0"), facts))
}

fn first_group(c: &regex::Captures) -> Option<String> {
    c.iter()
        .skip(1)
        .flatten()
        .next()
        .map(|m| m.as_str().to_string())
}

/// The message a captured group starts: when it begins a quoted string, the whole argument
/// is rendered, concatenations and interpolations included (`"account " + id + " is
/// frozen"` -> `account {id} is frozen`).
fn message(c: &regex::Captures, text: &str) -> Option<String> {
    let group = c.iter().skip(1).flatten().next()?;
    let start = group.start();
    let opens_string = start > 0 && matches!(text.as_bytes()[start - 1], b'"' | b'\'' | b'`');
    if !opens_string {
        return Some(group.as_str().to_string());
    }
    let rendered = render_argument(&text[start - 1..]);
    Some(if rendered.is_empty() {
        group.as_str().to_string()
    } else {
        rendered
    })
}

/// Renders one call argument made of string literals and the values joined to them.
pub fn render_argument(arg: &str) -> String {
    let chars: Vec<char> = arg.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '"' | '\'' | '`' => {
                i += 1;
                while i < chars.len() && chars[i] != c {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                    } else if c == '`' && chars[i] == '$' && chars.get(i + 1) == Some(&'{') {
                        // `${expr}` -> `{expr}`
                        i += 1;
                        continue;
                    }
                    out.push(chars[i]);
                    i += 1;
                }
                i += 1;
                if !joined_next(&chars, i) {
                    break;
                }
            }
            ' ' | '\t' => i += 1,
            '+' => {
                i += 1;
                continue;
            }
            ')' | ',' | ';' => break,
            _ => {
                let mut depth = 0;
                let begin = i;
                while i < chars.len() {
                    match chars[i] {
                        '(' | '[' => depth += 1,
                        ')' | ']' if depth > 0 => depth -= 1,
                        ')' | ',' | ';' | '+' if depth == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
                let expr: String = chars[begin..i].iter().collect();
                let expr = expr.trim();
                if !expr.is_empty() {
                    out.push('{');
                    out.push_str(expr);
                    out.push('}');
                }
                if !joined_next(&chars, i) {
                    break;
                }
            }
        }
    }
    out
}

/// True when the next token after `i` is a `+` joining another part.
fn joined_next(chars: &[char], i: usize) -> bool {
    chars[i.min(chars.len())..]
        .iter()
        .find(|c| !c.is_whitespace())
        .is_some_and(|&c| c == '+')
}

fn product_facts(text: &str, facts: &LineFacts, at: &Location, out: &mut Vec<Fact>) {
    if is_comment_only(text, facts) {
        return;
    }
    let line = excerpt(text);
    // Triggers: routes, listeners, JSX event handlers.
    if let Some(c) = find(&ROUTE, text, facts) {
        let parts: Vec<&str> = c.iter().skip(1).flatten().map(|m| m.as_str()).collect();
        let label = match parts.as_slice() {
            [method, path]
                if ["route", "handle", "handlefunc"]
                    .contains(&method.to_ascii_lowercase().as_str()) =>
            {
                format!("request to {path}")
            }
            [method, path] => format!("{} {path}", method.to_ascii_uppercase()),
            [path] => format!("request to {path}"),
            _ => line.clone(),
        };
        push(out, FactKind::Trigger, Stage::Trigger, label, at, facts);
    } else if let Some(c) = find(&LISTENER, text, facts) {
        push(
            out,
            FactKind::Trigger,
            Stage::Trigger,
            format!("{} event", &c[1]),
            at,
            facts,
        );
    } else if let Some((event, handler)) = facts.jsx_attrs.iter().find(|(k, _)| is_event_attr(k)) {
        push(
            out,
            FactKind::Trigger,
            Stage::Trigger,
            format!("{event} runs {handler}"),
            at,
            facts,
        );
    }
    // Conditions and limits.
    if let Some(cond) = condition_of(text) {
        let cond = cond.as_str();
        if !facts.identifiers.is_empty() {
            // An affix test inside a compound condition is one case of several, no limit.
            let affix = AFFIX.is_match(cond) && !is_compound(cond);
            let kind = if COMPARISON.is_match(cond) || affix {
                FactKind::Comparison
            } else {
                FactKind::Condition
            };
            push(out, kind, Stage::Condition, cond.to_string(), at, facts);
        }
    }
    // Outcomes: errors first (they shape failure scenarios), then what users see.
    if let Some(c) = find(&THROW, text, facts) {
        let msg = with_detail(message(&c, text).unwrap_or_else(|| line.clone()), text);
        push(
            out,
            FactKind::Outcome { error: true },
            Stage::ObservableOutcome,
            msg,
            at,
            facts,
        );
    } else if let Some(c) = find(&STATUS, text, facts) {
        let code = first_group(&c).unwrap_or_default();
        let error = code.parse::<u16>().is_ok_and(|n| n >= 400)
            || [
                "BAD",
                "NOT_FOUND",
                "FORBIDDEN",
                "UNAUTHORIZED",
                "CONFLICT",
                "UNPROCESSABLE",
                "INTERNAL",
                "BadRequest",
                "NotFound",
                "Forbidden",
                "Unauthorized",
                "Conflict",
                "InternalServerError",
                "UnprocessableEntity",
            ]
            .iter()
            .any(|e| code.starts_with(e));
        push(
            out,
            FactKind::Outcome { error },
            Stage::ObservableOutcome,
            format!("responds with status {code}"),
            at,
            facts,
        );
    } else if let Some(c) = find(&NOTICE, text, facts) {
        let shown = first_group(&c).unwrap_or_default();
        push(
            out,
            FactKind::Outcome { error: false },
            Stage::ObservableOutcome,
            format!("shows {shown:?}"),
            at,
            facts,
        );
    } else if let Some(c) = find(&NAVIGATE, text, facts) {
        push(
            out,
            FactKind::Outcome { error: false },
            Stage::ObservableOutcome,
            format!("navigates to {}", &c[1]),
            at,
            facts,
        );
    } else if find(&RESPONSE, text, facts).is_some() {
        push(
            out,
            FactKind::Outcome { error: false },
            Stage::ObservableOutcome,
            format!("responds: {line}"),
            at,
            facts,
        );
    } else if let Some(t) = facts
        .jsx_text
        .iter()
        .find(|t| t.chars().filter(|c| c.is_alphabetic()).count() >= 2)
    {
        push(
            out,
            FactKind::Outcome { error: false },
            Stage::ObservableOutcome,
            format!("shows {:?}", t.trim()),
            at,
            facts,
        );
    }
    // State: transitions to a named state, durable writes, in-memory setters.
    if let Some(c) = find(&STATE_TRANSITION, text, facts) {
        let literal = first_group(&c);
        let durable = find(&DURABLE, text, facts).is_some();
        push(
            out,
            FactKind::State { literal, durable },
            Stage::StateChange,
            line.clone(),
            at,
            facts,
        );
    } else if find(&DURABLE, text, facts).is_some() {
        push(
            out,
            FactKind::State {
                literal: None,
                durable: true,
            },
            Stage::StateChange,
            line.clone(),
            at,
            facts,
        );
    } else if find(&SETTER, text, facts).is_some() && !is_presentation_setter(text) {
        push(
            out,
            FactKind::State {
                literal: None,
                durable: false,
            },
            Stage::StateChange,
            line.clone(),
            at,
            facts,
        );
    }
    if let Some(key) = stored_key(text, "getItem") {
        push(
            out,
            FactKind::StoredRead { key },
            Stage::StateChange,
            line.clone(),
            at,
            facts,
        );
    }
    if find(&REQUEST, text, facts).is_some() {
        push(
            out,
            FactKind::SideEffect,
            Stage::SideEffect,
            line.clone(),
            at,
            facts,
        );
    }
    // Declared functions and their calls are the action.
    // Only functions: a changed `const logger = ...` or `let saved = false` is no action.
    static FUNCTION: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\b(?:function|def|fn|func)\b|=>|^\s*(?:(?:export|public|private|async|static)\s+)*[A-Za-z_]\w*\s*\([^)]*\)\s*(?::\s*[\w<>\[\]|, ]+)?\s*\{\s*$",
        )
    });
    if let Some(name) = facts.declared.first().filter(|_| FUNCTION.is_match(text)) {
        if facts.exported || looks_like_action(name) {
            push(
                out,
                FactKind::Call,
                Stage::Action,
                format!("{name} (changed)"),
                at,
                facts,
            );
        }
    }
}

/// An HTTP error's code with the detail the same line gives (`HTTPException(status_code=404,
/// detail="item not found")` -> "404 item not found").
fn with_detail(message: String, text: &str) -> String {
    static DETAIL: LazyLock<Regex> =
        LazyLock::new(|| re(r#"\b(?:detail|message|msg)\s*[=:]\s*f?["'`]([^"'`]+)"#));
    match DETAIL.captures(text) {
        Some(d) if message.chars().all(|c| c.is_ascii_digit()) => format!("{message} {}", &d[1]),
        _ => message,
    }
}

/// The key of a web-storage `method` call on the line (`setItem` or `getItem`).
pub fn stored_key(text: &str, method: &str) -> Option<String> {
    static STORAGE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"\b(?:localStorage|sessionStorage|AsyncStorage)\s*\.\s*(setItem|getItem)\s*\(\s*(?:["'`]([^"'`]+)["'`]|([A-Za-z_][\w.]*)\s*[,)])"#,
        )
    });
    // The key is a literal or the constant that holds it (`STORAGE_KEY`).
    STORAGE
        .captures_iter(text)
        .find(|c| &c[1] == method)
        .and_then(|c| c.get(2).or(c.get(3)).map(|m| m.as_str().to_string()))
}

/// The condition of a branch line: the balanced parentheses after `if (`, or the text up
/// to the block opener (`{`, `:`) for Python, Go and Rust.
pub fn condition_of(text: &str) -> Option<String> {
    let rest = CONDITION.captures(text)?.get(2)?.as_str();
    // A pragma or note after the code (`# pragma: nocover`, `// why`) is no condition.
    let rest = without_line_comment(rest).trim();
    let cond = if let Some(inner) = rest.strip_prefix('(') {
        let mut depth = 1;
        let end = inner.char_indices().find_map(|(i, c)| {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            (depth == 0).then_some(i)
        })?;
        &inner[..end]
    } else {
        rest.trim_end_matches(['{', ':']).trim_end()
    };
    let cond = cond.trim();
    (!cond.is_empty()).then(|| excerpt(cond))
}

/// `line` up to a trailing `#` or `//` comment that stands outside a string: a comment
/// marker must follow whitespace (so `a#b`, `x//y` in code and `http://` stay).
fn without_line_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    let mut quote: Option<u8> = None;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(_) if b == b'\\' => i += 1,
            Some(q) if b == q => quote = None,
            Some(_) => {}
            None if matches!(b, b'"' | b'\'' | b'`') => quote = Some(b),
            None if i > 0
                && bytes[i - 1].is_ascii_whitespace()
                && (b == b'#' || (b == b'/' && bytes.get(i + 1) == Some(&b'/'))) =>
            {
                return &line[..i];
            }
            None => {}
        }
        i += 1;
    }
    line
}

/// Setters that only change presentation (`setClassName`, `setOpen`, `setHover`) are not
/// behaviour state.
fn is_presentation_setter(text: &str) -> bool {
    static PRESENTATION: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"\bset(?:ClassName|Class|Style|Styles|Theme|Hover|Hovered|Focus|Focused|Open|Expanded|Collapsed|Visible|Width|Height|Size|Color|Variant|Animation|Tab|ActiveTab|Error|Errors|Loading|Saving|Submitting|Busy|Pending|Message|Notice|Toast|Dirty|Touched)\s*\(",
        )
    });
    PRESENTATION.is_match(text)
        && !SETTER
            .find_iter(text)
            .any(|m| !PRESENTATION.is_match(m.as_str()) && !m.as_str().starts_with("set"))
}

fn looks_like_action(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [
        "handle", "on", "submit", "save", "create", "update", "delete", "remove", "apply",
        "process", "send", "load", "fetch", "validate", "check", "reject", "accept", "refund",
        "pay", "export", "import",
    ]
    .iter()
    .any(|v| lower.starts_with(v))
}

fn is_event_attr(name: &str) -> bool {
    name.len() > 2
        && name.starts_with("on")
        && name[2..].starts_with(|c: char| c.is_ascii_uppercase())
}

fn command_facts(text: &str, facts: &LineFacts, at: &Location, out: &mut Vec<Fact>) {
    if is_comment_only(text, facts) {
        return;
    }
    let line = excerpt(text);
    if ARGUMENT.is_match(text) {
        push(
            out,
            FactKind::Argument,
            Stage::Trigger,
            line.clone(),
            at,
            facts,
        );
    }
    if let Some(c) = find(&THROW, text, facts) {
        let msg = with_detail(message(&c, text).unwrap_or_else(|| line.clone()), text);
        push(
            out,
            FactKind::Outcome { error: true },
            Stage::ObservableOutcome,
            msg,
            at,
            facts,
        );
    }
    if find(&OUTPUT, text, facts).is_some() {
        push(
            out,
            FactKind::Output,
            Stage::ObservableOutcome,
            line.clone(),
            at,
            facts,
        );
    }
    if find(&EXIT, text, facts).is_some() {
        push(
            out,
            FactKind::ExitCode,
            Stage::ObservableOutcome,
            line.clone(),
            at,
            facts,
        );
    }
    if let Some(cond) = condition_of(text) {
        if !facts.identifiers.is_empty() {
            push(out, FactKind::Condition, Stage::Condition, cond, at, facts);
        }
    }
}

fn rule_facts(text: &str, facts: &LineFacts, at: &Location, out: &mut Vec<Fact>) {
    if is_comment_only(text, facts) {
        return;
    }
    // The rule's matcher vocabulary is never product behaviour: keep only that a pattern
    // changed, and where.
    // A regex constructor, a matcher string, or a word-list entry of the rule.
    if PATTERN.is_match(text) || !facts.matcher_strings.is_empty() || !facts.strings.is_empty() {
        push(
            out,
            FactKind::Pattern,
            Stage::Condition,
            format!("pattern changed at line {}", at.line),
            at,
            facts,
        );
    }
}

fn setting_facts(text: &str, at: &Location, out: &mut Vec<Fact>) {
    let t = text.trim();
    if t.is_empty()
        || t.starts_with('#')
        || t.starts_with("//")
        || matches!(t, "{" | "}" | "[" | "]" | "}," | "],")
    {
        return;
    }
    out.push(Fact {
        kind: FactKind::Setting,
        stage: Stage::Condition,
        text: excerpt(t),
        at: at.clone(),
        words: Vec::new(),
        commit: None,
        preexisting: false,
    });
}

/// Lifecycle clauses of a commit subject: the action it names and, when present, the
/// trigger (`when ...`, `on ...`, `after ...`) and condition (`if ...`, `unless ...`).
pub fn clauses(description: &str) -> Vec<(Stage, String)> {
    static SPLIT: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?i)\s+\b(only when|only if|when|whenever|after|before|upon|if|unless)\s+")
    });
    let mut out = Vec::new();
    let mut rest = description.trim();
    let mut pending: Option<Stage> = None;
    loop {
        let found = SPLIT.captures(rest).map(|c| {
            let m = c.get(0).expect("group 0");
            let word = c[1].to_ascii_lowercase();
            (m.start(), m.end(), word)
        });
        let (head, next) = match &found {
            Some((start, end, word)) => (&rest[..*start], Some((&rest[*end..], word.clone()))),
            None => (rest, None),
        };
        let head = head.trim();
        if !head.is_empty() {
            out.push((pending.unwrap_or(Stage::Action), head.to_string()));
        }
        match next {
            Some((tail, word)) => {
                pending = Some(
                    if matches!(word.as_str(), "if" | "unless" | "only when" | "only if") {
                        Stage::Condition
                    } else {
                        Stage::Trigger
                    },
                );
                rest = tail;
            }
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests;

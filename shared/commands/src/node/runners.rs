//! The test runner behind a package's `test` script: which one it starts (following
//! `npm run X` and its kin), the options and environment a narrowed run keeps, and whether
//! the script watches files instead of finishing.

use serde_json::{Map, Value};
use std::cell::Cell;

/// A JavaScript test runner that takes test files on its command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TestRunner {
    Vitest,
    Jest,
    Mocha,
    /// Node's own runner, `node --test`.
    NodeTest,
    /// Playwright Test, `playwright test`.
    Playwright,
    Ava,
    /// Karma, `karma start [config]`: browsers run the files its configuration lists, so a
    /// narrowed run names the changed tests by title (`-- --grep=..`), never by file.
    Karma,
}

/// What one option of a runner's command line is to a narrowed run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Opt {
    /// Kept: it chooses the configuration, loaders or environment the tests need.
    Keep,
    KeepWithValue,
    /// Left out with its value: it would select other tests than the changed ones, or
    /// fail a run of a few files (coverage thresholds, shards, name filters).
    DropWithValue,
    /// Anything else, left out; a value after it reads as a positional and goes too.
    Drop,
}

impl TestRunner {
    fn option(self, flag: &str) -> Opt {
        use Opt::*;
        let table: &[(&str, Opt)] = match self {
            TestRunner::Vitest => &[
                ("--config", KeepWithValue),
                ("-c", KeepWithValue),
                ("--root", KeepWithValue),
                ("-r", KeepWithValue),
                ("--dir", KeepWithValue),
                ("--environment", KeepWithValue),
                ("--mode", KeepWithValue),
                ("--pool", KeepWithValue),
                ("--globals", Keep),
                ("--project", DropWithValue),
                ("--dom", Keep),
            ],
            TestRunner::Jest => &[
                ("--config", KeepWithValue),
                ("-c", KeepWithValue),
                ("--rootDir", KeepWithValue),
                ("--env", KeepWithValue),
                ("--testEnvironment", KeepWithValue),
                ("--runInBand", Keep),
                ("-i", Keep),
                ("--ci", Keep),
                ("--detectOpenHandles", Keep),
                ("--forceExit", Keep),
            ],
            TestRunner::Mocha => &[
                ("--config", KeepWithValue),
                ("--require", KeepWithValue),
                ("-r", KeepWithValue),
                ("--ui", KeepWithValue),
                ("-u", KeepWithValue),
                ("--extension", KeepWithValue),
                ("--file", KeepWithValue),
                ("--timeout", KeepWithValue),
                ("-t", KeepWithValue),
                ("--node-option", KeepWithValue),
                ("-n", KeepWithValue),
                ("--package", KeepWithValue),
                ("--recursive", Keep),
                ("--exit", Keep),
            ],
            TestRunner::NodeTest => &[
                ("--import", KeepWithValue),
                ("--require", KeepWithValue),
                ("-r", KeepWithValue),
                ("--loader", KeepWithValue),
                ("--experimental-loader", KeepWithValue),
                ("--conditions", KeepWithValue),
                ("-C", KeepWithValue),
                ("--env-file", KeepWithValue),
                ("--test-reporter", KeepWithValue),
                ("--test-reporter-destination", KeepWithValue),
                ("--test-concurrency", KeepWithValue),
                ("--test-timeout", KeepWithValue),
                ("--test-name-pattern", DropWithValue),
                ("--test-skip-pattern", DropWithValue),
                ("--test-shard", DropWithValue),
                ("--test-coverage-include", DropWithValue),
                ("--test-coverage-exclude", DropWithValue),
                ("--watch-path", DropWithValue),
                ("--experimental-test-coverage", Drop),
                // `--test` itself is written by the narrowed command.
                ("--test", Drop),
                ("--no-warnings", Keep),
                ("--enable-source-maps", Keep),
                ("--expose-gc", Keep),
            ],
            TestRunner::Playwright => &[
                ("--config", KeepWithValue),
                ("-c", KeepWithValue),
                ("--project", DropWithValue),
            ],
            TestRunner::Karma => &[
                ("--browsers", KeepWithValue),
                ("--port", KeepWithValue),
                ("--log-level", KeepWithValue),
                // The narrowed run writes `--single-run` itself.
                ("--single-run", Drop),
            ],
            TestRunner::Ava => &[
                ("--config", KeepWithValue),
                ("--serial", Keep),
                ("-s", Keep),
                ("--timeout", KeepWithValue),
                ("-T", KeepWithValue),
            ],
        };
        match table.iter().find(|(name, _)| *name == flag) {
            Some((_, opt)) => *opt,
            // Node's experimental switches change how files load (`--experimental-vm-modules`,
            // `--experimental-strip-types`): the tests may need them.
            None if self == TestRunner::NodeTest && flag.starts_with("--experimental-") => Keep,
            None => Drop,
        }
    }

    /// The options of `args` the narrowed run keeps, every flag name seen, and the paths
    /// named. For node the options end at the first positional: from there on, the files
    /// `--test` runs.
    fn scan(self, args: &[String]) -> Scanned {
        let mut scanned = Scanned::default();
        let Scanned { kept, flags, paths } = &mut scanned;
        let mut maybe_value = false;
        let mut k = 0;
        while k < args.len() {
            let arg = &args[k];
            k += 1;
            if arg == "--" {
                break;
            }
            if !arg.starts_with('-') || arg == "-" {
                if self == TestRunner::NodeTest {
                    let rest = args[k - 1..].iter().take_while(|a| *a != "--");
                    paths.extend(rest.filter(|a| is_path_word(a)).cloned());
                    break;
                }
                // After an option not known here, only a word with a `/` reads as a path:
                // `--reporter spec` and `--project unit*` name no files, `--check-leaks
                // test/` does.
                let maybe_value = std::mem::take(&mut maybe_value);
                if is_path_word(arg) && (!maybe_value || arg.contains('/')) {
                    paths.push(arg.clone());
                }
                continue;
            }
            maybe_value = false;
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, _)) => (flag, true),
                None => (arg.as_str(), false),
            };
            // `--watch=false` turns a switch off: it is not that switch.
            if !arg.ends_with("=false") {
                flags.push(flag.to_string());
            }
            match self.option(flag) {
                Opt::Keep => kept.push(arg.clone()),
                Opt::KeepWithValue => {
                    kept.push(arg.clone());
                    if !inline {
                        if let Some(value) = args.get(k) {
                            kept.push(value.clone());
                            k += 1;
                        }
                    }
                }
                Opt::DropWithValue => k += usize::from(!inline),
                Opt::Drop => maybe_value = !inline,
            }
        }
        scanned
    }
}

/// What [`TestRunner::scan`] reads from a runner's arguments.
#[derive(Default)]
struct Scanned {
    kept: Vec<String>,
    flags: Vec<String>,
    paths: Vec<String>,
}

/// A word that can name test files: no variable, no assignment, no empty word.
fn is_path_word(word: &str) -> bool {
    !word.is_empty() && !word.starts_with('-') && !word.contains(['$', '=', '%'])
}

/// A test runner as a script starts it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Invocation {
    pub runner: TestRunner,
    /// `NAME=value` pairs the script sets for it (plainly or through cross-env).
    pub env: Vec<(String, String)>,
    /// Options a narrowed run keeps, as the script writes them.
    pub options: Vec<String>,
    /// The files, folders, globs or path filters the script hands the runner, as written
    /// (relative to the package); empty when the runner's own configuration decides.
    pub paths: Vec<String>,
}

/// What a script runs.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Script {
    /// The first test runner it starts.
    pub runner: Option<Invocation>,
    /// True when some part of it watches files and never finishes on its own: such a
    /// script is never a validation command (its runner, run once, still may be).
    pub watches: bool,
}

/// How many `npm run X` steps are followed from the script read.
const MAX_FOLLOW: usize = 2;

/// Programs that only set up the one they start: the runner is further along the line.
const WRAPPERS: &[&str] = &[
    "npx", "pnpx", "bunx", "dotenv", "dotenvx", "nyc", "c8", "time", "env-cmd",
];

/// Programs that run a script file: `node bin/hotfix.js mocha test/` hands the rest of
/// the line to mocha, as a wrapper does.
const SCRIPT_HOSTS: &[&str] = &["node", "tsx", "ts-node", "babel-node"];

/// The extensions of a script file a host runs.
const SCRIPT_FILES: &[&str] = &["js", "mjs", "cjs", "ts", "mts", "cts"];

/// Programs that set `NAME=value` pairs and start the rest of the line.
const SETTERS: &[&str] = &["cross-env", "cross-env-shell", "env"];

/// Programs that restart a command on every change and never exit.
const WATCHERS: &[&str] = &[
    "nodemon",
    "chokidar",
    "onchange",
    "watch",
    "watchexec",
    "tsc-watch",
];

const MANAGERS: &[&str] = &["npm", "pnpm", "yarn", "bun"];

const RUNNERS: &[&str] = &[
    "vitest",
    "jest",
    "mocha",
    "node",
    "playwright",
    "ava",
    "karma",
];

/// Options that hand a script to workspace members: the runner is theirs, not this one's.
const DELEGATING: &[&str] = &[
    "-r",
    "--recursive",
    "--filter",
    "-F",
    "-w",
    "--workspace",
    "--workspaces",
    "--ws",
    "-ws",
];

/// The `name` script of `scripts`, read.
pub fn read(scripts: &Map<String, Value>, name: &str) -> Script {
    let mut script = Script::default();
    if let Some(body) = scripts.get(name).and_then(Value::as_str) {
        let reading = Reading {
            scripts,
            nesting: Cell::new(0),
        };
        reading.script(body, 0, &[], &mut script);
    }
    script
}

struct Reading<'s> {
    scripts: &'s Map<String, Value>,
    /// How many concurrently commands hold the one read.
    nesting: Cell<usize>,
}

/// How deep concurrently commands inside concurrently commands are read.
const MAX_NESTING: usize = 2;

impl Reading<'_> {
    fn script(&self, body: &str, depth: usize, env: &[(String, String)], out: &mut Script) {
        for words in commands(body) {
            self.command(&words, depth, env.to_vec(), out);
        }
    }

    /// One simple command: assignments and wrappers first, then the program.
    fn command(
        &self,
        words: &[String],
        depth: usize,
        mut env: Vec<(String, String)>,
        out: &mut Script,
    ) {
        let mut i = 0;
        while let Some(word) = words.get(i) {
            if let Some((name, value)) = assignment(word) {
                // PATH decides which program starts: a route never changes it.
                if name != "PATH" {
                    env.push((name.to_string(), value.to_string()));
                }
                i += 1;
                continue;
            }
            let program = program_name(word);
            let rest = &words[i + 1..];
            if SETTERS.contains(&program) {
                i += 1;
            } else if WRAPPERS.contains(&program) {
                i = i + 1 + past_options(rest);
            } else if let Some(skip) = hosted_command(program, rest) {
                i = i + 1 + skip;
            } else if WATCHERS.contains(&program) {
                out.watches = true;
                return;
            } else if let Some(bodies) = concurrent_commands(program, rest) {
                if self.nesting.get() < MAX_NESTING {
                    self.nesting.set(self.nesting.get() + 1);
                    for body in bodies {
                        self.script(&body, depth, &env, out);
                    }
                    self.nesting.set(self.nesting.get() - 1);
                }
                return;
            } else if let Some(named) = script_runs(program, rest) {
                for (pattern, forwarded) in named {
                    for name in self.matching(&pattern) {
                        self.follow(&name, &forwarded, depth, env.clone(), out);
                    }
                }
                return;
            } else if MANAGERS.contains(&program) {
                return self.manager(program, rest, depth, env, out);
            } else {
                return runner(program, rest, env, out);
            }
        }
    }

    /// `npm run X`, `pnpm X`, `yarn exec X` and their kin.
    fn manager(
        &self,
        manager: &str,
        args: &[String],
        depth: usize,
        env: Vec<(String, String)>,
        out: &mut Script,
    ) {
        if args.iter().take_while(|a| *a != "--").any(|a| delegates(a)) {
            return;
        }
        let mut j = 0;
        while args.get(j).is_some_and(|a| a.starts_with('-')) {
            j += 1;
        }
        let Some(sub) = args.get(j) else {
            return;
        };
        let after = &args[j + 1..];
        match (manager, sub.as_str()) {
            // bun's own test runner is none of the runners here.
            ("bun", "test") => {}
            (_, "exec") | ("npm" | "bun", "x") | ("pnpm" | "yarn", "dlx") => {
                let skip = past_options(after);
                self.command(&after[skip..], depth, env, out);
            }
            (_, "run") | ("npm", "run-script") => {
                let mut k = 0;
                while after.get(k).is_some_and(|a| a.starts_with('-')) {
                    k += 1;
                }
                if let Some(name) = after.get(k) {
                    let names = match pattern_of(manager, name) {
                        Some(pattern) => self.matching(&pattern),
                        None => vec![name.clone()],
                    };
                    for name in names {
                        self.follow(&name, &after[k + 1..], depth, env.clone(), out);
                    }
                }
            }
            ("npm", "test" | "t" | "tst") | ("pnpm" | "yarn", "test") => {
                self.follow("test", after, depth, env, out);
            }
            ("npm" | "bun", _) => {}
            // `pnpm X` and `yarn X` run the script X, else the binary X.
            (_, name) if self.scripts.contains_key(name) => {
                self.follow(name, after, depth, env, out);
            }
            _ => self.command(&args[j..], depth, env, out),
        }
    }

    /// The scripts whose names `pattern` matches, by name.
    fn matching(&self, pattern: &regex::Regex) -> Vec<String> {
        let mut names: Vec<String> = self
            .scripts
            .keys()
            .filter(|n| pattern.is_match(n))
            .cloned()
            .collect();
        names.sort();
        names
    }

    /// The script `name`, one level further, with the arguments forwarded to it.
    fn follow(
        &self,
        name: &str,
        forwarded: &[String],
        depth: usize,
        env: Vec<(String, String)>,
        out: &mut Script,
    ) {
        if forwarded
            .iter()
            .any(|a| a == "--watch" || a == "--watchAll")
        {
            out.watches = true;
        }
        if depth >= MAX_FOLLOW {
            return;
        }
        if let Some(body) = self.scripts.get(name).and_then(Value::as_str) {
            self.script(body, depth + 1, &env, out);
        }
    }
}

/// `pnpm run "/^test:.*/"`: pnpm runs every script whose name the regular expression
/// between the slashes matches. Bounded in size, as the pattern is the repository's.
fn pattern_of(manager: &str, name: &str) -> Option<regex::Regex> {
    let inner = name.strip_prefix('/')?.strip_suffix('/')?;
    if manager != "pnpm" || inner.is_empty() {
        return None;
    }
    regex::RegexBuilder::new(inner)
        .size_limit(1 << 16)
        .build()
        .ok()
}

/// The runner `program` starts with `args`, if it is one.
fn runner(program: &str, args: &[String], env: Vec<(String, String)>, out: &mut Script) {
    let first = args.first().map(String::as_str);
    let runner = match program {
        "vitest" => match first {
            // Benchmarks, type checks, listings and setup are no test run.
            Some("bench" | "init" | "list" | "typecheck") => return,
            _ => TestRunner::Vitest,
        },
        "jest" => TestRunner::Jest,
        "mocha" => TestRunner::Mocha,
        "ava" => TestRunner::Ava,
        "playwright" if first == Some("test") => TestRunner::Playwright,
        "node" => TestRunner::NodeTest,
        // `karma run` only asks a server started elsewhere.
        "karma" if first == Some("start") => TestRunner::Karma,
        _ => return,
    };
    // The subcommand that starts a run is no path.
    let after_subcommand = match (runner, first) {
        (TestRunner::Vitest, Some("run" | "watch" | "dev"))
        | (TestRunner::Playwright, _)
        | (TestRunner::Karma, _) => &args[1..],
        _ => args,
    };
    // Karma's one positional is its configuration file: kept, never a test path.
    let (config, after_subcommand) = match (runner, after_subcommand.split_first()) {
        (TestRunner::Karma, Some((first, rest))) if !first.starts_with('-') => {
            (Some(first.clone()), rest)
        }
        _ => (None, after_subcommand),
    };
    let Scanned {
        kept: mut options,
        flags,
        paths,
    } = runner.scan(after_subcommand);
    if let Some(config) = config {
        options.insert(0, config);
    }
    let has = |names: &[&str]| flags.iter().any(|f| names.contains(&f.as_str()));
    if runner == TestRunner::NodeTest && !has(&["--test"]) {
        return;
    }
    let watches = match runner {
        // `vitest` alone watches only in a terminal; `vitest watch` and `vitest dev` always.
        TestRunner::Vitest => matches!(first, Some("watch" | "dev")) || has(&["--watch", "-w"]),
        TestRunner::Jest => has(&["--watch", "--watchAll"]),
        TestRunner::Mocha | TestRunner::Ava => has(&["--watch", "-w"]),
        TestRunner::NodeTest => has(&["--watch", "--watch-path"]),
        // The UI mode waits for a person.
        TestRunner::Playwright => has(&["--ui"]),
        // Without `--single-run` (here or in its configuration) karma watches.
        TestRunner::Karma => has(&["--auto-watch", "--no-single-run"]),
    };
    out.watches |= watches;
    if out.runner.is_none() {
        out.runner = Some(Invocation {
            runner,
            env,
            options,
            paths,
        });
    }
}

/// When `program` runs a script file that starts a program known here (`node
/// bin/ssl_hotfix.js mocha ...`, `tsx scripts/env.ts cross-env ...`): how many of `args`
/// come before that program. None for a script file with its own arguments (`node
/// scripts/build.js watch`) and for node's own runner (`node --test`).
fn hosted_command(program: &str, args: &[String]) -> Option<usize> {
    if !SCRIPT_HOSTS.contains(&program) {
        return None;
    }
    let at = args.iter().position(|a| !a.starts_with('-'))?;
    if args[..at]
        .iter()
        .any(|a| a == "--test" || a.starts_with("--test="))
    {
        return None;
    }
    let script = &args[at];
    let is_script = script
        .rsplit_once('.')
        .is_some_and(|(_, ext)| SCRIPT_FILES.contains(&ext));
    let next = args.get(at + 1)?;
    (is_script && known(program_name(next))).then_some(at + 1)
}

/// Programs that start each of their arguments as a command of its own, side by side.
const CONCURRENT: &[&str] = &["concurrently", "conc"];

/// concurrently's options that take a value: the value is no command.
const CONCURRENT_VALUED: &[&str] = &[
    "-n",
    "--names",
    "--name-separator",
    "-c",
    "--prefix-colors",
    "-p",
    "--prefix",
    "-l",
    "--prefix-length",
    "-t",
    "--timestamp-format",
    "-s",
    "--success",
    "-m",
    "--max-processes",
    "--hide",
    "--default-input-target",
    "--restart-tries",
    "--restart-after",
    "--ks",
    "--kill-signal",
    // A command run after the others end: cleanup, never the test run.
    "--teardown",
];

/// When `program` is concurrently: the commands it starts, one per argument after its
/// options (`conc -c green "vitest run" "tsc"`), its `npm:X` shortcuts written out as
/// `npm run X`. None for any other program.
fn concurrent_commands(program: &str, args: &[String]) -> Option<Vec<String>> {
    if !CONCURRENT.contains(&program) {
        return None;
    }
    let mut bodies = Vec::new();
    let mut passthrough = false;
    let mut options = true;
    let mut k = 0;
    while let Some(arg) = args.get(k) {
        k += 1;
        if options && arg.starts_with('-') {
            if arg == "--" {
                // With `-P` what follows `--` is arguments for the commands' `{1}`s.
                if passthrough {
                    break;
                }
                options = false;
            }
            passthrough |= arg == "-P" || arg == "--passthrough-arguments";
            k += usize::from(CONCURRENT_VALUED.contains(&arg.as_str()));
            continue;
        }
        bodies.push(match arg.split_once(':') {
            Some((manager @ ("npm" | "pnpm" | "yarn" | "bun"), name))
                if !name.is_empty() && !name.contains(char::is_whitespace) =>
            {
                format!("{manager} run {name}")
            }
            _ => arg.clone(),
        });
    }
    Some(bodies)
}

/// Programs that run package scripts by name (`run-p lint "test:*"`), not commands.
const SCRIPT_RUNNERS: &[&str] = &["npm-run-all", "npm-run-all2", "run-p", "run-s"];

/// npm-run-all's options that take a value: the value names no script.
const SCRIPT_RUNNERS_VALUED: &[&str] = &["--max-parallel", "--npm-path"];

/// When `program` is npm-run-all or its `run-p`/`run-s`: each script name pattern it is
/// given (`*` within a `:`-separated part, `**` across parts, as npm-run-all matches
/// them) as an anchored expression, with the arguments written after it in the same word
/// (`"test:* -- --watch"`). None for any other program.
fn script_runs(program: &str, args: &[String]) -> Option<Vec<(regex::Regex, Vec<String>)>> {
    if !SCRIPT_RUNNERS.contains(&program) {
        return None;
    }
    let mut named = Vec::new();
    let mut k = 0;
    while let Some(arg) = args.get(k) {
        k += 1;
        if arg == "--" {
            // Arguments for `{1}` placeholders follow.
            break;
        }
        if arg.starts_with('-') {
            k += usize::from(SCRIPT_RUNNERS_VALUED.contains(&arg.as_str()));
            continue;
        }
        let mut words = arg.split_whitespace();
        let Some(glob) = words.next() else {
            continue;
        };
        let mut pattern = String::from("^");
        let mut parts = glob.split("**").peekable();
        while let Some(part) = parts.next() {
            let escaped: Vec<String> = part.split('*').map(regex::escape).collect();
            pattern.push_str(&escaped.join("[^:]*"));
            if parts.peek().is_some() {
                pattern.push_str(".*");
            }
        }
        pattern.push('$');
        if let Ok(re) = regex::RegexBuilder::new(&pattern)
            .size_limit(1 << 16)
            .build()
        {
            named.push((re, words.map(str::to_string).collect()));
        }
    }
    Some(named)
}

/// True for an option that hands the script to workspace members.
fn delegates(arg: &str) -> bool {
    let flag = arg.split_once('=').map_or(arg, |(flag, _)| flag);
    DELEGATING.contains(&flag)
}

/// How many of `words` are a wrapper's options: flags, a value after a flag when it is no
/// program known here, and a closing `--`.
fn past_options(words: &[String]) -> usize {
    let mut i = 0;
    while let Some(word) = words.get(i) {
        if word == "--" {
            return i + 1;
        }
        if !word.starts_with('-') {
            return i;
        }
        i += 1;
        let value = words
            .get(i)
            .filter(|next| !next.starts_with('-') && !known(program_name(next)));
        if !word.contains('=') && value.is_some() {
            i += 1;
        }
    }
    i
}

fn known(program: &str) -> bool {
    [WRAPPERS, SETTERS, WATCHERS, MANAGERS, RUNNERS]
        .iter()
        .any(|list| list.contains(&program))
}

/// The program a word names: `./node_modules/.bin/jest` is `jest`.
/// The program a script body starts when it is one simple command (after `NAME=value`
/// assignments), with its arguments; None for a chain or an empty body.
pub fn sole_program(body: &str) -> Option<(String, Vec<String>)> {
    let commands = commands(body);
    let [words] = commands.as_slice() else {
        return None;
    };
    let mut words = words.iter().skip_while(|w| assignment(w).is_some());
    let program = program_name(words.next()?).to_string();
    Some((program, words.cloned().collect()))
}

/// The program each command of a script body starts (`tsd && tsc`: `tsd`, `tsc`), with its
/// arguments, after `NAME=value` assignments.
pub fn programs(body: &str) -> Vec<(String, Vec<String>)> {
    commands(body)
        .iter()
        .filter_map(|words| {
            let mut words = words.iter().skip_while(|w| assignment(w).is_some());
            let program = program_name(words.next()?).to_string();
            Some((program, words.cloned().collect()))
        })
        .collect()
}

/// Build tools whose `-w` means watch.
const WATCHING_W: &[&str] = &[
    "tsc", "rollup", "webpack", "esbuild", "tsup", "babel", "sass",
];

/// Framework programs whose `dev`, `start`, `serve` and `preview` run a server.
const SERVERS: &[&str] = &[
    "next",
    "nuxt",
    "nuxi",
    "astro",
    "remix",
    "react-scripts",
    "expo",
    "ng",
    "vue-cli-service",
    "webpack",
    "vite",
    "svelte-kit",
];

/// True when a script body (not a test script: a build, lint or validation) watches or
/// serves and so never finishes on its own. A script it runs through the package manager
/// is judged by its own name only: `npm run dev` never ends either.
pub fn never_ends(body: &str) -> bool {
    never_ends_within(body, 0)
}

fn never_ends_within(body: &str, nesting: usize) -> bool {
    commands(body).iter().any(|words| {
        let mut words = words.iter().skip_while(|w| assignment(w).is_some());
        let Some(first) = words.next() else {
            return false;
        };
        let program = program_name(first);
        let rest: Vec<&str> = words.map(String::as_str).collect();
        let sub = rest.iter().find(|w| !w.starts_with('-')).copied();
        if CONCURRENT.contains(&program) {
            let owned: Vec<String> = rest.iter().map(|w| w.to_string()).collect();
            let bodies = concurrent_commands(program, &owned).unwrap_or_default();
            return nesting < MAX_NESTING
                && bodies
                    .iter()
                    .any(|body| never_ends_within(body, nesting + 1));
        }
        if SCRIPT_RUNNERS.contains(&program) {
            // Judged by the scripts' names, as `npm run dev` is.
            return rest.iter().any(|w| {
                let name = w.split([':', ' ']).next().unwrap_or(w);
                matches!(name, "dev" | "start" | "serve" | "watch" | "preview")
            });
        }
        WATCHERS.contains(&program)
            || rest
                .iter()
                .any(|w| matches!(*w, "--watch" | "--watchAll" | "--serve"))
            || (WATCHING_W.contains(&program) && rest.contains(&"-w"))
            || (SERVERS.contains(&program)
                && matches!(sub, Some("dev" | "start" | "serve" | "preview")))
            || (program == "vite" && sub.is_none_or(|s| s.contains('/') || s == "."))
            || (MANAGERS.contains(&program)
                && rest
                    .iter()
                    .any(|w| matches!(*w, "dev" | "start" | "serve" | "watch" | "preview")))
    })
}

fn program_name(word: &str) -> &str {
    word.rsplit('/').next().unwrap_or(word)
}

/// `NAME=value` with a shell variable name.
fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let mut bytes = name.bytes();
    let first = bytes.next()?;
    let valid = (first.is_ascii_alphabetic() || first == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || b == b'_');
    valid.then_some((name, value))
}

/// The simple commands of a script line, each as its words: split at `&&`, `||`, `;`,
/// `|`, `&` and parentheses outside quotes, quotes removed. Enough to find the program
/// each one starts; never used to build a command.
fn commands(script: &str) -> Vec<Vec<String>> {
    let mut all = Vec::new();
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = script.chars();
    let end_word = |word: &mut String, in_word: &mut bool, words: &mut Vec<String>| {
        if *in_word {
            words.push(std::mem::take(word));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next()),
                        c => word.push(c),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            '&' | '|' | ';' | '(' | ')' => {
                end_word(&mut word, &mut in_word, &mut words);
                if !words.is_empty() {
                    all.push(std::mem::take(&mut words));
                }
            }
            c if c.is_whitespace() => end_word(&mut word, &mut in_word, &mut words),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    end_word(&mut word, &mut in_word, &mut words);
    if !words.is_empty() {
        all.push(words);
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests_support::scripts;

    fn test_script(body: &str) -> Script {
        read(&scripts(&[("test", body)]), "test")
    }

    fn runner_of(body: &str) -> Option<TestRunner> {
        test_script(body).runner.map(|i| i.runner)
    }

    /// The runner the `test` script of `pairs` starts.
    fn runner_in(pairs: &[(&str, &str)]) -> Option<TestRunner> {
        read(&scripts(pairs), "test").runner.map(|i| i.runner)
    }

    #[test]
    fn vitest_is_recognised_alone_or_with_run() {
        assert_eq!(runner_of("vitest"), Some(TestRunner::Vitest));
        assert_eq!(runner_of("vitest run"), Some(TestRunner::Vitest));
        assert!(!test_script("vitest run").watches);
    }

    #[test]
    fn jest_is_recognised_behind_cross_env_with_its_environment_kept() {
        let script = test_script("cross-env NODE_ENV=test jest --coverage");
        let invocation = script.runner.unwrap();
        assert_eq!(invocation.runner, TestRunner::Jest);
        assert_eq!(invocation.env, [("NODE_ENV".into(), "test".into())]);
        // Coverage thresholds would fail a run of a few files.
        assert!(invocation.options.is_empty(), "{:?}", invocation.options);
    }

    #[test]
    fn node_test_is_recognised_only_with_its_test_flag() {
        assert_eq!(runner_of("node --test test/"), Some(TestRunner::NodeTest));
        assert_eq!(runner_of("node scripts/test.js --test"), None);
        assert_eq!(runner_of("node scripts/build.js"), None);
    }

    #[test]
    fn node_test_keeps_its_loaders() {
        let invocation = test_script("node --import tsx --test test/*.test.ts")
            .runner
            .unwrap();
        assert_eq!(invocation.options, ["--import", "tsx"]);
    }

    #[test]
    fn mocha_playwright_and_ava_are_recognised() {
        assert_eq!(
            runner_of("mocha -r ts-node/register 'test/**/*.ts'"),
            Some(TestRunner::Mocha)
        );
        assert_eq!(runner_of("playwright test"), Some(TestRunner::Playwright));
        assert_eq!(
            runner_of("npx playwright test --project=chromium"),
            Some(TestRunner::Playwright)
        );
        assert_eq!(runner_of("ava --verbose"), Some(TestRunner::Ava));
    }

    #[test]
    fn karma_start_keeps_its_configuration_file_and_names_no_path() {
        let invocation = test_script(
            "node bin/ssl_hotfix.js cross-env LISTEN_ADDR=:: karma start karma.conf.cjs --single-run",
        )
        .runner
        .unwrap();
        assert_eq!(invocation.runner, TestRunner::Karma);
        assert_eq!(invocation.options, ["karma.conf.cjs"]);
        assert!(invocation.paths.is_empty());
        assert_eq!(invocation.env, [("LISTEN_ADDR".into(), "::".into())]);
        // Controls: `karma run` asks a server started elsewhere; `--auto-watch` never ends.
        assert_eq!(runner_of("karma run"), None);
        assert!(test_script("karma start --auto-watch").watches);
    }

    #[test]
    fn playwright_without_its_test_command_is_no_runner() {
        assert_eq!(runner_of("playwright install --with-deps"), None);
    }

    #[test]
    fn a_config_option_is_kept_with_its_value() {
        let invocation =
            test_script("vitest run --config vitest.unit.ts --project unit --coverage")
                .runner
                .unwrap();
        assert_eq!(invocation.options, ["--config", "vitest.unit.ts"]);
    }

    #[test]
    fn npm_run_is_followed_to_the_script_it_names() {
        let s = scripts(&[("test", "npm run test:unit"), ("test:unit", "vitest run")]);
        assert_eq!(read(&s, "test").runner.unwrap().runner, TestRunner::Vitest);
    }

    #[test]
    fn pnpm_run_of_a_pattern_follows_every_script_it_matches() {
        let s = scripts(&[
            ("test", "pnpm run \"/^test:.*/\""),
            ("test:format", "prettier . --list-different"),
            ("test:types", "tsc --noEmit"),
            ("test:spec", "vitest run"),
            ("bench", "vitest bench"),
        ]);
        assert_eq!(read(&s, "test").runner.unwrap().runner, TestRunner::Vitest);
        // A pattern matching no script that starts a runner finds none; npm has no
        // patterns, so the same words name one script there.
        let none = scripts(&[
            ("test", "pnpm run \"/^check:.*/\""),
            ("test:spec", "vitest run"),
        ]);
        assert_eq!(read(&none, "test").runner, None);
        let npm = scripts(&[
            ("test", "npm run \"/^test:.*/\""),
            ("test:spec", "vitest run"),
        ]);
        assert_eq!(read(&npm, "test").runner, None);
    }

    #[test]
    fn pnpm_and_yarn_shorthands_are_followed_two_levels() {
        let s = scripts(&[
            ("test", "pnpm build && pnpm run test:all"),
            ("build", "tsc"),
            ("test:all", "yarn test:unit"),
            ("test:unit", "jest --ci"),
        ]);
        let invocation = read(&s, "test").runner.unwrap();
        assert_eq!(invocation.runner, TestRunner::Jest);
        assert_eq!(invocation.options, ["--ci"]);
    }

    #[test]
    fn a_third_level_is_not_followed() {
        let s = scripts(&[
            ("test", "npm run a"),
            ("a", "npm run b"),
            ("b", "npm run c"),
            ("c", "vitest run"),
        ]);
        assert_eq!(read(&s, "test").runner, None);
    }

    #[test]
    fn a_script_calling_itself_ends() {
        let s = scripts(&[("test", "npm test")]);
        assert_eq!(read(&s, "test"), Script::default());
    }

    #[test]
    fn pnpm_runs_a_binary_when_no_script_has_the_name() {
        assert_eq!(runner_of("pnpm vitest run"), Some(TestRunner::Vitest));
        assert_eq!(runner_of("pnpm exec jest"), Some(TestRunner::Jest));
    }

    #[test]
    fn a_recursive_run_is_the_members_runner_not_this_one() {
        assert_eq!(test_script("pnpm -r test"), Script::default());
        assert_eq!(test_script("npm test --workspaces"), Script::default());
        assert_eq!(
            test_script("pnpm --filter './packages/*' test"),
            Script::default()
        );
    }

    #[test]
    fn watchers_are_marked_and_run_once_scripts_are_not() {
        for watcher in [
            "jest --watch",
            "jest --watchAll",
            "vitest watch",
            "vitest dev",
            "vitest --watch",
            "mocha --watch",
            "mocha -w",
            "nodemon --exec 'mocha'",
            "node --test --watch",
            "playwright test --ui",
            "ava --watch",
        ] {
            assert!(test_script(watcher).watches, "{watcher}");
        }
        for once in [
            "jest",
            "vitest run",
            "mocha",
            "node --test",
            "playwright test",
        ] {
            assert!(!test_script(once).watches, "{once}");
        }
    }

    #[test]
    fn a_watch_switch_turned_off_is_no_watcher() {
        assert!(!test_script("vitest --watch=false").watches);
        let s = scripts(&[
            ("test", "yarn test:app --watch=false"),
            ("test:app", "vitest"),
        ]);
        assert!(!read(&s, "test").watches);
    }

    #[test]
    fn arguments_forwarded_to_a_followed_script_can_make_it_watch() {
        let s = scripts(&[("test", "npm run unit -- --watch"), ("unit", "jest")]);
        assert!(read(&s, "test").watches);
    }

    #[test]
    fn scripts_that_are_no_test_runner_name_none() {
        for other in [
            "tsc --noEmit",
            "eslint . && tsc",
            "echo vitest",
            "turbo run test",
            "bun test",
            "vitest bench",
            "npx tsx scripts/test.ts",
        ] {
            assert_eq!(test_script(other).runner, None, "{other}");
        }
    }

    #[test]
    fn each_argument_of_concurrently_is_a_command_of_its_own() {
        // trpc's shape: the runner is one of the commands concurrently starts.
        let invocation = test_script(
            r#"turbo codegen-tests && conc -c "green,blue" "vitest run" "turbo test-run:tsc""#,
        )
        .runner
        .unwrap();
        assert_eq!(invocation.runner, TestRunner::Vitest);
        assert!(invocation.paths.is_empty());
        let invocation = test_script(r#"concurrently -k "CI=true jest --ci src/" "tsc""#)
            .runner
            .unwrap();
        assert_eq!(invocation.runner, TestRunner::Jest);
        assert_eq!(invocation.env, [("CI".into(), "true".into())]);
        assert_eq!(invocation.paths, ["src/"]);
        // Controls: commands that start no runner find none, and `-n`'s value is no command.
        assert_eq!(runner_of(r#"conc -c "green,blue" "tsc" "eslint .""#), None);
        assert_eq!(runner_of("conc -n vitest tsc"), None);
    }

    #[test]
    fn a_concurrently_shortcut_runs_the_script_it_names() {
        let mocha = runner_in(&[
            ("test", "concurrently npm:lint pnpm:test:unit"),
            ("lint", "eslint ."),
            ("test:unit", "mocha test/"),
        ]);
        assert_eq!(mocha, Some(TestRunner::Mocha));
        // Control: a shortcut naming a script that starts no runner.
        let none = runner_in(&[
            ("test", "conc npm:lint"),
            ("lint", "eslint ."),
            ("unit", "vitest run"),
        ]);
        assert_eq!(none, None);
    }

    #[test]
    fn arguments_passed_through_concurrently_are_no_commands() {
        assert_eq!(runner_of(r#"conc -P "tsc {1}" -- vitest"#), None);
        // Control: without `-P`, `--` only ends concurrently's options.
        assert_eq!(
            runner_of(r#"conc -- "tsc" "vitest run""#),
            Some(TestRunner::Vitest)
        );
    }

    #[test]
    fn a_watching_command_inside_concurrently_watches() {
        assert!(test_script(r#"conc "jest --watch" "tsc""#).watches);
        assert!(!test_script(r#"conc "jest" "tsc""#).watches);
    }

    #[test]
    fn npm_run_all_follows_the_scripts_its_patterns_name() {
        let unit = ("test:unit", "vitest run");
        let smoke = ("test:e2e:smoke", "playwright test");
        let lint = ("lint", "eslint .");
        let first = runner_in(&[("test", "run-s lint \"test:*\""), lint, unit, smoke]);
        assert_eq!(first, Some(TestRunner::Vitest));
        // `**` crosses a `:`, `*` does not.
        let deep = runner_in(&[("test", "npm-run-all --max-parallel 2 -p test:**"), smoke]);
        assert_eq!(deep, Some(TestRunner::Playwright));
        // Controls: `*` stays within one part, and an option's value names no script.
        assert_eq!(runner_in(&[("test", "run-p test:*"), smoke]), None);
        let valued = runner_in(&[("test", "run-p --npm-path unit lint"), ("unit", "jest")]);
        assert_eq!(valued, None);
    }

    #[test]
    fn arguments_npm_run_all_forwards_can_make_a_script_watch() {
        let s = scripts(&[("test", "run-s \"unit -- --watch\""), ("unit", "jest")]);
        assert!(read(&s, "test").watches);
        let once = scripts(&[("test", "run-s unit"), ("unit", "jest")]);
        assert!(!read(&once, "test").watches);
    }

    #[test]
    fn the_first_runner_of_a_chain_is_the_one() {
        assert_eq!(
            runner_of("tsc && vitest run && playwright test"),
            Some(TestRunner::Vitest)
        );
    }

    #[test]
    fn wrappers_and_their_options_are_stepped_over() {
        assert_eq!(
            runner_of("nyc --reporter lcov mocha"),
            Some(TestRunner::Mocha)
        );
        assert_eq!(runner_of("c8 node --test"), Some(TestRunner::NodeTest));
        assert_eq!(
            runner_of("dotenv -e .env.test -- jest"),
            Some(TestRunner::Jest)
        );
        assert_eq!(
            runner_of("./node_modules/.bin/jest"),
            Some(TestRunner::Jest)
        );
    }

    #[test]
    fn a_script_file_that_starts_a_runner_is_stepped_over_like_a_wrapper() {
        let invocation =
            test_script("node bin/ssl_hotfix.js mocha test/unit/**/*.js --timeout 30000 --exit")
                .runner
                .unwrap();
        assert_eq!(invocation.runner, TestRunner::Mocha);
        assert_eq!(invocation.options, ["--timeout", "30000", "--exit"]);
        assert_eq!(invocation.paths, ["test/unit/**/*.js"]);
        assert_eq!(
            runner_of("tsx scripts/env.ts cross-env CI=1 jest"),
            Some(TestRunner::Jest)
        );
    }

    #[test]
    fn a_script_file_with_its_own_arguments_is_no_runner() {
        assert_eq!(runner_of("node scripts/x.js build"), None);
        assert_eq!(runner_of("node bin/ssl_hotfix.js eslint lib/**/*.js"), None);
        assert_eq!(runner_of("node scripts/x.js"), None);
        // A word that is no script file is not stepped over.
        assert_eq!(runner_of("node mocha test/"), None);
    }

    #[test]
    fn the_paths_a_script_hands_its_runner_are_kept_and_option_values_are_not() {
        let paths = |body: &str| test_script(body).runner.unwrap().paths;
        assert_eq!(paths("vitest run src/unit"), ["src/unit"]);
        assert_eq!(paths("playwright test e2e/ --project chromium"), ["e2e/"]);
        assert_eq!(
            paths("node --test --test-reporter=spec test/a test/b"),
            ["test/a", "test/b"]
        );
        // `--reporter` is no option known here: `spec` may be its value.
        assert_eq!(paths("mocha --reporter spec test/"), ["test/"]);
        assert!(paths("mocha --reporter spec").is_empty());
        assert_eq!(
            paths("mocha --check-leaks test/ test/acceptance/"),
            ["test/", "test/acceptance/"]
        );
        assert!(paths("vitest --sequence.shuffle unit*").is_empty());
        assert!(paths("jest --maxWorkers 2").is_empty());
        assert!(paths("vitest run").is_empty());
    }

    #[test]
    fn a_path_assignment_is_not_kept() {
        let invocation = test_script("PATH=./bin:$PATH TZ=UTC jest").runner.unwrap();
        assert_eq!(invocation.env, [("TZ".into(), "UTC".into())]);
    }

    #[test]
    fn quoted_separators_do_not_split_a_command() {
        assert_eq!(
            commands("jest -t 'a && b' && tsc"),
            [vec!["jest", "-t", "a && b"], vec!["tsc"]]
        );
    }
}

#[cfg(test)]
mod ending {
    use super::never_ends;

    #[test]
    fn builds_lints_and_checks_that_exit_are_not_long_running() {
        for body in [
            "vite build",
            "tsc --noEmit",
            "eslint . --max-warnings 0",
            "node scripts/check-env.mjs",
            "next build && next export",
            "NODE_ENV=production webpack --mode production",
            "pnpm -r run build",
        ] {
            assert!(!never_ends(body), "{body}");
        }
    }

    #[test]
    fn watchers_and_dev_servers_never_end() {
        for body in [
            "vite",
            "vite build --watch",
            "tsc -w",
            "next dev",
            "webpack serve",
            "nodemon src/index.js",
            "npm run dev",
            "expo start",
            "conc \"tsc -w\" \"vite build\"",
            "run-p dev:*",
        ] {
            assert!(never_ends(body), "{body}");
        }
    }

    #[test]
    fn commands_run_side_by_side_that_all_end_end() {
        for body in ["conc \"tsc\" \"vite build\"", "run-p build:* lint"] {
            assert!(!never_ends(body), "{body}");
        }
    }
}

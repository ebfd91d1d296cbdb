//! Playwright drafts of routed web scenarios: a spec per scenario whose `test.step`s come
//! from the flow, whose locators come from changed `data-testid` / `aria-label` / role /
//! text lines, and whose assertions come only from located observable outcomes; with a
//! compile receipt and a structural self-check (never a test result).

pub mod directory;
pub mod locators;
pub mod openapi;
pub mod sources;

use std::sync::LazyLock;

use qa_records::change::{
    Decision, DraftData, DraftItem, Evidence, Focus, IntentData, Receipt, Relation, RouteData,
    ScenarioData, Stage,
};
use regex::Regex;
use serde::Serialize;

use crate::reading::Read;
use locators::{js, Locator};
use openapi::OpenApi;
use qa_records::steps::Step;
use sources::ChangedLines;

/// What the structural self-check says about a spec.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Label {
    /// An entrypoint, an observable assertion and no skipped placeholder; not run.
    #[serde(rename = "static-runnable, not executed")]
    StaticRunnable,
    #[serde(rename = "not runnable")]
    NotRunnable,
}

/// `draft` data of a Playwright draft: the shared draft fields plus the spec's file, its
/// self-check label and its mocks (schema/draft.schema.json).
#[derive(Debug, Clone, Serialize)]
pub struct PlaywrightDraft {
    #[serde(flatten)]
    pub draft: DraftData,
    /// The spec file, relative to the draft directory; None when none was written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    pub label: Label,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub mocks: Vec<DraftItem>,
}

/// A compiled draft and the spec text to write under `data.file`.
#[derive(Debug, Clone)]
pub struct Compiled {
    pub data: PlaywrightDraft,
    pub spec: Option<String>,
}

/// What the adapter reads besides the scenario: changed lines and an OpenAPI document.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    pub lines: &'a ChangedLines,
    pub openapi: Option<&'a OpenApi>,
}

/// One step or assertion: what it maps to, the spec lines that perform it, or why not.
#[derive(Debug, Default)]
struct Item {
    text: String,
    maps_to: Option<String>,
    body: Vec<String>,
    /// Performed by the step before it (an action its click runs): joins that step.
    joins_previous: bool,
    gap: Option<String>,
}

impl Item {
    fn unmapped(text: &str, gap: String) -> Item {
        Item {
            text: text.to_string(),
            gap: Some(gap),
            ..Item::default()
        }
    }

    fn mapped(text: &str, at: String, body: Vec<String>) -> Item {
        Item {
            text: text.to_string(),
            maps_to: Some(at),
            body,
            ..Item::default()
        }
    }
}

/// Where the spec opens the app.
#[derive(Debug, Clone)]
struct Entry {
    path: String,
    from: String,
}

/// Compiles `scenario` into a Playwright draft.
pub fn compile(
    scenario: &Read<ScenarioData>,
    route: &Read<RouteData>,
    intent: Option<&Read<IntentData>>,
    ctx: Context,
) -> Compiled {
    let s = &scenario.data;
    let hex = scenario.id.trim_start_matches("sha256:");
    let short = &hex[..hex.len().min(12)];
    let review = if route.data.decision == Decision::ReviewOnly {
        Some("the route is review-only: commit wording or context alone".to_string())
    } else if s.focus != Focus::Product {
        Some(format!(
            "no Playwright adapter contract for a {} scenario",
            serde_json::to_value(s.focus)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        ))
    } else {
        None
    };
    let entry = entrypoint(s, intent.map(|i| &i.data), ctx.lines);
    let mut flow = Flow {
        s,
        ctx,
        value: format!("qa-{}", &short[..short.len().min(8)]),
        handlers: Vec::new(),
        persistence: None,
    };
    let steps: Vec<Item> = s.steps.iter().map(|t| flow.step(t)).collect();
    let assertions: Vec<Item> = s.assertions.iter().map(|t| flow.assertion(t)).collect();
    let (mocks, mut gaps) = mocks(s, ctx);

    let items = |list: &[Item]| -> Vec<DraftItem> {
        list.iter()
            .map(|i| DraftItem {
                text: i.text.clone(),
                maps_to: i.maps_to.clone(),
            })
            .collect()
    };
    let (step_items, assertion_items) = (items(&steps), items(&assertions));
    let (mapped, total) = crate::drafts::counts(&step_items, &assertion_items);
    let mut all_gaps: Vec<String> = steps
        .iter()
        .chain(&assertions)
        .filter_map(|i| i.gap.clone())
        .collect();
    if assertions.is_empty() {
        all_gaps.push("no assertion: no observable outcome is located".to_string());
    }
    if entry.is_none() {
        all_gaps.push(
            "no entrypoint located: no changed page (.html) or client route names where to start"
                .to_string(),
        );
    }
    all_gaps.extend(s.proof_gap.clone());
    all_gaps.append(&mut gaps);
    let receipt = if review.is_some() {
        Receipt::ReviewOnly
    } else if mapped == total && !assertions.is_empty() && entry.is_some() {
        Receipt::Compiled
    } else if mapped == 0 {
        Receipt::NotCompiled
    } else {
        Receipt::Partial
    };
    let (file, spec, label) = match &review {
        Some(why) => {
            all_gaps.insert(0, why.clone());
            (None, None, Label::NotRunnable)
        }
        None => {
            let text = render(
                scenario,
                short,
                receipt,
                (mapped, total),
                entry.as_ref(),
                &mocks,
                &steps,
                &assertions,
            );
            let problems = self_check(&text);
            all_gaps.extend(problems.iter().map(|p| format!("not runnable: {p}")));
            let label = if problems.is_empty() {
                Label::StaticRunnable
            } else {
                Label::NotRunnable
            };
            (Some(format!("qa-{short}.spec.ts")), Some(text), label)
        }
    };
    Compiled {
        data: PlaywrightDraft {
            draft: DraftData {
                subject: scenario.id.clone(),
                format: "playwright".to_string(),
                receipt,
                mapped,
                total,
                steps: step_items,
                assertions: assertion_items,
                gaps: all_gaps,
            },
            file,
            label,
            mocks: mocks
                .iter()
                .map(|m| DraftItem {
                    text: format!(
                        "{} {} answers {} from the OpenAPI example",
                        m.method, m.path, m.status
                    ),
                    maps_to: Some(m.source.clone()),
                })
                .collect(),
        },
        spec,
    }
}

/// The structural self-check: what keeps a spec from being runnable (empty: runnable).
pub fn self_check(spec: &str) -> Vec<&'static str> {
    let mut problems = Vec::new();
    if !spec
        .lines()
        .any(|l| l.trim_start().starts_with("await page.goto("))
    {
        problems.push("no entrypoint (page.goto)");
    }
    if !spec
        .lines()
        .any(|l| l.trim_start().starts_with("await expect("))
    {
        problems.push("no observable assertion (expect)");
    }
    if spec.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("test.fixme(") || l.starts_with("test.skip(") || l.contains(".skip(")
    }) {
        problems.push("a skipped placeholder (test.fixme) stands for what is not mapped");
    }
    problems
}

/// The steps' shared state: the handlers a located click runs, and the persistence chain.
struct Flow<'a> {
    s: &'a ScenarioData,
    ctx: Context<'a>,
    /// The value typed into a persisted field.
    value: String,
    handlers: Vec<String>,
    /// The located chain of a persistence claim, once its change step is compiled.
    persistence: Option<Persistence>,
}

#[derive(Debug, Clone)]
struct Persistence {
    field: Locator,
    read_at: String,
}

fn at(e: &Evidence) -> String {
    format!("{}:{}", e.file, e.line)
}

impl<'a> Flow<'a> {
    /// Located, non-contextual evidence of `stage` whose fact text is `text`.
    fn evidence(&self, stage: Stage, text: &str) -> Option<&'a Evidence> {
        let s: &'a ScenarioData = self.s;
        s.evidence.iter().find(|e| {
            e.line > 0
                && e.relation != Relation::Contextual
                && e.stage == Some(stage)
                && e.text == text
        })
    }

    fn raw(&self, e: &Evidence) -> Option<&'a str> {
        let lines: &'a ChangedLines = self.ctx.lines;
        lines.line(&e.file, e.line)
    }

    fn step(&mut self, text: &str) -> Item {
        match qa_records::steps::parse(text) {
            Step::Trigger(rest) => self.trigger(text, rest),
            Step::Action(name) => {
                match self.evidence(Stage::Action, &format!("{name} (changed)")) {
                    Some(e) if self.handlers.iter().any(|h| h == name) => Item {
                        joins_previous: true,
                        ..Item::mapped(text, at(e), Vec::new())
                    },
                    _ => Item::unmapped(
                        text,
                        format!("action not mapped: no located click runs {name}"),
                    ),
                }
            }
            Step::Given(rest) => Item::unmapped(
                text,
                format!("condition not mapped (a proof requirement, not an interaction): {rest}"),
            ),
            Step::Change(rest) => self.persisted_change(text, rest),
            Step::Other if text == "Reload the page" => match &self.persistence {
                Some(p) => Item::mapped(text, p.read_at.clone(), vec!["await page.reload();".into()]),
                None => Item::unmapped(
                    text,
                    "no reload step: persistence needs a located write and read of the same key, the stored field, its save handler and that handler's control".to_string(),
                ),
            },
            _ => Item::unmapped(text, format!("step not mapped: {text}")),
        }
    }

    fn trigger(&mut self, text: &str, fact: &str) -> Item {
        let Some(e) = self.evidence(Stage::Trigger, fact) else {
            return Item::unmapped(text, format!("trigger not located: {fact}"));
        };
        let Some(raw) = self.raw(e) else {
            return Item::unmapped(text, format!("trigger line {} is not in the stream", at(e)));
        };
        let (event, handler) = if let Some((event, handler)) = fact.split_once(" runs ") {
            (event.to_string(), Some(handler.to_string()))
        } else if let Some(event) = fact.strip_suffix(" event") {
            (event.to_string(), locators::listener_handler(raw))
        } else {
            return Item::unmapped(
                text,
                format!(
                    "trigger not mapped: {fact} is a server entry point, not a page interaction"
                ),
            );
        };
        if !locators::is_click(&event) {
            return Item::unmapped(
                text,
                format!("trigger not mapped: no interaction for the {event} event"),
            );
        }
        let receiver = locators::listener_receiver(raw);
        let Some((locator, _)) =
            locators::element(self.ctx.lines, &e.file, raw, e.line, receiver.as_deref())
        else {
            return Item::unmapped(
                text,
                format!("trigger not mapped: no changed data-testid, aria-label, role or text locates the element at {}", at(e)),
            );
        };
        self.handlers.extend(handler);
        Item::mapped(
            text,
            at(e),
            vec![format!("await {}.click();", locator.code())],
        )
    }

    /// A `Change:` step: compiled only as the persistence chain (write and read of the same
    /// key, the stored field, the write's save handler and that handler's control).
    fn persisted_change(&mut self, text: &str, rest: &str) -> Item {
        let Some(write) =
            self.s.evidence.iter().find(|e| {
                e.line > 0 && e.stage == Some(Stage::StateChange) && text.contains(&at(e))
            })
        else {
            return Item::unmapped(
                text,
                format!("state change not mapped (a proof requirement): {rest}"),
            );
        };
        let Some(raw) = self.raw(write) else {
            return Item::unmapped(
                text,
                format!("state line {} is not in the stream", at(write)),
            );
        };
        let Some((storage, key, value)) = storage_call(raw, "setItem") else {
            return Item::unmapped(
                text,
                format!("state change not mapped (no web-storage write): {rest}"),
            );
        };
        let lines = self.ctx.lines;
        let read = self.s.evidence.iter().find(|e| {
            e.line > 0
                && lines
                    .line(&e.file, e.line)
                    .and_then(|t| storage_call(t, "getItem"))
                    .is_some_and(|(_, k, _)| k == key)
        });
        let Some(read) = read else {
            return Item::unmapped(
                text,
                format!("persistence not mapped: no located read of \"{key}\""),
            );
        };
        let field_var = value.strip_suffix(".value").map(str::to_string);
        let field = field_var.as_deref().and_then(|v| {
            locators::element(
                lines,
                &write.file,
                &value,
                write.line,
                Some(v.rsplit('.').next().unwrap_or(v)),
            )
        });
        let Some((field, _)) = field else {
            return Item::unmapped(
                text,
                format!(
                    "persistence not mapped: the value written to \"{key}\" is no located field"
                ),
            );
        };
        let handler = lines
            .of(&write.file)
            .filter(|(n, _)| *n <= write.line)
            .filter_map(|(_, t)| locators::declared_function(t))
            .last();
        let Some(handler) = handler else {
            return Item::unmapped(
                text,
                format!(
                    "persistence not mapped: the write to \"{key}\" is in no changed named handler"
                ),
            );
        };
        let Some(control) = clicker(lines, &write.file, &handler) else {
            return Item::unmapped(
                text,
                format!("persistence not mapped: no located control runs {handler}"),
            );
        };
        let value_js = js(&self.value);
        self.persistence = Some(Persistence {
            field: field.clone(),
            read_at: at(read),
        });
        Item::mapped(
            text,
            at(write),
            vec![
                format!("await {}.fill({value_js});", field.code()),
                format!("await {}.click();", control.code()),
                format!(
                    "expect(await page.evaluate((k) => window.{storage}.getItem(k), {})).toBe({value_js});",
                    js(&key)
                ),
            ],
        )
    }

    fn assertion(&mut self, text: &str) -> Item {
        if text.starts_with("The value stored under ") {
            return match &self.persistence {
                Some(p) => Item::mapped(
                    text,
                    p.read_at.clone(),
                    vec![format!(
                        "await expect({}).toHaveValue({});",
                        p.field.code(),
                        js(&self.value)
                    )],
                ),
                None => Item::unmapped(
                    text,
                    "read-back not mapped: the persistence chain is not located".to_string(),
                ),
            };
        }
        if let Some(line) = text.strip_prefix("The change is stored: ") {
            let stored = self
                .evidence(Stage::StateChange, line)
                .and_then(|e| Some((at(e), storage_call(self.raw(e)?, "setItem")?)));
            return match stored {
                Some((at, (storage, key, _))) => Item::mapped(
                    text,
                    at,
                    vec![format!(
                        "await expect.poll(() => page.evaluate((k) => window.{storage}.getItem(k), {})).not.toBeNull();",
                        js(&key)
                    )],
                ),
                None => Item::unmapped(
                    text,
                    format!("assertion not mapped: the store is not web storage a page can inspect: {line}"),
                ),
            };
        }
        let lower = text.to_lowercase();
        let outcome = self.s.evidence.iter().find(|e| {
            e.line > 0
                && e.relation != Relation::Contextual
                && e.stage == Some(Stage::ObservableOutcome)
                && e.text.len() >= 4
                && lower.contains(&e.text.to_lowercase())
        });
        let Some(e) = outcome else {
            return Item::unmapped(
                text,
                format!("assertion not mapped: no located observable outcome: {text}"),
            );
        };
        let raw = self.raw(e).unwrap_or_default();
        match observation(&e.text, raw) {
            Ok(code) => Item::mapped(text, at(e), vec![code]),
            Err(why) => Item::unmapped(text, format!("assertion not mapped: {why}: {text}")),
        }
    }
}

/// The check of an outcome fact on its changed line, or why a page cannot observe it.
fn observation(fact: &str, raw: &str) -> Result<String, String> {
    static SERVER: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"\bthrow\b|\braise\b|\bErr\s*\(|\bbail!|\berrors\.New|\bres\.status|\bstatus(?:_code)?\s*[=:(]|HTTPException")
            .expect("server outcome")
    });
    if let Some(path) = fact.strip_prefix("navigates to ") {
        return Ok(format!(
            "await expect.poll(() => new URL(page.url()).pathname).toBe({});",
            js(path)
        ));
    }
    let shown = match fact.strip_prefix("shows ") {
        Some(quoted) => serde_json::from_str::<String>(quoted).unwrap_or_default(),
        None => fact.to_string(),
    };
    if shown.trim().is_empty() || !raw.contains(shown.as_str()) {
        return Err("the changed line holds no literal text to look for".to_string());
    }
    if SERVER.is_match(raw) {
        return Err("a server-side outcome, not visible on a page".to_string());
    }
    Ok(format!(
        "await expect({}).toBeVisible();",
        Locator::Text(shown).code()
    ))
}

/// `(storage, key, value expression)` of a `localStorage` / `sessionStorage` call on a
/// line; the key is a literal.
fn storage_call(text: &str, method: &str) -> Option<(String, String, String)> {
    static CALL: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"\b(localStorage|sessionStorage)\s*\.\s*(setItem|getItem)\s*\(\s*["'`]([^"'`]+)["'`]\s*(?:,\s*([^;]+?))?\s*\)\s*;?"#)
            .expect("storage call")
    });
    CALL.captures_iter(text).find(|c| &c[2] == method).map(|c| {
        (
            c[1].to_string(),
            c[3].to_string(),
            c.get(4)
                .map_or(String::new(), |m| m.as_str().trim().to_string()),
        )
    })
}

/// The located control a click on which runs `handler`, in `file`'s changed lines.
fn clicker(lines: &ChangedLines, file: &str, handler: &str) -> Option<Locator> {
    let jsx = Regex::new(&format!(
        r"on(?:Click|Press)\s*=\s*\{{\s*(?:\([^)]*\)\s*=>\s*)?(?:this\.)?{}\b",
        regex::escape(handler)
    ))
    .expect("escaped handler");
    lines.of(file).find_map(|(n, t)| {
        if locators::listener_handler(t).as_deref() == Some(handler) && t.contains("click") {
            let receiver = locators::listener_receiver(t);
            locators::element(lines, file, t, n, receiver.as_deref()).map(|(l, _)| l)
        } else if jsx.is_match(t) {
            locators::on_line(t)
        } else {
            None
        }
    })
}

/// Where to open the app: a changed page's path under its web root, else a changed client
/// route (`<Route path="/settings"`).
fn entrypoint(
    s: &ScenarioData,
    intent: Option<&IntentData>,
    lines: &ChangedLines,
) -> Option<Entry> {
    const WEB_ROOTS: [&str; 5] = ["public/", "static/", "www/", "site/", "dist/"];
    let mut files: Vec<&str> = intent
        .map(|i| i.files.iter().map(String::as_str).collect())
        .unwrap_or_default();
    files.extend(
        s.evidence
            .iter()
            .filter(|e| e.line > 0)
            .map(|e| e.file.as_str()),
    );
    files.sort();
    files.dedup();
    if let Some(page) = files
        .iter()
        .find(|f| f.ends_with(".html") || f.ends_with(".htm"))
    {
        let under_root = WEB_ROOTS
            .iter()
            .find_map(|r| page.rsplit_once(r).map(|(_, rest)| rest))
            .unwrap_or(page);
        return Some(Entry {
            path: format!("/{under_root}"),
            from: page.to_string(),
        });
    }
    static ROUTE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"<Route\b[^>]*\bpath\s*=\s*\{?\s*["'`](/[^"'`:*]*)["'`]"#)
            .expect("client route")
    });
    files.iter().find_map(|f| {
        lines.of(f).find_map(|(n, t)| {
            ROUTE.captures(t).map(|c| Entry {
                path: c[1].to_string(),
                from: format!("{f}:{n}"),
            })
        })
    })
}

/// Mocks for the scenario's located requests, and the gaps of those not mocked.
fn mocks(s: &ScenarioData, ctx: Context) -> (Vec<openapi::Mock>, Vec<String>) {
    let mut mocks: Vec<openapi::Mock> = Vec::new();
    let mut gaps = Vec::new();
    for e in s
        .evidence
        .iter()
        .filter(|e| e.line > 0 && e.stage == Some(Stage::SideEffect))
    {
        let Some(request) = ctx
            .lines
            .line(&e.file, e.line)
            .and_then(openapi::request_on)
        else {
            continue;
        };
        let name = format!(
            "{} {}",
            request.method.as_deref().unwrap_or("a request to"),
            request.path
        );
        if ctx
            .lines
            .all()
            .any(|(_, _, t)| openapi::implements(t, &request))
        {
            gaps.push(format!(
                "{name} is observed, not mocked: the change implements the endpoint"
            ));
            continue;
        }
        match ctx.openapi.map(|doc| doc.mock(&request)) {
            Some(Ok(mock)) => {
                if !mocks
                    .iter()
                    .any(|m| m.method == mock.method && m.path == mock.path)
                {
                    mocks.push(mock);
                }
            }
            Some(Err(why)) => gaps.push(format!("{name} is not mocked: {why}")),
            None => gaps.push(format!(
                "{name} is not mocked (no --openapi document): the page's server must answer it"
            )),
        }
    }
    (mocks, gaps)
}

/// Source text made safe for a one-line comment or title: instruction-like spans removed,
/// no line breaks.
fn one_line(text: &str) -> String {
    qa_records::untrusted::neutralize(text)
        .0
        .chars()
        .map(|c| {
            if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                ' '
            } else {
                c
            }
        })
        .collect()
}

#[allow(clippy::too_many_arguments)]
fn render(
    scenario: &Read<ScenarioData>,
    short: &str,
    receipt: Receipt,
    (mapped, total): (u32, u32),
    entry: Option<&Entry>,
    mocks: &[openapi::Mock],
    steps: &[Item],
    assertions: &[Item],
) -> String {
    let receipt_name = serde_json::to_value(receipt)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let mut out = vec![
        "// Written by qa-trace: a Playwright draft, static and not executed.".to_string(),
        format!(
            "// Scenario {}: {}",
            scenario.id,
            one_line(&scenario.data.title)
        ),
        format!("// Receipt: {receipt_name}, {mapped} of {total} steps and assertions mapped."),
        "import { test, expect } from '@playwright/test';".to_string(),
        String::new(),
        format!(
            "test({}, async ({{ page }}) => {{",
            js(&format!("{} [qa:{short}]", one_line(&scenario.data.title)))
        ),
    ];
    let unmapped = steps
        .iter()
        .chain(assertions)
        .filter(|i| i.maps_to.is_none())
        .count();
    if unmapped > 0 || entry.is_none() {
        out.push(format!(
            "  test.fixme(true, {});",
            js(&format!(
                "qa-trace: {unmapped} of {total} steps and assertions are not mapped{}",
                if entry.is_none() {
                    ", and no entrypoint is located"
                } else {
                    ""
                }
            ))
        ));
    }
    for m in mocks {
        out.push(format!("  // Mock from {}", one_line(&m.source)));
        out.push(format!(
            "  await page.route((url) => url.pathname === {}, async (route) => {{",
            js(&m.path)
        ));
        out.push(format!(
            "    if (route.request().method() !== {}) return route.fallback();",
            js(&m.method)
        ));
        out.push(format!(
            "    await route.fulfill({{ status: {}, contentType: 'application/json', body: JSON.stringify({}) }});",
            m.status, m.body
        ));
        out.push("  });".to_string());
    }
    if let Some(entry) = entry {
        out.push(format!(
            "  await test.step({}, async () => {{",
            js(&format!("Open {} ({})", entry.path, one_line(&entry.from)))
        ));
        out.push(format!("    await page.goto({});", js(&entry.path)));
        out.push("  });".to_string());
    }
    // Steps in flow order; an action its click runs joins that click's step.
    let mut blocks: Vec<(String, Vec<String>)> = Vec::new();
    for item in steps {
        if item.maps_to.is_none() {
            blocks.push((
                String::new(),
                vec![format!("// not mapped: {}", one_line(&item.text))],
            ));
        } else if item.joins_previous && blocks.last().is_some_and(|b| !b.0.is_empty()) {
            let last = blocks.last_mut().expect("checked");
            last.0 = format!("{} / {}", last.0, one_line(&item.text));
        } else {
            blocks.push((one_line(&item.text), item.body.clone()));
        }
    }
    for item in assertions {
        match &item.maps_to {
            Some(_) => blocks.push((
                format!("Assert: {}", one_line(&item.text)),
                item.body.clone(),
            )),
            None => blocks.push((
                String::new(),
                vec![format!("// not mapped: {}", one_line(&item.text))],
            )),
        }
    }
    for (title, body) in blocks {
        if title.is_empty() {
            out.extend(body.into_iter().map(|l| format!("  {l}")));
        } else {
            out.push(format!("  await test.step({}, async () => {{", js(&title)));
            out.extend(body.into_iter().map(|l| format!("    {l}")));
            out.push("  });".to_string());
        }
    }
    out.push("});".to_string());
    out.push(String::new());
    out.join("\n")
}

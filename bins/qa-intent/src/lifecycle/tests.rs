use super::*;

/// A file's reading with its added lines (the whole file here) read by its grammar's tree,
/// or, for a component, by its script and markup trees.
fn lex(f: &FileData) -> Reading {
    let text: String = f.hunks[0]
        .lines
        .iter()
        .map(|l| format!("{}\n", l.text))
        .collect();
    let lines: BTreeSet<u32> = f.hunks[0].lines.iter().map(|l| l.line).collect();
    let facts = match crate::trees::Grammar::of(&f.path) {
        Some(g) => {
            qa_syntax::parse(g, &text).map(|tree| qa_syntax::lines::read(g, &tree, &text, &lines))
        }
        None => Some(qa_syntax::lines::read_component(&text, &lines)),
    };
    read_file(f, facts.as_ref())
}
use qa_records::change::{Delta, Hunk, HunkLine, Status};

fn file(path: &str, role: Role, added: &[&str]) -> FileData {
    FileData {
        added: added.len(),
        binary: false,
        delta: Delta::Branch,
        hunk_count: 1,
        hunks: vec![Hunk {
            lines: added
                .iter()
                .enumerate()
                .map(|(i, t)| HunkLine {
                    commit: None,
                    line: i as u32 + 1,
                    op: Op::Add,
                    text: t.to_string(),
                })
                .collect(),
            new_lines: added.len() as u32,
            new_start: 1,
            old_lines: 0,
            old_start: 0,
        }],
        new_oid: None,
        old_oid: None,
        old_path: None,
        old_path_bytes: None,
        path: path.to_string(),
        path_bytes: None,
        removed: 0,
        role,
        sha256: None,
        status: Status::Modified,
        truncated: false,
    }
}

fn kinds(path: &str, role: Role, added: &[&str]) -> Vec<FactKind> {
    lex(&file(path, role, added))
        .facts
        .into_iter()
        .map(|f| f.kind)
        .collect()
}

fn has(kinds: &[FactKind], pred: impl Fn(&FactKind) -> bool) -> bool {
    kinds.iter().any(pred)
}

#[test]
fn a_thrown_error_is_a_failure_outcome_with_its_message() {
    let facts = lex(&file(
        "src/refund.ts",
        Role::Product,
        &[
            "if (amount < 0) {",
            "  throw new Error(\"Refund amount must be positive\");",
            "}",
        ],
    ))
    .facts;
    let error = facts
        .iter()
        .find(|f| f.kind == FactKind::Outcome { error: true })
        .expect("an error outcome");
    assert_eq!(error.text, "Refund amount must be positive");
    assert_eq!(error.at.line, 2);
    let cmp = facts
        .iter()
        .find(|f| f.kind == FactKind::Comparison)
        .expect("a comparison");
    assert_eq!(cmp.text, "amount < 0");
}

#[test]
fn a_condition_without_a_limit_is_not_a_comparison() {
    let k = kinds("src/cart.ts", Role::Product, &["if (cart.isEmpty()) {"]);
    assert!(has(&k, |k| *k == FactKind::Condition));
    assert!(!has(&k, |k| *k == FactKind::Comparison));
}

#[test]
fn conditions_are_read_per_language() {
    assert_eq!(
        condition_of("    if amount < 0:").as_deref(),
        Some("amount < 0")
    );
    assert_eq!(
        condition_of("if amount < 0 {").as_deref(),
        Some("amount < 0")
    );
    assert_eq!(
        condition_of("} else if (a(b) && c) return x;").as_deref(),
        Some("a(b) && c")
    );
    assert_eq!(condition_of("const iffy = 1;"), None);
}

#[test]
fn a_pragma_or_note_after_a_condition_is_not_part_of_it() {
    assert_eq!(
        condition_of("    if isinstance(verify, str):  # pragma: nocover").as_deref(),
        Some("isinstance(verify, str)")
    );
    assert_eq!(
        condition_of("if n > 0 { // the empty case returns early").as_deref(),
        Some("n > 0")
    );
    // The control: a `#` or `//` inside a string is the condition's own.
    assert_eq!(
        condition_of("    if url == \"http://x #1\":").as_deref(),
        Some("url == \"http://x #1\"")
    );
}

#[test]
fn a_named_status_assignment_is_a_state_transition() {
    let facts = lex(&file(
        "src/orders.ts",
        Role::Product,
        &["order.status = \"shipped\";"],
    ))
    .facts;
    assert!(facts
        .iter()
        .any(|f| matches!(&f.kind, FactKind::State { literal: Some(s), .. } if s == "shipped")));
    let facts = lex(&file(
        "src/orders.tsx",
        Role::Product,
        &["setStatus(\"shipped\");"],
    ))
    .facts;
    assert!(facts
        .iter()
        .any(|f| matches!(&f.kind, FactKind::State { literal: Some(s), .. } if s == "shipped")));
}

#[test]
fn presentation_lines_are_not_state() {
    let k = kinds(
        "src/CalendarHeader.tsx",
        Role::Product,
        &[
            "<div className=\"calendar-header compact\">",
            "setOpen(true);",
            "  padding: 4px;",
        ],
    );
    assert!(
        !has(&k, |k| matches!(
            k,
            FactKind::State { .. } | FactKind::SideEffect
        )),
        "{k:?}"
    );
}

#[test]
fn local_storage_writes_are_durable_state() {
    let k = kinds(
        "src/prefs.ts",
        Role::Product,
        &["localStorage.setItem(\"theme\", value);"],
    );
    assert!(has(&k, |k| matches!(
        k,
        FactKind::State { durable: true, .. }
    )));
}

#[test]
fn requests_are_side_effects_but_words_in_strings_are_not() {
    let k = kinds(
        "src/api.ts",
        Role::Product,
        &["await fetch(`/api/orders/${id}`);"],
    );
    assert!(has(&k, |k| *k == FactKind::SideEffect));
    let k = kinds(
        "src/copy.ts",
        Role::Product,
        &["const hint = \"we fetch( nothing here\";"],
    );
    assert!(!has(&k, |k| *k == FactKind::SideEffect));
}

#[test]
fn toasts_and_jsx_text_are_visible_outcomes() {
    let k = kinds(
        "src/save.tsx",
        Role::Product,
        &["toast.success(\"Saved\");"],
    );
    assert!(has(&k, |k| *k == FactKind::Outcome { error: false }));
    let k = kinds("src/save.tsx", Role::Product, &["const n = items.length;"]);
    assert!(!has(&k, |k| matches!(k, FactKind::Outcome { .. })));
}

#[test]
fn routes_are_triggers() {
    let facts = lex(&file(
        "src/server.ts",
        Role::Product,
        &["app.post(\"/refunds\", handler);"],
    ))
    .facts;
    let t = facts
        .iter()
        .find(|f| f.kind == FactKind::Trigger)
        .expect("trigger");
    assert_eq!(t.text, "POST /refunds");
    let facts = lex(&file(
        "app/api.py",
        Role::Product,
        &["@app.get(\"/orders/{id}\")"],
    ))
    .facts;
    assert!(facts.iter().any(|f| f.kind == FactKind::Trigger));
}

#[test]
fn comment_lines_give_no_facts() {
    let k = kinds(
        "src/refund.ts",
        Role::Product,
        &["// throw new Error(\"old\"); order.status = \"x\""],
    );
    assert!(k.is_empty(), "{k:?}");
}

#[test]
fn analysis_rules_give_only_pattern_facts() {
    let k = kinds(
        "src/analyzers/calendarRule.ts",
        Role::AnalysisRule,
        &[
            "const words = new RegExp(\"calendar|payment|/api\", \"i\");",
            "if (words.test(line)) { report(line); }",
        ],
    );
    assert!(has(&k, |k| *k == FactKind::Pattern));
    assert!(!has(&k, |k| matches!(
        k,
        FactKind::Trigger
            | FactKind::SideEffect
            | FactKind::State { .. }
            | FactKind::Outcome { .. }
    )));
}

#[test]
fn command_files_give_arguments_output_and_exit_codes() {
    let k = kinds(
        "src/cli.rs",
        Role::Command,
        &[
            "    #[arg(long)]",
            "    pub dry_run: bool,",
            "println!(\"{}\", summary);",
            "std::process::exit(2);",
        ],
    );
    assert!(has(&k, |k| *k == FactKind::Argument));
    assert!(has(&k, |k| *k == FactKind::Output));
    assert!(has(&k, |k| *k == FactKind::ExitCode));
}

#[test]
fn test_and_documentation_files_give_no_lifecycle_facts() {
    assert!(kinds("src/cart.test.ts", Role::Test, &["throw new Error(\"x\");"]).is_empty());
    assert!(kinds(
        "docs/a.md",
        Role::Documentation,
        &["order.status = \"shipped\""]
    )
    .is_empty());
}

#[test]
fn commit_clauses_split_trigger_condition_and_action() {
    assert_eq!(
        clauses("show totals when the cart changes"),
        vec![
            (Stage::Action, "show totals".to_string()),
            (Stage::Trigger, "the cart changes".to_string())
        ]
    );
    assert_eq!(
        clauses("reject refunds if the amount is negative"),
        vec![
            (Stage::Action, "reject refunds".to_string()),
            (Stage::Condition, "the amount is negative".to_string())
        ]
    );
    assert_eq!(
        clauses("add coupon field"),
        vec![(Stage::Action, "add coupon field".to_string())]
    );
}

#[test]
fn jsx_event_handlers_are_triggers_and_class_names_are_not() {
    let facts = lex(&file(
        "src/Save.tsx",
        Role::Product,
        &["<button onClick={() => save(cart)}>Save</button>"],
    ))
    .facts;
    let t = facts
        .iter()
        .find(|f| f.kind == FactKind::Trigger)
        .expect("trigger");
    assert!(t.text.starts_with("onClick runs"), "{}", t.text);
    let k = kinds(
        "src/Save.tsx",
        Role::Product,
        &["<button className=\"primary\">"],
    );
    assert!(!has(&k, |k| *k == FactKind::Trigger));
}

#[test]
fn go_handlers_and_cli_flags_of_other_ecosystems_are_read() {
    let facts = lex(&file(
        "main.go",
        Role::Product,
        &["\thttp.HandleFunc(\"/refunds\", refundHandler)"],
    ))
    .facts;
    assert!(facts
        .iter()
        .any(|f| f.kind == FactKind::Trigger && f.text.contains("/refunds")));
    for line in [
        "@click.option(\"--dry-run\", is_flag=True)",
        "\tcmd.Flags().BoolVar(&dryRun, \"dry-run\", false, \"only print\")",
    ] {
        let k = kinds("cli/app.py", Role::Command, &[line]);
        assert!(has(&k, |k| *k == FactKind::Argument), "{line}");
    }
    // A plain function call in a command file is not an argument definition.
    let k = kinds("cli/app.py", Role::Command, &["total = compute(items)"]);
    assert!(!has(&k, |k| *k == FactKind::Argument));
}

#[test]
fn locals_declarations_and_filters_are_not_state_transitions() {
    for line in [
        "let state = \"plain\";",
        "state = \"quoted\"",
        "status = models.CharField(max_length=20, default=\"draft\")",
        "posts = Post.objects.filter(status=\"approved\")",
        "if (order.status === \"shipped\") {",
        "stage: Stage::Condition,",
    ] {
        let facts = lex(&file("src/x.py", Role::Product, &[line])).facts;
        assert!(
            !facts.iter().any(|f| matches!(
                &f.kind,
                FactKind::State {
                    literal: Some(_),
                    ..
                }
            )),
            "{line}: {facts:?}"
        );
    }
    for (line, to) in [
        ("self.status = \"approved\"", "approved"),
        (
            "Post.objects.filter(pk=pk).update(status=\"approved\")",
            "approved",
        ),
        ("self.state = State::Open;", "Open"),
    ] {
        let facts = lex(&file("src/x.py", Role::Product, &[line])).facts;
        assert!(
            facts
                .iter()
                .any(|f| matches!(&f.kind, FactKind::State { literal: Some(s), .. } if s == to)),
            "{line}: {facts:?}"
        );
    }
}

#[test]
fn declared_functions_are_actions_but_declared_values_are_not() {
    let k = kinds(
        "src/save.ts",
        Role::Product,
        &["export async function saveSettings(s: Settings) {"],
    );
    assert!(has(&k, |k| *k == FactKind::Call));
    let k = kinds(
        "src/save.ts",
        Role::Product,
        &["export const logger = createLogger(\"settings\");"],
    );
    assert!(!has(&k, |k| *k == FactKind::Call), "{k:?}");
}

#[test]
fn loop_bounds_are_not_conditions() {
    let k = kinds(
        "src/retry.ts",
        Role::Product,
        &["while (attempt < MAX_RETRIES) {"],
    );
    assert!(
        !has(&k, |k| matches!(
            k,
            FactKind::Condition | FactKind::Comparison
        )),
        "{k:?}"
    );
}

#[test]
fn storage_keys_are_literals_or_the_constants_holding_them() {
    assert_eq!(
        stored_key("localStorage.setItem(\"theme\", v);", "setItem").as_deref(),
        Some("theme")
    );
    assert_eq!(
        stored_key("const raw = localStorage.getItem(STORAGE_KEY);", "getItem").as_deref(),
        Some("STORAGE_KEY")
    );
    assert_eq!(
        stored_key(
            "localStorage.setItem(STORAGE_KEY, JSON.stringify(s));",
            "setItem"
        )
        .as_deref(),
        Some("STORAGE_KEY")
    );
    // A computed key is no stable key.
    assert_eq!(
        stored_key("localStorage.setItem(prefix + id, v);", "setItem"),
        None
    );
    assert_eq!(stored_key("cache.setItem(\"theme\", v);", "setItem"), None);
}

#[test]
fn module_stems_name_the_imported_file() {
    assert_eq!(module_stem("../src/rules/urgency.js"), "urgency");
    assert_eq!(module_stem("./Cart"), "cart");
    assert_eq!(module_stem("app.orders"), "orders");
    assert_eq!(module_stem("react"), "react");
}

#[test]
fn an_http_error_keeps_its_detail() {
    let facts = lex(&file(
        "app/items.py",
        Role::Product,
        &["        raise HTTPException(status_code=404, detail=\"item not found\")"],
    ))
    .facts;
    let e = facts
        .iter()
        .find(|f| f.kind == FactKind::Outcome { error: true })
        .expect("error");
    assert_eq!(e.text, "404 item not found");
    // Without a detail the code alone stands.
    let facts = lex(&file(
        "app/items.py",
        Role::Product,
        &["raise HTTPException(status_code=409)"],
    ))
    .facts;
    let e = facts
        .iter()
        .find(|f| f.kind == FactKind::Outcome { error: true })
        .expect("error");
    assert_eq!(e.text, "409");
}

#[test]
fn messages_are_rendered_whole_with_their_values() {
    assert_eq!(
        render_argument("\"account \" + id + \" is frozen\")"),
        "account {id} is frozen"
    );
    assert_eq!(
        render_argument("`no rate for ${pair.base}`)"),
        "no rate for {pair.base}"
    );
    assert_eq!(render_argument("\"plain\", 404)"), "plain");
    let facts = lex(&file(
        "src/Account.java",
        Role::Product,
        &["throw new IllegalStateException(\"account \" + id + \" is frozen\");"],
    ))
    .facts;
    let e = facts
        .iter()
        .find(|f| f.kind == FactKind::Outcome { error: true })
        .expect("error");
    assert_eq!(e.text, "account {id} is frozen");
}

#[test]
fn framework_error_idioms_are_failure_outcomes() {
    for (path, line, msg) in [
        (
            "src/routes/+page.server.ts",
            "throw error(404, \"Invoice not found\");",
            "Invoice not found",
        ),
        (
            "internal/stock.go",
            "return nil, status.Errorf(codes.NotFound, \"no stock for %s\", sku)",
            "no stock for %s",
        ),
        (
            "app/models/loan.rb",
            "raise ArgumentError, \"amount must be positive\" if amount <= 0",
            "amount must be positive",
        ),
    ] {
        let facts = lex(&file(path, Role::Product, &[line])).facts;
        let e = facts
            .iter()
            .find(|f| f.kind == FactKind::Outcome { error: true });
        assert_eq!(e.map(|f| f.text.as_str()), Some(msg), "{line}");
    }
}

#[test]
fn inequality_with_zero_is_no_boundary() {
    let k = kinds("src/sort.ts", Role::Product, &["if (cmp !== 0) {"]);
    assert!(!has(&k, |k| *k == FactKind::Comparison), "{k:?}");
    let k = kinds("src/sort.ts", Role::Product, &["if (count >= 10) {"]);
    assert!(has(&k, |k| *k == FactKind::Comparison));
}

#[test]
fn a_status_inside_a_save_payload_is_a_transition_but_ui_flags_are_not_state() {
    let facts = lex(&file(
        "src/pay.ts",
        Role::Product,
        &["await saveInvoice({ ...invoice, status: \"paid\" });"],
    ))
    .facts;
    assert!(
        facts
            .iter()
            .any(|f| matches!(&f.kind, FactKind::State { literal: Some(s), .. } if s == "paid")),
        "{facts:?}"
    );
    let k = kinds(
        "src/Form.tsx",
        Role::Product,
        &["setError(null);", "setLoading(true);"],
    );
    assert!(!has(&k, |k| matches!(k, FactKind::State { .. })), "{k:?}");
}

#[test]
fn an_error_message_also_on_a_removed_line_is_preexisting() {
    let mut f = file(
        "src/Account.java",
        Role::Product,
        &["throw new InsufficientFunds(\"insufficient funds on \" + accountId);"],
    );
    f.hunks[0].lines.push(HunkLine {
        commit: None,
        line: 1,
        op: Op::Remove,
        text: "throw new InsufficientFunds(\"insufficient funds on \" + id);".to_string(),
    });
    let facts = lex(&f).facts;
    let e = facts
        .iter()
        .find(|f| f.kind == FactKind::Outcome { error: true })
        .expect("error");
    assert!(e.preexisting);
    // A new message is not.
    let facts = lex(&file(
        "src/Account.java",
        Role::Product,
        &["throw new Frozen(\"account is frozen\");"],
    ))
    .facts;
    assert!(!facts.iter().any(|f| f.preexisting));
}

#[test]
fn a_test_of_an_input_against_a_literal_affix_is_a_boundary() {
    for line in [
        "if code.ends_with(\"\\r\\n\") {",
        "if (name.startsWith('_')) {",
        "if strings.HasPrefix(v, \"v\") {",
    ] {
        let k = kinds("src/read.rs", Role::Product, &[line]);
        assert!(has(&k, |k| *k == FactKind::Comparison), "{line}: {k:?}");
    }
    // A predicate with no literal to probe at is a plain condition.
    let k = kinds(
        "src/read.rs",
        Role::Product,
        &["if code.ends_with(suffix) {"],
    );
    assert!(!has(&k, |k| *k == FactKind::Comparison), "{k:?}");
    assert!(has(&k, |k| *k == FactKind::Condition), "{k:?}");
    // Nor is one joined to other tests: a case of several, no single limit.
    let k = kinds(
        "src/read.rs",
        Role::Product,
        &["if strict && code.ends_with(\"/\") {"],
    );
    assert!(!has(&k, |k| *k == FactKind::Comparison), "{k:?}");
}

#[test]
fn an_affix_test_names_its_input_side_and_literal() {
    assert_eq!(
        affix_test("code.ends_with(\"\\r\\n\")"),
        Some(("code", "ends", "\"\\r\\n\""))
    );
    assert_eq!(
        affix_test("strings.HasPrefix(v, \"v\")"),
        Some(("v", "starts", "\"v\""))
    );
    assert_eq!(
        affix_test("flagParts[0].trim().startsWith('-')"),
        Some(("flagParts[0].trim()", "starts", "'-'"))
    );
    assert_eq!(affix_test("code.is_empty()"), None);
}

#[test]
fn conditions_in_a_product_files_test_module_are_no_product_facts() {
    let reading = lex(&file(
        "src/walk.rs",
        Role::Product,
        &[
            "pub fn admit(depth: usize, limit: usize) -> bool {",
            "    if depth > limit {",
            "        return false;",
            "    }",
            "    true",
            "}",
            "#[cfg(test)]",
            "mod tests {",
            "    #[test]",
            "    fn panics_on_the_third_build() {",
            "        let mut builds = 0;",
            "        run(|| {",
            "            builds += 1;",
            "            if builds == 3 {",
            "                panic!(\"builder panic\");",
            "            }",
            "        });",
            "    }",
            "}",
        ],
    ));
    let at = |line: u32| reading.facts.iter().filter(move |f| f.at.line == line);
    // The product's own limit is a comparison, as before.
    assert!(at(2).any(|f| f.kind == FactKind::Comparison && f.text == "depth > limit"));
    // The test's counter and its panic are test code: no comparison, no failure.
    assert_eq!(at(14).count(), 0);
    assert_eq!(at(15).count(), 0);
    assert!(reading.facts.iter().all(|f| f.at.line <= 6));
}

#[test]
fn a_function_compiled_only_outside_tests_is_product_code() {
    let reading = lex(&file(
        "src/walk.rs",
        Role::Product,
        &[
            "#[cfg(not(test))]",
            "pub fn admit(depth: usize) -> bool {",
            "    if depth > 3 {",
            "        return false;",
            "    }",
            "    true",
            "}",
        ],
    ));
    assert!(reading
        .facts
        .iter()
        .any(|f| f.at.line == 3 && f.kind == FactKind::Comparison));
}

//! Scenario kinds and proof come from located changed lines: a throw is a failure path, a
//! comparison a boundary, a status write a state transition, a visible message an
//! outcome; a presentation-only or rename-only change proves none of them.

use crate::common;
use common::*;

const HEADER_V1: &str = r#"import "./calendar.css";

export function CalendarHeader({ month, onNext }: Props) {
  return (
    <header className="header">
      <h2>{month}</h2>
      <button onClick={onNext}>Next</button>
    </header>
  );
}
"#;

const HEADER_V2: &str = r#"import "./calendar.css";

export function CalendarHeader({ month, onNext }: Props) {
  return (
    <header className="calendar-header calendar-header--compact">
      <h2 className="calendar-header__title">{month}</h2>
      <button className="calendar-header__next" onClick={onNext}>Next</button>
    </header>
  );
}
"#;

#[test]
fn a_presentation_only_change_has_no_state_transition_or_side_effect() {
    let mut r = feature_repo(&[
        ("src/CalendarHeader.tsx", HEADER_V1),
        ("src/calendar.css", ".header { display: flex; }\n"),
    ]);
    commit_files(
        &mut r,
        "feat: restyle calendar header",
        &[
            ("src/CalendarHeader.tsx", HEADER_V2),
            (
                "src/calendar.css",
                ".calendar-header { display: flex; gap: 8px; }\n.calendar-header--compact { padding: 4px; }\n.calendar-header__title { font-weight: 600; }\n",
            ),
        ],
    );
    let s = flow(&r).run();
    assert!(!s.intents().is_empty(), "{}", s.summary());
    assert!(
        s.scenarios_of_kind("state-transition").is_empty(),
        "{}",
        s.summary()
    );
    for intent in s.intents() {
        for step in intent["data"]["lifecycle"].as_array().into_iter().flatten() {
            assert!(
                step["stage"] != "state-change" && step["stage"] != "side-effect",
                "className and CSS changes are neither state nor effects: {step}"
            );
        }
    }
}

const REFUNDS_V1: &str = r#"export interface Refund {
  orderId: string;
  amount: number;
}

export function refund(orderId: string, amount: number): Refund {
  return { orderId, amount };
}
"#;

fn refunds_guarded() -> String {
    edit(
        REFUNDS_V1,
        "  return { orderId, amount };",
        "  if (amount < 0) {\n    throw new Error(\"Refund amount must be positive\");\n  }\n  return { orderId, amount };",
    )
}

#[test]
fn a_guarded_throw_yields_failure_and_boundary_scenarios_on_its_lines() {
    let guarded = refunds_guarded();
    let mut r = feature_repo(&[("src/refunds.ts", REFUNDS_V1)]);
    commit_files(
        &mut r,
        "fix: reject negative refund amounts",
        &[("src/refunds.ts", &guarded)],
    );
    let s = flow(&r).run();
    let throw = line_of(&guarded, "throw new Error");
    let guard = line_of(&guarded, "amount < 0");
    s.assert_scenario_at("failure", "src/refunds.ts", throw);
    s.assert_scenario_at("boundary", "src/refunds.ts", guard);
}

#[test]
fn code_without_a_throw_or_comparison_has_no_failure_or_boundary_scenario() {
    let mut r = feature_repo(&[("src/refunds.ts", REFUNDS_V1)]);
    commit_files(
        &mut r,
        "feat: show the refund total",
        &[(
            "src/refunds.ts",
            &format!("{REFUNDS_V1}\nexport function refundTotal(refunds: Refund[]): number {{\n  return refunds.reduce((sum, r) => sum + r.amount, 0);\n}}\n"),
        )],
    );
    let s = flow(&r).run();
    assert!(!s.intents().is_empty(), "{}", s.summary());
    assert!(s.scenarios_of_kind("failure").is_empty(), "{}", s.summary());
    assert!(
        s.scenarios_of_kind("boundary").is_empty(),
        "{}",
        s.summary()
    );
}

const SHIP_BASE: &str = r#"export interface Order {
  id: string;
  status: "paid" | "shipped";
  label?: string;
}

export function formatLabel(order: Order, tracking: string): string {
  return `${order.id}/${tracking}`;
}
"#;

/// `shipOrder`, with or without the status write.
fn ship_order(with_status: bool) -> String {
    let status = if with_status {
        "  order.status = \"shipped\";\n"
    } else {
        ""
    };
    format!(
        "{SHIP_BASE}\nexport function shipOrder(order: Order, tracking: string): Order {{\n  const label = formatLabel(order, tracking);\n{status}  return {{ ...order, label }};\n}}\n"
    )
}

fn shipping_repo(with_status: bool) -> (Repo, String) {
    let code = ship_order(with_status);
    let mut r = feature_repo(&[("src/orders/ship.ts", SHIP_BASE)]);
    commit_files(
        &mut r,
        "feat: ship orders with a tracking label",
        &[("src/orders/ship.ts", &code)],
    );
    (r, code)
}

#[test]
fn a_status_write_yields_a_state_transition_on_that_line() {
    let (r, code) = shipping_repo(true);
    let s = flow(&r).run();
    let line = line_of(&code, "order.status = \"shipped\"");
    s.assert_scenario_at("state-transition", "src/orders/ship.ts", line);
}

#[test]
fn the_same_code_without_a_status_write_has_no_state_transition() {
    let (r, _) = shipping_repo(false);
    let s = flow(&r).run();
    assert!(!s.intents().is_empty(), "{}", s.summary());
    assert!(
        s.scenarios_of_kind("state-transition").is_empty(),
        "{}",
        s.summary()
    );
}

const PROFILE_V1: &str = r#"import { toast } from "./toast";

export function ProfileForm({ user, save }: Props) {
  async function onSubmit(form: FormData) {
    const d = Object.fromEntries(form);
    await save(user.id, d);
  }
  return <form action={onSubmit}><input name="displayName" /></form>;
}
"#;

fn profile_repo(message: &str, change: &str) -> Repo {
    let mut r = feature_repo(&[("src/ProfileForm.tsx", PROFILE_V1)]);
    commit_files(&mut r, message, &[("src/ProfileForm.tsx", change)]);
    r
}

fn primary_scenarios(s: &Stream) -> Vec<&serde_json::Value> {
    let primary = s.scenarios_of_kind("primary");
    assert!(!primary.is_empty(), "no primary scenario:\n{}", s.summary());
    primary
}

#[test]
fn a_feat_without_a_located_outcome_has_a_proof_gap_and_is_not_high_confidence() {
    let renamed = edit(PROFILE_V1, "const d =", "const draft =");
    let renamed = edit(&renamed, "save(user.id, d)", "save(user.id, draft)");
    let r = profile_repo("feat: save the profile form", &renamed);
    let s = flow(&r).run();
    for scenario in primary_scenarios(&s) {
        assert!(
            scenario["data"]["proof_gap"].is_string(),
            "a renamed variable proves no outcome: {}",
            scenario["data"]
        );
    }
    let intent = s.intent_with_file("src/ProfileForm.tsx");
    assert_ne!(intent["data"]["confidence"], "high", "{}", s.summary());
}

#[test]
fn a_feat_adding_a_visible_message_has_no_proof_gap() {
    let confirmed = edit(
        PROFILE_V1,
        "    await save(user.id, d);\n",
        "    await save(user.id, d);\n    toast.success(\"Saved\");\n",
    );
    let confirmed = edit(
        &confirmed,
        "<input name=\"displayName\" />",
        "<input name=\"displayName\" />\n      <p className=\"hint\">Your profile is visible to other members</p>",
    );
    let r = profile_repo("feat: confirm the saved profile", &confirmed);
    let s = flow(&r).run();
    for scenario in primary_scenarios(&s) {
        assert!(
            scenario["data"]["proof_gap"].is_null(),
            "toast.success(\"Saved\") and the JSX text are located outcomes: {}",
            scenario["data"]
        );
    }
}

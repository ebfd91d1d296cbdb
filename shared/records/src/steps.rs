//! Scenario steps: sentences a tester can follow, each naming the located fact it rests
//! on, written by qa-intent and read back by qa-trace's drafts.

/// What a step asks for, with the fact text it names (as the scenario's evidence has it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// An entry point to fire: `click event`, `POST /refund`.
    Trigger(&'a str),
    /// A case to use, named by the condition it makes true: `amount < 0`.
    Given(&'a str),
    /// A changed call to make: the callee's name (the fact reads `name (changed)`).
    Action(&'a str),
    /// A state change to bring about: `fact (file:line)`, or the fact alone.
    Change(&'a str),
    /// Any other sentence (commit wording, a test's set-up and call, reload).
    Other,
}

const TRIGGER: (&str, &str) = ("Trigger `", "`");
const GIVEN: (&str, &str) = ("Use a case where `", "` is true");
const ACTION: (&str, &str) = ("Call `", "`, which this change modified");
const CHANGE: (&str, &str) = ("Store a new value through `", "`");
const STATE: (&str, &str) = ("Perform the step that runs `", "`");

/// `Trigger `click event``.
pub fn trigger(fact: &str) -> String {
    format!("{}{fact}{}", TRIGGER.0, TRIGGER.1)
}

/// `Use a case where `amount < 0` is true`: a case, never a code condition to "arrange".
pub fn given(condition: &str) -> String {
    format!("{}{condition}{}", GIVEN.0, GIVEN.1)
}

/// `Use a case where `amount < 0` is true (src/pay.rs:12)`.
pub fn given_at(condition: &str, file: &str, line: u32) -> String {
    format!("{} ({file}:{line})", given(condition))
}

/// What a changed test sets up, as a tester does it: `Set up as test `strict` does
/// (router_test.go:12): set `r.StrictSlash` to `true``. `setup` is already in words.
pub fn arrange_as_test(test: &str, file: &str, line: u32, setup: &str) -> String {
    format!("Set up as test `{test}` does ({file}:{line}): {setup}")
}

/// The call a changed test checks the result of, with its arguments: `Call
/// `r.Match("/users/")` and check its result as test `strict` does`.
pub fn act_as_test(call: &str, test: &str) -> String {
    format!("Call `{call}` and check its result as test `{test}` does")
}

/// `Call `save`, which this change modified`, for the fact `save (changed)`.
pub fn action(fact: &str) -> String {
    let name = fact.strip_suffix(" (changed)").unwrap_or(fact);
    format!("{}{name}{}", ACTION.0, ACTION.1)
}

/// `Store a new value through `fact` (file:line)`.
pub fn stored_change(fact: &str, file: &str, line: u32) -> String {
    format!("{}{fact}{} ({file}:{line})", CHANGE.0, CHANGE.1)
}

/// `Perform the step that runs `fact``: an in-memory state change.
pub fn state_change(fact: &str) -> String {
    format!("{}{fact}{}", STATE.0, STATE.1)
}

/// Reads a step back. The fact is cut by the fixed prefix and suffix, so backticks
/// inside it do no harm.
pub fn parse(step: &str) -> Step<'_> {
    let cut = |(pre, post): (&str, &str)| step.strip_prefix(pre)?.strip_suffix(post);
    if let Some(f) = cut(TRIGGER) {
        Step::Trigger(f)
    } else if let Some(f) = cut(GIVEN).or_else(|| {
        let rest = step.strip_prefix(GIVEN.0)?;
        let (f, at) = rest.rsplit_once(&format!("{} (", GIVEN.1))?;
        at.ends_with(')').then_some(f)
    }) {
        Step::Given(f)
    } else if let Some(name) = cut(ACTION) {
        Step::Action(name)
    } else if let Some((fact, _at)) = step
        .strip_prefix(CHANGE.0)
        .and_then(|rest| rest.rsplit_once("` ("))
    {
        Step::Change(fact)
    } else if let Some(f) = cut(STATE) {
        Step::Change(f)
    } else {
        Step::Other
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_form_reads_back_as_written() {
        assert_eq!(parse(&trigger("click event")), Step::Trigger("click event"));
        assert_eq!(parse(&given("a `b` < 0")), Step::Given("a `b` < 0"));
        assert_eq!(
            parse(&given_at("a `b` < 0", "src/pay.rs", 12)),
            Step::Given("a `b` < 0")
        );
        assert_eq!(parse(&action("save (changed)")), Step::Action("save"));
        assert_eq!(
            parse(&stored_change("localStorage.setItem(k, v);", "app.js", 4)),
            Step::Change("localStorage.setItem(k, v);")
        );
        assert_eq!(
            parse(&state_change("status = 'saved'")),
            Step::Change("status = 'saved'")
        );
    }

    #[test]
    fn other_sentences_are_other() {
        assert_eq!(parse("Reload the page"), Step::Other);
        assert_eq!(parse("Trigger: click event"), Step::Other);
        // A changed test's set-up and call are sentences of their own, not facts.
        assert_eq!(
            parse(&arrange_as_test(
                "strict",
                "r_test.go",
                3,
                "set `r.Strict` to `true`"
            )),
            Step::Other
        );
        assert_eq!(
            parse(&act_as_test("r.Match(\"/a/\")", "strict")),
            Step::Other
        );
    }

    #[test]
    fn no_step_asks_to_arrange_a_code_condition() {
        let given = given("self.outputs.is_empty() && !self.null_separator");
        assert!(!given.starts_with("Arrange that"), "{given}");
        assert!(given.starts_with("Use a case where"), "{given}");
    }
}

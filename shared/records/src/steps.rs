//! Scenario steps: sentences a tester can follow, each naming the located fact it rests
//! on, written by qa-intent and read back by qa-trace's drafts.

/// What a step asks for, with the fact text it names (as the scenario's evidence has it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'a> {
    /// An entry point to fire: `click event`, `POST /refund`.
    Trigger(&'a str),
    /// A condition to arrange: `amount < 0`.
    Given(&'a str),
    /// A changed call to make: the callee's name (the fact reads `name (changed)`).
    Action(&'a str),
    /// A state change to bring about: `fact (file:line)`, or the fact alone.
    Change(&'a str),
    /// Any other sentence (commit wording, test set-up, reload).
    Other,
}

const TRIGGER: (&str, &str) = ("Trigger `", "`");
const GIVEN: (&str, &str) = ("Arrange that `", "` holds");
const ACTION: (&str, &str) = ("Call `", "`, which this change modified");
const CHANGE: (&str, &str) = ("Store a new value through `", "`");
const STATE: (&str, &str) = ("Perform the step that runs `", "`");

/// `Trigger `click event``.
pub fn trigger(fact: &str) -> String {
    format!("{}{fact}{}", TRIGGER.0, TRIGGER.1)
}

/// `Arrange that `amount < 0` holds`.
pub fn given(condition: &str) -> String {
    format!("{}{condition}{}", GIVEN.0, GIVEN.1)
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
    } else if let Some(f) = cut(GIVEN) {
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
    }
}

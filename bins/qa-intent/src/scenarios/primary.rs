//! The primary scenario: the journey the change makes, the way in a changed test shows,
//! and what proves it.

use super::*;

impl Ctx<'_> {
    pub(super) fn primary(
        &self,
        f: &ProductFacts,
        oracle: &[(&TestContract, &Expected)],
    ) -> Scenario {
        let d = &self.intent.data;
        let ProductFacts {
            triggers,
            conditions,
            actions,
            effects,
            outcomes,
            errors,
            durable,
            states,
            ..
        } = f;
        // Without a changed test to follow, a test the change deletes says which
        // behaviour it gives up: what that test did is the way in, what it expected is
        // what no longer has to hold.
        let deleted = if oracle.is_empty() {
            self.deleted_oracle()
        } else {
            None
        };
        let followed = !oracle.is_empty() || deleted.is_some();
        // Primary: the journey and what proves it.
        let mut steps: Vec<String> = Vec::new();
        for t in triggers.iter().take(2) {
            steps.push(trigger_step(&t.text));
        }
        // The oracle is computed before the steps: a changed test's set-up and call are
        // the way in, the commit's wording only without one.
        if triggers.is_empty() && !followed {
            steps.extend(self.commit_steps(Stage::Trigger));
        }
        // A condition that guards an error belongs to the failure scenario, not the journey.
        let guards_error = |c: &Fact| {
            errors.iter().any(|e| {
                e.at.file == c.at.file && e.at.line >= c.at.line && e.at.line - c.at.line <= 3
            })
        };
        // The case to use: a new condition, unless a changed test sets up the case itself
        // (a product condition would then be a guess at which side it takes). Never an
        // early exit: a short block that does nothing the change makes observable is the
        // path on which the behaviour does not happen.
        let guards_behaviour = |file: &str, line: u32| -> bool {
            let span = self
                .intent
                .deltas
                .get(file)
                .and_then(|d| d.condition_spans.iter().find(|(l, _)| *l == line));
            span.is_none_or(|&(_, end)| {
                end > line + 2
                    || self.intent.facts.iter().any(|(f, _)| {
                        f.at.file == file
                            && f.at.line > line
                            && f.at.line <= end
                            && !matches!(f.kind, FactKind::Condition | FactKind::Comparison)
                    })
            })
        };
        let mut given = 0;
        for c in conditions
            .iter()
            .filter(|c| c.kind == FactKind::Condition && !c.preexisting && !guards_error(c))
            .filter(|c| guards_behaviour(&c.at.file, c.at.line))
            .take(usize::from(!followed))
        {
            steps.push(given_step(&c.text));
            given += 1;
        }
        // A condition the trees see as new where the line reader saw none (`let x = if
        // ... {`, a multi-line condition).
        if given == 0 && !followed {
            if let Some((file, c)) = self
                .new_conditions()
                .into_iter()
                .find(|(file, c)| guards_behaviour(file, c.line))
            {
                steps.push(qa_records::steps::given_at(&c.text, file, c.line));
            }
        }
        // What the changed tests set up and the call they check: the way in a tester
        // can follow, before the changed calls the product lines name.
        steps.extend(oracle_steps(oracle));
        if let Some((file, dt)) = deleted {
            steps.extend(deleted_steps(file, dt));
        }
        for a in actions.iter().take(2) {
            steps.push(action_step(&a.text));
        }
        if triggers.is_empty() && actions.is_empty() {
            // No test to follow: the changed functions are the way in.
            if !followed {
                for (file, path, line) in self.changed_functions().into_iter().take(2) {
                    steps.push(format!(
                        "Exercise `{}` ({file}:{line}), the code this change modified",
                        short(path)
                    ));
                }
            }
        }
        // Elements added to a constant list, set, map or match: the new case to try.
        let (added_elements, removed_elements) = self.elements();
        for (file, e) in added_elements.iter().take(2) {
            steps.push(format!(
                "Use the new entry `{}` of `{}` ({file}:{})",
                e.text,
                short(&e.item),
                e.line
            ));
        }
        if steps.is_empty() {
            steps.extend(self.commit_steps(Stage::Action));
        }
        // Two changed functions of one name (`update` in several impls) are one step.
        let mut seen_steps = std::collections::HashSet::new();
        steps.retain(|s| seen_steps.insert(s.clone()));
        let mut assertions: Vec<String> = outcomes
            .iter()
            .take(3)
            .map(|o| crate::intents::capitalized(&o.text))
            .collect();
        assertions.extend(
            durable
                .iter()
                .take(2)
                .map(|s| format!("The change is stored: {}", s.text)),
        );
        // The changed tests' expected values are the oracle: quoted, at their lines.
        let mut contract_evidence = Vec::new();
        for (c, e) in oracle.iter().take(3) {
            assertions.push(format!("Test `{}` expects {}", test_name(c), e.text));
            contract_evidence.push(self.expected_evidence(c, e));
        }
        contract_evidence.extend(self.changed_test_evidence(&oracle[..oracle.len().min(3)]));
        let mut exercised: Vec<&Exercised> = Vec::new();
        for x in d.contracts.iter().flat_map(|c| c.exercises.iter()) {
            if !exercised
                .iter()
                .any(|y| y.file == x.file && y.item == x.item)
            {
                exercised.push(x);
            }
        }
        contract_evidence.extend(exercised.iter().take(3).map(|x| Evidence {
            file: x.file.clone(),
            line: x.line,
            relation: Relation::Direct,
            stage: Some(Stage::Action),
            text: format!("`{}`, called by the changed tests", x.item),
        }));
        // Tests that drive the product from outside (a binary, a page) call none of the
        // changed items: the items the change touched are where the behaviour lives.
        if exercised.is_empty() && !oracle.is_empty() {
            let changed = self
                .changed_functions()
                .into_iter()
                .map(|(file, path, line)| Evidence {
                    file: file.to_string(),
                    line,
                    relation: Relation::Supporting,
                    stage: Some(Stage::Action),
                    text: format!("`{path}` changed"),
                });
            contract_evidence.extend(changed.take(2));
        }
        // Parameters a changed function gained or lost, and checks the change dropped.
        for (file, d) in self.product_deltas() {
            for p in d.added_params.iter().take(2) {
                contract_evidence.push(Evidence {
                    file: file.to_string(),
                    line: p.line,
                    relation: Relation::Direct,
                    stage: Some(Stage::Trigger),
                    text: format!("`{}` gains the parameter `{}`", short(&p.item), p.text),
                });
            }
            for p in d.removed_params.iter().take(2) {
                contract_evidence.push(Evidence {
                    file: file.to_string(),
                    line: p.line,
                    relation: Relation::Direct,
                    stage: Some(Stage::Trigger),
                    text: format!("`{}` loses the parameter `{}`", short(&p.item), p.text),
                });
            }
            // A dropped check is evidence to review, not a claim: the same decision may
            // live on under another name.
            for c in d.removed_conditions.iter().take(2) {
                contract_evidence.push(Evidence {
                    file: file.to_string(),
                    line: c.line,
                    relation: Relation::Supporting,
                    stage: Some(Stage::Condition),
                    text: format!("removed check `{}`", c.text),
                });
            }
        }
        for (file, e) in removed_elements.iter().take(2) {
            assertions.push(format!(
                "`{}` no longer has the entry {}",
                short(&e.item),
                e.text
            ));
            contract_evidence.push(element_evidence(file, e, "loses"));
        }
        contract_evidence.extend(
            added_elements
                .iter()
                .take(4)
                .map(|(file, e)| element_evidence(file, e, "gains")),
        );
        let mut located_proof = !assertions.is_empty();
        // What a deleted test expected is what held before; no line says what holds now.
        let mut deleted_gap = None;
        if let Some((file, dt)) = deleted {
            let title = &dt.test.title;
            for (e, written) in dt.test.expects.iter().zip(&dt.written).take(3) {
                assertions.push(format!(
                    "The deleted test `{title}` expected {}: check what the same call gives after this change, and that the difference is intended",
                    e.text
                ));
                contract_evidence.push(Evidence {
                    file: file.to_string(),
                    line: dt.line,
                    relation: Relation::Supporting,
                    stage: Some(Stage::ObservableOutcome),
                    text: format!("deleted: {written}"),
                });
            }
            if !located_proof {
                deleted_gap = Some(
                    "What the deleted test expected held before this change; no changed line says what holds now: state it.".to_string(),
                );
                located_proof = true;
            }
        }
        // Changed tests whose checks carry no value the reader takes (a constant, a
        // computed status) still say where the change is tested: cited where it wrote in
        // them, beside the product lines that give the outcome.
        if located_proof && oracle.is_empty() {
            contract_evidence.extend(
                self.running_tests()
                    .into_iter()
                    .take(3)
                    .filter_map(|c| self.changed_here(c)),
            );
        }
        if !located_proof && !d.contracts.is_empty() {
            // A changed test of this intent states the outcome the product lines do not.
            for c in d.contracts.iter().take(3) {
                assertions.push(format!("Changed test passes: {}", c.title));
                contract_evidence.push(Evidence {
                    file: c.file.clone(),
                    line: self.test_line(c),
                    relation: Relation::Supporting,
                    stage: Some(Stage::ObservableOutcome),
                    text: c.title.clone(),
                });
            }
            located_proof = true;
        }
        // The tests a product file holds that the change wrote (a `#[cfg(test)]` module)
        // say where it is tested, when no quoted test cites that file: cited as test code,
        // never as the product's outcome.
        let uncited = self.first_test_code_line(|file| {
            !contract_evidence
                .iter()
                .any(|e| e.file == file && self.is_test_code(file, e.line))
        });
        contract_evidence.extend(uncited.map(|(file, line)| Evidence {
            file: file.to_string(),
            line,
            relation: Relation::Supporting,
            stage: None,
            text: "test code changed here".to_string(),
        }));
        // Team policy states outcomes the diff cannot show: assertions, never proof.
        let policy = &self.intent;
        assertions.extend(
            policy
                .expected
                .iter()
                .map(|e| format!("Expected by team policy: {e}")),
        );
        assertions.extend(
            policy
                .forbidden
                .iter()
                .map(|f| format!("Never (team policy): {f}")),
        );
        let mut evidence: Vec<Evidence> = outcomes
            .iter()
            .chain(durable.iter())
            .map(|f| self.evidence(f, Relation::Direct))
            .collect();
        evidence.extend(
            triggers
                .iter()
                .chain(conditions.iter())
                .chain(actions.iter())
                .chain(effects.iter())
                .chain(states.iter().filter(|s| !durable.contains(s)))
                .map(|f| self.evidence(f, Relation::Supporting)),
        );
        evidence.extend(contract_evidence);
        let proof_gap = if !located_proof {
            Some(if errors.is_empty() {
                format!("No changed line shows what a user sees or what is stored after \"{}\"; a reviewer must state the expected outcome.", d.title)
            } else {
                "Only the failure path is located; no changed line shows the successful outcome."
                    .to_string()
            })
        } else {
            deleted_gap
        };
        let proof_gap = with_skipped_tests(proof_gap, &d.contracts);
        let proof_gap = with_removed_tests(proof_gap, self.removed_tests());
        self.scenario(
            d.title.clone(),
            ScenarioKind::Primary,
            Focus::Product,
            steps,
            assertions,
            evidence,
            proof_gap,
        )
    }
}

/// Set-up and call of a test the change deletes, in words, as it stood at base.
fn deleted_steps(file: &str, dt: &DeletedTest) -> Vec<String> {
    let title = &dt.test.title;
    let mut steps = vec![match &dt.test.setup {
        Some(setup) => format!(
            "Set up as the deleted test `{title}` did ({file}, before this change): {setup}"
        ),
        None => {
            format!("Set up the case the deleted test `{title}` built ({file}, before this change)")
        }
    }];
    if let Some(call) = &dt.test.act {
        steps.push(format!("Call `{call}` as that test did"));
    }
    steps
}

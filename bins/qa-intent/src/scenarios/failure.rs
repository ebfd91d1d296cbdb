//! Failure scenarios: a located error with the condition that leads to it, an error exit
//! the trees see as new, and a panic or throw the change removed.

use super::*;

impl Ctx<'_> {
    pub(super) fn failures(
        &self,
        f: &ProductFacts,
        oracle: &[(&TestContract, &Expected)],
        out: &mut Vec<Scenario>,
    ) {
        let ProductFacts {
            triggers,
            conditions,
            errors,
            ..
        } = f;
        // Failure: a located error outcome, with the condition that leads to it.
        let mut seen = Vec::new();
        for e in errors.iter() {
            if seen.len() >= MAX_EDGE || seen.contains(&e.text) {
                continue;
            }
            seen.push(e.text.clone());
            // The guard is the condition whose block holds the error (the trees know the
            // block; without them, the nearest condition up to three lines above).
            let spans = self
                .intent
                .deltas
                .get(&e.at.file)
                .map(|d| &d.condition_spans);
            let guard = conditions
                .iter()
                .filter(|c| {
                    c.at.file == e.at.file && c.at.line <= e.at.line && e.at.line - c.at.line <= 3
                })
                .filter(|c| {
                    spans.is_none_or(|spans| {
                        spans
                            .iter()
                            .any(|&(line, end)| line == c.at.line && e.at.line <= end)
                    })
                })
                .max_by_key(|c| c.at.line);
            let title = match guard {
                Some(c) => format!("Failure: {} when {}", e.text, c.text),
                None => format!("Failure: {}", e.text),
            };
            let mut steps = Vec::new();
            if let Some(c) = guard {
                steps.push(given_step(&c.text));
            }
            steps.extend(triggers.iter().take(1).map(|t| trigger_step(&t.text)));
            if steps.is_empty() {
                // Never a failure without a way in: at least reach the located error.
                steps.push(format!("Reach the error at {}:{}", e.at.file, e.at.line));
            }
            let mut evidence = vec![self.evidence(e, Relation::Direct)];
            evidence.extend(guard.map(|c| self.evidence(c, Relation::Supporting)));
            let mut assertions = vec![format!("The user or caller gets: {}", e.text)];
            self.failing_tests(oracle, &e.at.file, &mut assertions, &mut evidence);
            out.push(self.scenario(
                title,
                ScenarioKind::Failure,
                Focus::Product,
                steps,
                assertions,
                evidence,
                None,
            ));
        }

        // Failure: an error exit the trees see as new where no error line was read (a
        // message on the next line, `bail!(` then its text).
        for (file, at, kind) in self.added_exits() {
            if seen.len() >= MAX_EDGE
                || errors
                    .iter()
                    .any(|e| e.at.file == file && e.at.line.abs_diff(at.line) <= 3)
            {
                continue;
            }
            seen.push(at.text.clone());
            let item = if at.item.is_empty() {
                file
            } else {
                short(&at.item)
            };
            let mut assertions = vec![format!("The caller gets `{}`", at.text)];
            let mut evidence = vec![Evidence {
                file: file.to_string(),
                line: at.line,
                relation: Relation::Direct,
                stage: Some(Stage::ObservableOutcome),
                text: at.text.clone(),
            }];
            self.failing_tests(oracle, file, &mut assertions, &mut evidence);
            out.push(self.scenario(
                format!("Failure: `{item}` ends in `{}`", at.text),
                ScenarioKind::Failure,
                Focus::Product,
                vec![format!(
                    "Reach `{item}` ({file}:{}) on the path that ends in the new {}",
                    at.line,
                    exit_noun(kind)
                )],
                assertions,
                evidence,
                None,
            ));
        }

        // Failure fixed: a panic, throw or unwrap the change removed from a product item.
        out.extend(self.removed_exits(oracle));
    }

    /// The changed tests' expectations of a failure (`is_err()`, `toThrow`, `raises`,
    /// `assert_err`, a panic), added to a failure scenario with their evidence.
    /// Only tests that call into the failing file speak for its failure.
    fn failing_tests(
        &self,
        oracle: &[(&TestContract, &Expected)],
        file: &str,
        assertions: &mut Vec<String>,
        evidence: &mut Vec<Evidence>,
    ) {
        const FAILING: &[&str] = &[
            "is_err",
            "throws",
            "raises ",
            "assert_err",
            "panics",
            "Err(",
            "rejects",
        ];
        let failing = oracle.iter().filter(|(c, e)| {
            c.exercises.iter().any(|x| x.file == file) && FAILING.iter().any(|m| e.text.contains(m))
        });
        for (c, e) in failing.take(2) {
            assertions.push(format!("Test `{}` expects {}", test_name(c), e.text));
            evidence.push(self.expected_evidence(c, e));
        }
    }

    /// A failure scenario per panic, throw or unwrap a product item lost: the path that
    /// ended in it must now complete, as the changed tests that call the item expect.
    pub(super) fn removed_exits(&self, oracle: &[(&TestContract, &Expected)]) -> Vec<Scenario> {
        let mut out = Vec::new();
        for (file, d) in self.product_deltas() {
            for (at, kind) in &d.removed_exits {
                // An error value counts when it says something (`bail!("...")`), not
                // when it passes one on (`Err(e)`).
                if out.len() >= MAX_EDGE
                    || *kind == ExitKind::Error && !at.text.contains(['"', '\''])
                {
                    continue;
                }
                let item = if at.item.is_empty() {
                    file.to_string()
                } else {
                    short(&at.item).to_string()
                };
                let verb = match kind {
                    ExitKind::Throw => "throws",
                    ExitKind::Error => "fails",
                    _ => "panics",
                };
                // The tests that call this item speak for it; else every changed test.
                let calling: Vec<&(&TestContract, &Expected)> = oracle
                    .iter()
                    .filter(|(c, _)| c.exercises.iter().any(|x| x.item == at.item))
                    .collect();
                // Else the tests that call no changed item at all (they drive the product
                // from outside); a test of another item never speaks for this one.
                let speaking: Vec<&(&TestContract, &Expected)> = if calling.is_empty() {
                    oracle
                        .iter()
                        .filter(|(c, _)| c.exercises.is_empty())
                        .collect()
                } else {
                    calling
                };
                let mut assertions = vec![format!(
                    "`{item}` completes instead of ending in `{}`",
                    at.text
                )];
                let mut evidence = vec![Evidence {
                    file: file.to_string(),
                    line: at.line,
                    relation: Relation::Direct,
                    stage: Some(Stage::ObservableOutcome),
                    text: format!("removed from `{item}`: {}", at.text),
                }];
                for (c, e) in speaking.iter().take(2) {
                    assertions.push(format!("Test `{}` expects {}", test_name(c), e.text));
                    evidence.push(self.expected_evidence(c, e));
                }
                let gap = speaking.is_empty().then(|| {
                    format!("No changed test shows what `{item}` returns now that it no longer {verb}; state the expected result.")
                });
                out.push(self.scenario(
                    format!("`{item}` no longer {verb} (`{}` removed)", at.text),
                    ScenarioKind::Failure,
                    Focus::Product,
                    vec![
                        format!(
                            "Reach `{item}` ({file}:{}) with the input that used to end in `{}`",
                            at.line, at.text
                        ),
                        "Let the call run to its end and record what it returns".to_string(),
                    ],
                    assertions,
                    evidence,
                    gap,
                ));
            }
        }
        out
    }
}

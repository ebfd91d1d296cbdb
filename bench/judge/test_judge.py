"""The judge's scoring functions on small planted inputs, each with a positive and a negative control."""

import os
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import routes  # noqa: E402
import scoring  # noqa: E402
import selection  # noqa: E402
import tables  # noqa: E402


def added(path, *lines):
    """Diff rows of lines added at 1.. to path."""
    return [(path, "+", n, text) for n, text in enumerate(lines, 1)]


def scenario(steps=(), assertions=(), title="t", proof_gap=None, evidence=()):
    return {"title": title, "steps": list(steps), "assertions": list(assertions),
            "proof_gap": proof_gap, "evidence": list(evidence)}


class Expectations(unittest.TestCase):
    def test_the_matcher_argument_is_the_expected_value_not_the_actual(self):
        lits = scoring.expectation_literals(added("a.test.ts", 'expect(parse("input-x")).toBe("out-y")'))
        self.assertIn("out-y", lits)
        self.assertNotIn("input-x", lits)

    def test_a_go_failure_message_is_no_expectation(self):
        lits = scoring.expectation_literals(added("a_test.go", 'if got != "abc" { t.Error("wrong value") }',
                                                  '\twant := "colour"'))
        self.assertEqual(lits, ["abc", "colour"])

    def test_parametrize_rows_added_are_expectations(self):
        lits = scoring.expectation_literals(added(
            "test_a.py", '@pytest.mark.parametrize("raw, want", [', '    ("a b", "a-b"),',
            '    ("x", "y"),', '])', 'def test_slug(raw, want):'))
        self.assertIn("a-b", lits)
        self.assertNotIn("test_slug", lits)

    def test_a_table_written_on_one_line_leaves_the_assertions_after_it_read(self):
        lits = scoring.expectation_literals(added(
            "a_test.go", 'equal := map[string]struct{}{"cluster": {}}',
            'require.Equal(t, "my-rule", proto.Name)'))
        self.assertEqual(lits, ["cluster", "my-rule"])
        # Control: a table left open keeps reading its rows, not assertions.
        lits = scoring.expectation_literals(added(
            "a_test.go", 'tests := []struct{ in, want string }{', '{"a", "b"},',
            'run(t, "not-a-row")', '}'))
        self.assertEqual(lits, ["a", "b"])

    def test_an_each_template_stays_a_table_until_its_backtick(self):
        lits = scoring.expectation_literals(added(
            "a.test.ts", "test.each`", '  ["x", "y"],', "`('%s', ({ a, want }) => {"))
        self.assertEqual(lits, ["x", "y"])

    def test_a_message_call_named_only_inside_a_string_is_an_expected_value(self):
        lits = scoring.expectation_literals(added("a.test.ts", 'expect(out).toBe("console.log(1)");'))
        self.assertEqual(lits, ["console.log(1)"])
        # Control: a real message call still leaves its message out.
        lits = scoring.expectation_literals(added("a_test.go", 'if got != "x" { t.Errorf("got %v", got) }'))
        self.assertEqual(lits, ["x"])

    def test_an_import_of_the_assertion_library_gives_nothing(self):
        self.assertEqual(scoring.expectation_literals(added("a.test.ts", 'import { expect, test } from "vitest";')), [])

    def test_a_call_to_a_helper_that_asserts_is_an_assertion_call(self):
        helpers = scoring.assertion_helpers([
            "fn case(s: &str) {\n  Test::new().stdout(s).run();\n}\n"
            "fn setup(s: &str) {\n  let x = s;\n}\n"])
        self.assertEqual(helpers, {"case"})
        lits = scoring.expectation_literals(added("tests/a.rs", 'case("f{{a}}");', 'setup("input");'), helpers)
        self.assertEqual(lits, ["f{{a}}"])

    def test_the_definition_of_a_helper_is_no_call_to_it(self):
        rows = added("tests/test_a.py", 'def same_slug(s="default"):', '    assert s == "output"')
        self.assertEqual(scoring.expectation_literals(rows, {"same_slug"}), ["output"])

    def test_a_block_opened_by_an_assertion_line_does_not_continue_it(self):
        rows = added("a_test.go", "if got == 1 {", '\tsetup("input")', "}")
        self.assertEqual(scoring.expectation_literals(rows), ["1"])

    def test_a_line_outside_an_assertion_gives_nothing(self):
        self.assertEqual(scoring.expectation_literals(added("t.py", 'client = make("setup-value")')), [])

    def test_booleans_and_none_are_literals(self):
        self.assertEqual(scoring.expectation_literals(added("t.py", "assert opts.flag is True")), ["True"])


class Quotes(unittest.TestCase):
    def test_a_step_holding_the_expected_value_quotes_it(self):
        hits = scoring.quotes([scenario(steps=["Run `tool --x`: it prints `out-y`"])], ["out-y"])
        self.assertEqual(hits, [(0, "out-y")])

    def test_a_step_without_the_value_does_not_quote_it(self):
        self.assertEqual(scoring.quotes([scenario(steps=["Run the tool: it prints the result"])], ["out-y"]), [])

    def test_a_literal_inside_a_longer_word_is_no_quote(self):
        self.assertEqual(scoring.quotes([scenario(steps=["It returns 1000"])], ["100"]), [])

    def test_a_short_literal_counts_only_as_a_backticked_token(self):
        self.assertTrue(scoring.quotes([scenario(assertions=["It returns `0`"])], ["0"]))
        self.assertFalse(scoring.quotes([scenario(assertions=["It returns 0 items"])], ["0"]))

    def test_a_single_word_counts_only_inside_code_or_quotes(self):
        self.assertTrue(scoring.quotes([scenario(assertions=['`c.Scheme()` equals "first"'])], ["first"]))
        self.assertFalse(scoring.quotes([scenario(steps=["Do what test `t` does first"])], ["first"]))

    def test_a_boolean_or_null_counts_as_a_whole_word(self):
        self.assertTrue(scoring.quotes([scenario(assertions=["`err` is nil"])], ["nil"]))
        self.assertFalse(scoring.quotes([scenario(assertions=["It returns a nilable error"])], ["nil"]))

    def test_a_miss_says_when_the_assertions_only_name_the_test(self):
        named = [scenario(assertions=["Changed test passes: parse", "Test `parse` passes"])]
        valued = [scenario(assertions=["Test `parse` expects `x` is \"other\""])]
        self.assertEqual(scoring.quote_miss(named, ["out-y"]), "assertions only name the changed test")
        self.assertTrue(scoring.quote_miss(valued, ["out-y"]).startswith("an expectation with another value"))

    def test_a_changed_test_passes_assertion_is_no_quote(self):
        self.assertEqual(scoring.quotes([scenario(assertions=["Changed test passes: out-y"])], ["out-y"]), [])


class Cites(unittest.TestCase):
    def test_evidence_on_an_added_test_line_cites_it(self):
        sc = scenario(evidence=[{"file": "t.py", "line": 3}])
        self.assertEqual(scoring.cites([sc], {"t.py": {3}}), [(0, "t.py:3")])

    def test_evidence_on_an_unchanged_line_does_not(self):
        sc = scenario(evidence=[{"file": "t.py", "line": 4}, {"file": "src/a.py", "line": 3}])
        self.assertEqual(scoring.cites([sc], {"t.py": {3}}), [])

    def test_evidence_quoting_a_deleted_line_at_its_hunk_cites_it(self):
        deleted = {"t.js": {12: {".expect(201, done)", "})"}}}
        sc = scenario(evidence=[{"file": "t.js", "line": 12, "text": "deleted: .expect(201, done)"}])
        self.assertEqual(scoring.cites([sc], {}, deleted), [(0, "t.js:12 (deleted)")])

    def test_evidence_quoting_a_deleted_line_at_the_line_after_its_gap_cites_it(self):
        deleted = {"t.js": {12: {".expect(201, done)"}}}
        sc = scenario(evidence=[{"file": "t.js", "line": 13, "text": "removed here: .expect(201, done)"}])
        self.assertEqual(scoring.cites([sc], {}, deleted), [(0, "t.js:13 (deleted)")])

    def test_a_deleted_line_elsewhere_or_unquoted_or_too_short_does_not(self):
        deleted = {"t.js": {12: {".expect(201, done)", "})"}}}
        for ev in ({"file": "t.js", "line": 14, "text": ".expect(201, done)"},
                   {"file": "t.js", "line": 11, "text": ".expect(201, done)"},
                   {"file": "t.js", "line": 12, "text": "test `a` changed here"},
                   {"file": "t.js", "line": 12, "text": "deleted: })"}):
            self.assertEqual(scoring.cites([scenario(evidence=[ev])], {}, deleted), [], ev)


class FalseRemoved(unittest.TestCase):
    BEFORE = ["fn f(x: u8) {\n    match x {\n        _ => unreachable!(\"no\"),\n    }\n}\n"]

    def test_a_removed_claim_whose_code_moved_is_false(self):
        after = ["fn f(x: u8) {\n    g(x)\n}\nfn g(x: u8) {\n    match x {\n        _ => unreachable!(\"no\"),\n    }\n}\n"]
        sc = scenario(title="`f` no longer panics (`unreachable!(...)` removed)")
        hits = scoring.false_removed([sc], self.BEFORE, after)
        self.assertEqual([code for _, code, _ in hits], ["unreachable!(...)"])

    def test_a_removed_claim_whose_code_is_gone_is_true(self):
        after = ["fn f(x: u8) {\n    let _ = x;\n}\n"]
        sc = scenario(title="`f` no longer panics (`unreachable!(...)` removed)")
        self.assertEqual(scoring.false_removed([sc], self.BEFORE, after), [])

    def test_a_removed_claim_whose_code_went_from_one_of_two_places_is_true(self):
        before = [self.BEFORE[0] + "fn h() { unreachable!(\"no\") }\n"]
        after = ["fn f(x: u8) {}\nfn h() { unreachable!(\"no\") }\n"]
        sc = scenario(title="`f` no longer panics (`unreachable!(...)` removed)")
        self.assertEqual(scoring.false_removed([sc], before, after), [])

    def test_the_subject_before_no_longer_is_not_the_removed_code(self):
        self.assertEqual(scoring.removed_code("`f` no longer panics"), [])
        self.assertEqual(scoring.removed_code("`f` no longer calls `g()`"), ["g()"])

    def test_an_entry_no_longer_held_is_checked_as_its_string(self):
        sc = scenario(title='`m` no longer has the entry "bash": load("b")')
        self.assertEqual(scoring.removed_code(sc["title"]), ['"bash": load("b")'])
        moved = scoring.false_removed([sc], ['m = {"bash": load("b")}'], ['m = {}', 'n = {"bash":  load("b")}'])
        gone = scoring.false_removed([sc], ['m = {"bash": load("b")}'], ['m = {"bash": other()}'])
        self.assertEqual((len(moved), len(gone)), (1, 0))
        self.assertEqual(scoring.removed_code("`M` no longer has the entry httpcore.X: X"), ["httpcore.X: X"])

    def test_a_number_locates_no_code(self):
        self.assertEqual(scoring.removed_code("`as_bytes` no longer has the entry 3"), [])
        self.assertEqual(scoring.removed_code("`as_bytes` no longer has the entry \"utc\""), ['"utc"'])


class Steps(unittest.TestCase):
    def test_a_bare_identifier_is_a_bad_step(self):
        self.assertTrue(scoring.bad_step("Given: `memo`"))

    def test_a_sentence_is_a_good_step(self):
        self.assertFalse(scoring.bad_step("Run `fd -e rs` in a folder holding `a.rs`"))

    def test_a_code_condition_to_arrange_is_a_bad_step(self):
        self.assertTrue(scoring.bad_step("Arrange that `self.outputs.is_empty() && !self.null_separator` holds"))

    def test_arranging_that_a_variable_holds_is_a_code_condition(self):
        self.assertTrue(scoring.code_condition("Arrange that `ok` holds (args.go:72)"))
        self.assertFalse(scoring.code_condition("Pass `ok` as the second argument (args.go:72)"))

    def test_a_sentence_with_code_in_it_is_no_code_condition(self):
        self.assertFalse(scoring.code_condition("Set the router option `strict` to `true` and request `/a/`"))


class Classification(unittest.TestCase):
    def test_test_files_by_path(self):
        for path in ("core/src/test/java/a/FooTest.java", "lib/src/main/kotlin/BarTests.kt",
                     "okhttp/src/jvmTest/kotlin/A.kt", "app/tests.py", "pkg/a_test.go",
                     "src/a.spec.ts", "test/x.js"):
            self.assertTrue(selection.is_test_path(path), path)

    def test_product_files_are_not_tests(self):
        for path in ("core/src/main/java/a/Foo.java", "src/Contest.vue", "app/views.py",
                     "src/latest.ts", "pkg/attest.go"):
            self.assertFalse(selection.is_test_path(path), path)
            self.assertTrue(selection.is_product(path), path)


class Halves(unittest.TestCase):
    SELECTION = {"with_test": 20, "without_test": 5, "tune_with_test": 10, "tune_without_test": 2}

    def test_the_halves_share_no_commit(self):
        taken = {h: selection.halves(self.SELECTION, h)
                 for h in ("tune", "report", "holdout", "fresh", "fresh2")}
        for group in (0, 1):
            seen = [n for h in taken for n in taken[h][group]]
            self.assertEqual(len(seen), len(set(seen)), group)

    def test_the_holdout_is_older_than_the_reporting_half(self):
        w, n = selection.halves(self.SELECTION, "holdout")
        self.assertEqual((list(w), list(n)), (list(range(21, 31)), [6, 7]))

    def test_the_fresh_half_is_as_large_as_the_reporting_half_and_older_than_the_holdout(self):
        w, n = selection.halves(self.SELECTION, "fresh")
        self.assertEqual((list(w), list(n)), (list(range(31, 41)), [8, 9, 10]))

    def test_the_second_fresh_half_is_as_large_as_the_tuning_half_and_older_than_the_fresh_half(self):
        w, n = selection.halves(self.SELECTION, "fresh2")
        self.assertEqual((list(w), list(n)), (list(range(41, 51)), [11, 12]))


class Routes(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.work = self.tmp.name
        os.makedirs(os.path.join(self.work, "tests"))
        with open(os.path.join(self.work, "tests", "test_a.py"), "w") as fh:
            fh.write("class TestA:\n    def test_one(self):\n        assert 1\n")
        os.makedirs(os.path.join(self.work, "pkg"))
        with open(os.path.join(self.work, "pkg", "a_test.go"), "w") as fh:
            fh.write("package pkg\n\nfunc TestParse(t *testing.T) {}\n")

    def tearDown(self):
        self.tmp.cleanup()

    def cmd(self, run, runner):
        return {"run": run, "runner": runner, "dir": "."}

    def test_a_pytest_node_id_that_exists_is_valid(self):
        self.assertIsNone(routes.validate(self.work, "c", self.cmd("pytest tests/test_a.py::TestA::test_one", "pytest")))

    def test_a_pytest_node_id_naming_a_missing_test_is_not(self):
        why = routes.validate(self.work, "c", self.cmd("pytest tests/test_a.py::test_two", "pytest"))
        self.assertIn("test_two is not defined", why)
        why = routes.validate(self.work, "c", self.cmd("pytest tests/test_b.py", "pytest"))
        self.assertIn("does not exist", why)

    def test_a_go_run_pattern_of_existing_tests_is_valid(self):
        self.assertIsNone(routes.validate(self.work, "c", self.cmd("go test ./pkg -run '^(TestParse)$'", "go")))

    def test_a_go_command_behind_an_environment_setting_is_read_past_it(self):
        ok = self.cmd("GO111MODULE=off go test ./pkg -run '^TestParse$'", "go")
        gone = self.cmd("GO111MODULE=off go test ./pkg -run '^TestGone$'", "go")
        self.assertIsNone(routes.validate(self.work, "c", ok))
        self.assertIn("TestGone", routes.validate(self.work, "c", gone))

    def test_a_go_run_pattern_naming_a_missing_test_is_not(self):
        why = routes.validate(self.work, "c", self.cmd("go test ./pkg -run '^(TestParse|TestGone)$'", "go"))
        self.assertIn("TestGone", why)

    def write(self, rel, text):
        os.makedirs(os.path.dirname(os.path.join(self.work, rel)), exist_ok=True)
        with open(os.path.join(self.work, rel), "w") as fh:
            fh.write(text)

    def test_a_vitest_name_filter_matching_a_title_is_valid(self):
        self.write("package.json", '{"devDependencies": {"vitest": "1"}}')
        self.write("a.test.ts", "describe('parse', () => { it('keeps the prefix', () => {}) })")
        ok = self.cmd("pnpm exec vitest run a.test.ts -t 'parse keeps the prefix'", "pnpm")
        bad = self.cmd("pnpm exec vitest run a.test.ts -t 'drops the prefix'", "pnpm")
        self.assertIsNone(routes.validate(self.work, "c", ok))
        self.assertIn("matches no test title", routes.validate(self.work, "c", bad))

    def test_a_name_filter_with_a_slash_is_a_title_not_a_file(self):
        self.write("package.json", '{"devDependencies": {"vitest": "1"}}')
        self.write("a.test.ts", "it('uses the Array/Set model type', () => {})")
        ok = self.cmd("pnpm exec vitest run a.test.ts -t 'uses the Array/Set model type'", "pnpm")
        gone = self.cmd("pnpm exec vitest run b/a.test.ts -t 'uses the Array/Set model type'", "pnpm")
        self.assertIsNone(routes.validate(self.work, "c", ok))
        self.assertIn("b/a.test.ts does not exist", routes.validate(self.work, "c", gone))

    def test_a_gradle_test_task_of_a_multiplatform_module_is_invalid(self):
        self.write("lib/build.gradle.kts", 'plugins {\n  kotlin("jvm")\n}\n')
        self.write("lib/src/test/kotlin/ATest.kt", "class ATest")
        self.write("mpp/build.gradle.kts", 'plugins {\n  kotlin("multiplatform")\n}\n')
        self.write("mpp/src/jvmTest/kotlin/BTest.kt", "class BTest")
        self.assertIsNone(routes.validate(self.work, "c", self.cmd("./gradlew :lib:test --tests ATest", "./gradlew")))
        why = routes.validate(self.work, "c", self.cmd("./gradlew :mpp:test --tests BTest", "./gradlew"))
        self.assertIn("multiplatform", why)

    def cargo_package(self, exec_body):
        """A real Cargo package `demo`: a library with module exec, and test target cli."""
        self.write("Cargo.toml", '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n')
        self.write("src/lib.rs", "mod exec;\n")
        self.write("src/exec/mod.rs", exec_body)
        self.write("tests/cli.rs", "#[test]\nfn cli() {}\n")

    def test_a_cargo_test_target_and_lib_module_that_exist_are_valid(self):
        self.cargo_package("#[cfg(test)]\nmod tests {\n    #[test]\n    fn runs() {}\n}\n")
        self.assertIsNone(routes.validate(self.work, "c1", self.cmd("cargo test -p demo --test cli", "cargo")))
        self.assertIsNone(routes.validate(self.work, "c1", self.cmd("cargo test -p demo --lib exec::tests::runs", "cargo")))

    def test_a_cargo_command_naming_a_missing_package_target_or_module_is_not(self):
        self.cargo_package("fn f() {}\n")
        for run, why in (("cargo test -p other --test cli", "no package other"),
                         ("cargo test -p demo --test gone", "no test target gone"),
                         ("cargo test -p demo --lib parse::tests", "names no module")):
            self.assertIn(why, routes.validate(self.work, "c2", self.cmd(run, "cargo")))

    MACRO_TESTS = ("#[cfg(test)]\nmod parsing {\n    macro_rules! cases {\n        ($($name:ident: $v:expr,)*) => {\n"
                   "            $(#[test] fn $name() { assert!($v.len() < 9); })*\n        };\n    }\n"
                   "    cases! {\n        empty: \"\",\n        one: \"1\",\n    }\n}\n")

    def test_a_cargo_filter_naming_a_test_a_macro_defines_is_valid(self):
        self.cargo_package(self.MACRO_TESTS)
        self.assertIsNone(routes.validate(self.work, "c3", self.cmd("cargo test -p demo --lib exec::parsing::empty", "cargo")))

    def test_a_cargo_filter_naming_no_key_of_the_macro_is_not(self):
        self.cargo_package(self.MACRO_TESTS)
        why = routes.validate(self.work, "c4", self.cmd("cargo test -p demo --lib exec::parsing::absent", "cargo"))
        self.assertIn("names no module", why)
        # Control: the same key in a file with no macro defining functions is no test.
        self.cargo_package("mod parsing {\n    const T: &[(&str, &str)] = &[\n        empty: \"\",\n    ];\n}\n")
        why = routes.validate(self.work, "c5", self.cmd("cargo test -p demo --lib exec::parsing::empty", "cargo"))
        self.assertIn("names no module", why)

    def test_a_command_naming_the_test_file_names_it(self):
        self.assertTrue(routes.names_test(self.cmd("pytest tests/test_a.py", "pytest"), {"tests/test_a.py"}, set()))

    def test_a_whole_suite_command_does_not_name_it(self):
        self.assertIsNone(routes.names_test(self.cmd("pytest", "pytest"), {"tests/test_a.py"}, {"test_one"}))
        self.assertIsNone(routes.names_test(self.cmd("go test ./...", "go"), {"a_test.go"}, set()))

    def test_a_go_package_pattern_of_the_tests_folder_names_it(self):
        self.assertTrue(routes.names_test(self.cmd("go test ./pkg/...", "go"), {"pkg/a_test.go"}, set()))
        self.assertIsNone(routes.names_test(self.cmd("go test ./other/...", "go"), {"pkg/a_test.go"}, set()))

    def test_a_cargo_filter_below_the_changed_files_module_names_it(self):
        cmd = self.cmd("cargo test -p fd --bin fd exec::tests::", "cargo")
        self.assertIn("module exec", routes.names_test(cmd, {"src/exec/mod.rs"}, set()))
        self.assertIsNone(routes.names_test(cmd, {"src/exec/token.rs"}, {"tests"}))

    def test_the_names_of_the_changed_tests_come_from_the_file(self):
        names = routes.test_names(self.work, {"tests/test_a.py"}, {"tests/test_a.py": {3}})
        self.assertEqual(names, {"TestA", "test_one"})


class Sheet(unittest.TestCase):
    def test_a_value_with_a_carriage_return_stays_on_its_row(self):
        text = tables.sheet([{"repo": "a", "literals": ['"ECHO is on."\r', "x\ty"]}])
        self.assertEqual(len(text.splitlines()), 2)
        self.assertEqual(len(text.splitlines()[1].split("\t")), len(tables.SHEET))


class Tables(unittest.TestCase):
    def row(self, **kw):
        base = {"group": "with-test", "quotable": True, "quotes": True, "routed": True, "cites": True,
                "zero": False, "false_removed": 0, "steps": 10, "bare_steps": 0,
                "stage_failures": [], "wall_s": 1.0}
        return dict(base, **kw)

    def test_a_missed_target_is_marked(self):
        total = tables.aggregate([self.row(routed=False), self.row()])
        self.assertIn("MISS", tables.cell("cited+routed %", total["cited+routed %"], dict(total, _judge=True)))

    def test_a_commit_counts_as_cited_and_routed_only_when_both_hold(self):
        total = tables.aggregate([self.row(), self.row(cites=False), self.row(routed=False),
                                  self.row(cites=False, routed=False)])
        self.assertEqual((total["cites %"], total["routed %"], total["cited+routed %"]), (50.0, 50.0, 25.0))

    def test_commits_without_a_test_are_not_counted_in_cited_and_routed(self):
        total = tables.aggregate([self.row(), self.row(group="without-test", cites=False, routed=False)])
        self.assertEqual(total["cited+routed %"], 100.0)

    def test_the_target_is_on_cited_and_routed_not_on_routed_alone(self):
        # Every commit routed, half of them cited: routed alone would meet the bar.
        total = tables.aggregate([self.row(), self.row(cites=False)])
        judged = dict(total, _judge=True)
        self.assertNotIn("MISS", tables.cell("routed %", total["routed %"], judged))
        self.assertNotIn("MISS", tables.cell("cites %", total["cites %"], judged))
        self.assertIn("MISS", tables.cell("cited+routed %", total["cited+routed %"], judged))

    def test_an_ecosystem_row_of_the_total_is_judged_against_80_percent(self):
        rows = [dict(self.row(cites=i < 17), ecosystem="go-lib", repo="a") for i in range(20)] + \
            [dict(self.row(routed=i < 15), ecosystem="jvm", repo="b") for i in range(20)]
        text = tables.summary("tune", {"go-lib": "Go", "jvm": "JVM"}, [], rows, [])
        total = text.split("### Total")[1]
        self.assertIn("| go-lib | 20 | 20 | 0 | 85 | 100 | 85 |", total)
        self.assertIn("| jvm | 20 | 20 | 0 | 100 | 75 | 75 MISS |", total)

    def test_a_met_target_is_not(self):
        total = tables.aggregate([self.row(), self.row()])
        self.assertNotIn("MISS", tables.cell("cited+routed %", total["cited+routed %"], dict(total, _judge=True)))


class Selection(unittest.TestCase):
    """The selection on a real git repository in a temporary folder."""

    def test_deleted_lines_sit_at_the_head_line_their_hunk_starts_at(self):
        with tempfile.TemporaryDirectory() as repo:
            env = dict(selection.bench_env(), GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@a",
                       GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@a")

            def sh(*args):
                subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, env=env)

            def write(text):
                with open(os.path.join(repo, "t.js"), "w") as fh:
                    fh.write(text)
            sh("init", "-q")
            write("a\nb\nit('x', () => {\n  expect(1).toBe(2)\n})\nc\n")
            sh("add", "."), sh("commit", "-qm", "one")
            write("a\nb\nc\n")
            sh("commit", "-qam", "two")
            sha = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], capture_output=True,
                                 text=True, env=env).stdout.strip()
            got = scoring.deleted_lines(repo, sha, {"t.js"})
            self.assertEqual(got, {"t.js": {2: {"it('x', () => {", "expect(1).toBe(2)", "})"}}})

    def test_a_test_file_renamed_unchanged_is_reported_and_one_renamed_with_an_edit_is_not(self):
        with tempfile.TemporaryDirectory() as repo:
            env = dict(selection.bench_env(), GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@a",
                       GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@a")

            def sh(*args):
                return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                                      text=True, env=env).stdout.strip()
            body = "".join(f"def test_{i}():\n    assert f({i}) == {i * 2}\n" for i in range(12))
            os.makedirs(os.path.join(repo, "tests"))
            with open(os.path.join(repo, "tests", "test_old.py"), "w") as fh:
                fh.write(body)
            sh("init", "-q"), sh("add", "."), sh("commit", "-qm", "one")
            os.makedirs(os.path.join(repo, "tests", "unit"))
            sh("mv", "tests/test_old.py", "tests/unit/test_new.py")
            sh("commit", "-qm", "moved")
            moved = sh("rev-parse", "HEAD")
            self.assertTrue(scoring.tests_renamed_only(repo, moved, {"tests/unit/test_new.py"}))
            sh("mv", "tests/unit/test_new.py", "tests/test_again.py")
            with open(os.path.join(repo, "tests", "test_again.py"), "a") as fh:
                fh.write("def test_new():\n    assert f(100) == 200\n")
            sh("add", "-A"), sh("commit", "-qm", "moved and edited")
            edited = sh("rev-parse", "HEAD")
            self.assertFalse(scoring.tests_renamed_only(repo, edited, {"tests/test_again.py"}))

    def test_commits_are_numbered_newest_first_per_group(self):
        with tempfile.TemporaryDirectory() as repo:
            def sh(*args):
                subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True,
                               env=dict(selection.bench_env(), GIT_AUTHOR_NAME="a", GIT_AUTHOR_EMAIL="a@a",
                                        GIT_COMMITTER_NAME="a", GIT_COMMITTER_EMAIL="a@a"))

            def commit(files, msg):
                for name, text in files.items():
                    os.makedirs(os.path.dirname(os.path.join(repo, name)) or repo, exist_ok=True)
                    with open(os.path.join(repo, name), "w") as fh:
                        fh.write(text)
                sh("add", "-A")
                sh("commit", "-q", "-m", msg)

            sh("init", "-q")
            commit({"README.md": "x"}, "root")
            commit({"src/a.py": "1", "tests/test_a.py": "1"}, "first with test")
            commit({"src/a.py": "2"}, "without test")
            commit({"docs/x.md": "3"}, "docs only")
            commit({"src/a.py": "4", "tests/test_a.py": "4"}, "second with test")
            with_test, without = selection.select(repo, "HEAD", 40, 5, 5)
            self.assertEqual([(c.number, c.subject) for c in with_test],
                             [(1, "second with test"), (2, "first with test")])
            self.assertEqual([c.subject for c in without], ["without test"])


if __name__ == "__main__":
    unittest.main()

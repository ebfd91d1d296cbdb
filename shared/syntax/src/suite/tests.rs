use super::*;
use crate::{parse, Grammar};

/// The tests of `text`, read as a stage reads a whole file: only when it has a test marker.
fn tests_of(g: Grammar, text: &str, macros: &[&str]) -> Vec<Test> {
    let macros: Vec<String> = macros.iter().map(|m| m.to_string()).collect();
    let tree = parse(g, text).expect("parsed");
    if !may_define_tests(g, text, &macros) {
        return Vec::new();
    }
    tests(g, tree.root_node(), text, &macros, None)
}

fn expects(t: &Test) -> Vec<&str> {
    t.expects.iter().map(|e| e.text.as_str()).collect()
}

#[test]
fn rust_tests_are_functions_with_an_attribute_ending_in_test() {
    let t = tests_of(
        Grammar::Rust,
        "#[test]\nfn a() { assert_eq!(sum(1, 2), 3); }\n#[tokio::test]\nasync fn b() {}\nfn helper() { assert_eq!(1, 1); }\n",
        &[],
    );
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert_eq!(expects(&t[0]), ["`sum(1, 2)` is 3"]);
    assert_eq!(t[0].calls, ["sum"]);
}

#[test]
fn an_ignored_rust_test_is_skipped_and_a_plain_one_is_not() {
    let t = tests_of(
        Grammar::Rust,
        "#[test]\n#[ignore]\nfn a() {}\n#[test]\nfn b() {}\n",
        &[],
    );
    assert_eq!(t[0].skipped.as_deref(), Some("#[ignore]"));
    assert_eq!(t[1].skipped, None);
}

#[test]
fn repository_test_macros_define_tests_with_let_bound_expectations() {
    let src = "rgtest!(r1234, |dir: Dir, mut cmd: TestCommand| {\n    dir.create(\"a\", \"x\");\n    let expected = \"\\\nsub/b\nsub/a\n\";\n    eqnice!(expected, cmd.arg(\"--sortr=path\").stdout());\n});\n";
    let t = tests_of(Grammar::Rust, src, &["rgtest"]);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].name, "r1234");
    assert_eq!(
        expects(&t[0]),
        ["`cmd.arg(\"--sortr=path\").stdout()` is \"sub/b\\nsub/a\\n\""]
    );
    // The same invocation is no test when the repository defines no such macro.
    assert!(tests_of(Grammar::Rust, src, &[]).is_empty());
}

#[test]
fn should_panic_is_an_expectation() {
    let t = tests_of(
        Grammar::Rust,
        "#[test]\n#[should_panic(expected = \"boom\")]\nfn a() { f(); }\n",
        &[],
    );
    assert_eq!(expects(&t[0]), ["panics with \"boom\""]);
}

#[test]
fn jest_tests_with_modifiers_each_and_skips() {
    let src = "describe('cart', () => {\n  it('adds', () => { expect(add(1)).toBe(2); expect(f).not.toThrow('x') });\n  test.each([1])('case %s', (n) => { expect(n).toBeTruthy() });\n  test.skip('later', () => {});\n  it.todo('someday');\n});\n";
    let t = tests_of(Grammar::TypeScript, src, &[]);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["adds", "case %s", "later", "someday"]);
    assert_eq!(expects(&t[0]), ["`add(1)` is 2", "`f` not throws 'x'"]);
    assert_eq!(t[0].calls, ["add"]);
    assert_eq!(t[1].skipped, None);
    assert_eq!(t[2].skipped.as_deref(), Some("test.skip"));
    assert_eq!(t[3].skipped.as_deref(), Some("it.todo"));
}

#[test]
fn chai_and_should_chains_are_read_by_their_matcher() {
    let src = "it('errors', () => {\n  expect(res.status).to.equal(201);\n  expect(body).to.not.deep.equal({ id: 1 });\n  error.message.should.containEql('middleware');\n  should(error).have.property('message');\n});\n";
    let t = tests_of(Grammar::JavaScript, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`res.status` equals 201",
            "`body` not deep equals { id: 1 }",
            "`error.message` contains 'middleware'",
            "`error` has the property 'message'",
        ]
    );
}

#[test]
fn a_method_chain_without_an_assertion_root_is_no_expectation() {
    // Chain words alone make no assertion: the root must be `expect(..)`, `should(..)` or
    // a `.should`; and a word outside chai's chains breaks the sentence.
    let src = "it('builds', () => {\n  config.to.equal(1);\n  list.have.include('a');\n  expect(x).to.render.equal(1);\n});\n";
    let t = tests_of(Grammar::JavaScript, src, &[]);
    assert!(expects(&t[0]).is_empty(), "{:?}", expects(&t[0]));
}

#[test]
fn a_describe_block_and_other_calls_are_not_tests() {
    let t = tests_of(
        Grammar::JavaScript,
        "describe('x', () => {});\nfoo('y', () => {});\n",
        &[],
    );
    assert!(t.is_empty());
}

#[test]
fn a_commented_out_test_a_regex_test_and_a_method_named_test_are_not_tests() {
    let src = "describe('cart', () => {\n  // it('commented out', () => {});\n  const ok = /x/.test('abc');\n  expect(x).test('nope');\n  it('counts', () => { expect(n).toBe(1) });\n});\n";
    let t = tests_of(Grammar::TypeScript, src, &[]);
    let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
    assert_eq!(titles, ["counts"]);
    assert_eq!(t[0].line, 5);
}

#[test]
fn go_tests_are_test_or_benchmark_functions_taking_their_testing_type() {
    let src = "package p\nfunc TestRefund(t *testing.T) {}\nfunc Testify(t *testing.T) {}\nfunc TestMain(m *testing.M) {}\nfunc BenchmarkRefund(b *testing.B) {}\nfunc Benchmarker(b *testing.B) {}\nfunc Test_edge(t *testing.T) {}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["TestRefund", "BenchmarkRefund", "Test_edge"]);
}

#[test]
fn pytest_functions_marks_raises_and_literal_sides() {
    let src = "import pytest\n\n@pytest.mark.skip(reason='flaky')\ndef test_a():\n    assert f(1) == 'x'\n\ndef test_b():\n    \"\"\"Rejects negatives.\"\"\"\n    with pytest.raises(ValueError):\n        g(-1)\n    assert 2 == h()\n\ndef helper():\n    assert True\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(t.len(), 2);
    assert!(t[0].skipped.as_deref().unwrap().contains("skip"));
    assert_eq!(expects(&t[0]), ["`f(1)` is 'x'"]);
    assert_eq!(t[1].title, "Rejects negatives.");
    assert_eq!(expects(&t[1]), ["raises ValueError", "`h()` is 2"]);
    assert_eq!(t[1].skipped, None);
}

#[test]
fn a_conditional_pytest_skip_is_not_a_skip() {
    let src = "@pytest.mark.skipif(WIN, reason='posix only')\ndef test_a():\n    assert f() == 1\n";
    assert_eq!(tests_of(Grammar::Python, src, &[])[0].skipped, None);
}

#[test]
fn go_tests_subtests_want_bindings_and_skips() {
    let src = "package p\nfunc TestSort(t *testing.T) {\n\twant := \"a,b\"\n\tif got := Sort(); got != want {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n\tt.Run(\"empty\", func(t *testing.T) {\n\t\tt.Skip(\"later\")\n\t})\n}\nfunc TestHelper(x int) {}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["TestSort", "TestSort/empty"]);
    assert_eq!(expects(&t[0]), ["`got` is \"a,b\""]);
    assert!(t[0].calls.contains(&"Sort".to_string()));
    assert_eq!(t[1].skipped.as_deref(), Some("t.Skip"));
}

#[test]
fn literals_join_rust_continuations_and_show_newlines() {
    assert_eq!(literal("\"\\\n  a\nb\n\""), "\"a\\nb\\n\"");
}

#[test]
fn table_rows_give_the_values_their_expectation_keys_hold() {
    let go = "package p\nfunc TestReason(t *testing.T) {\n\tfor _, tc := range []struct{ name string; expectedReason int }{\n\t\t{name: \"flood\", expectedReason: 429},\n\t} {\n\t\t_ = tc\n\t}\n}\n";
    let t = tests_of(Grammar::Go, go, &[]);
    assert_eq!(
        expects(&t[0]),
        ["`expectedReason` is 429 for `name` \"flood\""]
    );
    // Keys that name the input are no expectation.
    let js = "it('maps', () => { run({ input: 'a', want: 'b' }) });\n";
    let t = tests_of(Grammar::JavaScript, js, &[]);
    assert_eq!(expects(&t[0]), ["`want` is 'b' for `input` 'a'"]);
}

#[test]
fn pytest_parametrize_rows_give_the_expected_column() {
    let src = "@pytest.mark.parametrize((\"shell\", \"expect\"), [(\"fish\", \"plain,a\\n\"), (\"bash\", \"b\")])\ndef test_complete(shell, expect):\n    assert run(shell) == expect\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`expect` is \"plain,a\\n\" for `shell` \"fish\"",
            "`expect` is \"b\" for `shell` \"bash\"",
            "`run(shell) == expect` holds"
        ]
    );
}

#[test]
fn python_names_bound_to_literals_and_assert_true_read_as_expectations() {
    let src = "def test_msg():\n    expected = 'bad value'\n    assert expected in error.message\n    self.assertTrue(len(s) <= 64)\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`error.message` contains 'bad value'",
            "`len(s)` is at most 64"
        ]
    );
}

#[test]
fn an_inline_snapshot_is_the_value_its_first_argument_must_render_to() {
    let src = "#[test]\nfn renders() {\n    let out = render(\"a\");\n    assert_snapshot!(out, @r#\"\n        (red)a(normal)\n          b\n        \"#);\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    assert_eq!(expects(&t[0]), ["`out` is \"(red)a(normal)\\n  b\""]);
    assert_eq!(t[0].expects[0].line, 4);
}

#[test]
fn a_snapshot_kept_in_a_file_names_no_value() {
    let src =
        "#[test]\nfn renders() {\n    let out = render(\"a\");\n    assert_snapshot!(out);\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    assert_eq!(expects(&t[0]), ["`out` holds"]);
}

#[test]
fn rust_method_assertions_name_what_they_check() {
    let src = "rgtest!(crud, |dir: Dir, _cmd: TestCommand| {\n    dir.command().arg(\"--x-crud\").assert_exit_code(0);\n});\n";
    let t = tests_of(Grammar::Rust, src, &["rgtest"]);
    assert_eq!(
        expects(&t[0]),
        ["`dir.command().arg(\"--x-crud\")` passes `assert_exit_code(0)`"]
    );
}

#[test]
fn a_file_level_table_of_cases_is_a_test_when_its_rows_name_expected_values() {
    let src = "package p\nvar cases = []struct{ in string; validTimes []string }{\n\t{in: \"a\", validTimes: []string{\"31 Mar\"}},\n}\nvar names = []string{\"x\"}\nfunc TestCases(t *testing.T) {}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["TestCases", "cases"]);
    assert_eq!(
        expects(&t[1]),
        ["`validTimes` is []string{\"31 Mar\"} for `in` \"a\""]
    );
}

#[test]
fn a_testify_message_is_no_expected_value() {
    let src = "package p\nfunc TestStatus(t *testing.T) {\n\trequire.Equal(t, 404, code, \"error on status %d\")\n}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    assert_eq!(expects(&t[0]), ["`code` equals 404"]);
}

#[test]
fn a_testify_one_value_check_names_its_value_and_not_its_message() {
    let src = "package p\nfunc TestOk(t *testing.T) {\n\tassert.True(t, ok, \"should be ok\")\n\trequire.NoErrorf(t, err, \"load %s\", name)\n\tassert.Equal(t, \"x\", got, \"the name\")\n}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    assert_eq!(
        expects(&t[0]),
        // The error check follows the value checks.
        ["`ok` is true", "`got` equals \"x\"", "`err` is nil"]
    );
}

#[test]
fn the_act_is_the_checked_call_not_the_struct_its_receiver_was_built_as() {
    let built = "package p\nfunc TestProvision(t *testing.T) {\n\ts := &Server{log: newLog(), Names: []string{\"a\"}}\n\trequire.NoError(t, s.provision())\n}\n";
    let t = tests_of(Grammar::Go, built, &[]);
    assert_eq!(t[0].act.as_deref(), Some("s.provision()"));
    // A receiver bound to a call is still that call.
    let called = "package p\nfunc TestProvision(t *testing.T) {\n\ts := NewServer(\"a\")\n\trequire.NoError(t, s.provision())\n}\n";
    let t = tests_of(Grammar::Go, called, &[]);
    assert_eq!(t[0].act.as_deref(), Some("NewServer(\"a\")"));
}

#[test]
fn a_go_comparison_guarding_a_nested_check_is_no_expectation() {
    let src = "package p\nfunc TestErr(t *testing.T) {\n\tif err != nil {\n\t\tif !tc.err {\n\t\t\tt.Errorf(\"unexpected\")\n\t\t}\n\t}\n\tif got != nil {\n\t\tt.Fatal(\"want nil\")\n\t}\n}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    assert_eq!(expects(&t[0]), ["`got` is nil"]);
}

#[test]
fn a_tests_setup_without_settings_is_its_first_call_that_asserts_nothing() {
    let js = "it('applies the class', async () => {\n  // render it\n  const { container } = await render(<App className=\"x\" />);\n  expect(container.className).toBe('x');\n});\n";
    let t = tests_of(Grammar::Tsx, js, &[]);
    assert_eq!(
        t[0].setup.as_deref(),
        Some("run `const { container } = await render(<App className=\"x\" />);`")
    );
    let only_asserts = "it('adds', () => { expect(add(1)).toBe(2) });";
    assert_eq!(
        tests_of(Grammar::JavaScript, only_asserts, &[])[0].setup,
        None
    );
    let rs = "#[test]\nfn a() {\n    let v = parse(\"x\");\n    assert_eq!(v, 1);\n}\n";
    assert_eq!(
        tests_of(Grammar::Rust, rs, &[])[0].setup.as_deref(),
        Some("run `let v = parse(\"x\");`")
    );
}

#[test]
fn junit_tests_are_annotated_methods_with_their_display_names() {
    let src = "import org.junit.jupiter.api.Test;\nclass CartTest {\n    @Test\n    @DisplayName(\"saves the cart\")\n    void savesCart() {\n        Cart cart = new Cart();\n        assertEquals(3, cart.save(1));\n    }\n    void helper() { assertEquals(1, 1); }\n    @RepeatedTest(3)\n    void again() {}\n}\n";
    let t = tests_of(Grammar::Java, src, &[]);
    let names: Vec<(&str, &str)> = t
        .iter()
        .map(|t| (t.name.as_str(), t.title.as_str()))
        .collect();
    assert_eq!(names, [("savesCart", "saves the cart"), ("again", "again")]);
    assert_eq!(t[0].framework, Framework::JUnit);
    assert_eq!(expects(&t[0]), ["`cart.save(1)` is 3"]);
    assert_eq!(t[0].calls, ["Cart", "save"]);
    assert_eq!(t[0].setup.as_deref(), Some("run `Cart cart = new Cart();`"));
}

#[test]
fn disabled_and_ignored_java_tests_are_skipped_and_others_are_not() {
    let src = "class ATest {\n    @Disabled(\"flaky\")\n    @Test\n    void a() {}\n    @Test\n    void b() {}\n}\n@Ignore\nclass BTest {\n    @Test\n    public void c() {}\n}\n";
    let t = tests_of(Grammar::Java, src, &[]);
    assert_eq!(t[0].skipped.as_deref(), Some("@Disabled(\"flaky\")"));
    assert_eq!(t[1].skipped, None);
    assert_eq!(t[2].skipped.as_deref(), Some("@Ignore"));
}

#[test]
fn junit_assertj_and_hamcrest_expectations_read_their_literal_side() {
    let src = "import org.junit.jupiter.api.Test;\nclass ATest {\n    @Test\n    void a() {\n        String expected = \"b,a\";\n        assertEquals(expected, join(paths));\n        assertNotEquals(0, size());\n        assertThat(total()).isEqualTo(\"3.00\");\n        assertThat(names()).hasSize(2).contains(\"x\");\n        assertThat(count(), is(4));\n        assertThat(label(), not(equalTo(\"y\")));\n        assertThrows(IllegalArgumentException.class, () -> save(-1));\n        assertThatThrownBy(() -> load()).isInstanceOf(IOException.class);\n        assertTrue(a() == 5);\n        assertTrue(ready());\n        assertFalse(name().equals(\"z\"));\n        assertNull(find());\n        assertEquals(List.of(\"a\", \"b\"), list());\n    }\n}\n";
    let t = tests_of(Grammar::Java, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`join(paths)` is \"b,a\"",
            "`size()` is not 0",
            "`total()` is \"3.00\"",
            "`names()` contains \"x\"",
            "`names()` has size 2",
            "`count()` is 4",
            "`label()` is not \"y\"",
            "`save(-1)` throws IllegalArgumentException",
            "`load()` throws IOException",
            "`a()` is 5",
            "`name()` is not \"z\"",
            "`find()` is null",
            "`list()` is List.of(\"a\", \"b\")",
            "`ready()` holds"
        ]
    );
    // The bound literal's line is where the expected value stands.
    assert_eq!(t[0].expects[0].line, 5);
    assert!(!t[0].calls.iter().any(|c| c.starts_with("assert")));
}

#[test]
fn junit4_messages_and_testng_order_are_no_expected_values() {
    let junit4 = "import org.junit.Test;\nclass ATest {\n    @Test\n    public void a() {\n        assertEquals(\"sum\", 3, add(1, 2));\n    }\n    @Test(expected = IOException.class)\n    public void b() { load(); }\n}\n";
    let t = tests_of(Grammar::Java, junit4, &[]);
    assert_eq!(expects(&t[0]), ["`add(1, 2)` is 3"]);
    assert_eq!(expects(&t[1]), ["throws IOException"]);
    let testng = "import org.testng.annotations.Test;\n@Test\npublic class ATest {\n    public void a() {\n        assertEquals(add(1, 2), 3);\n    }\n    @Test(enabled = false)\n    public void b() {}\n    private void helper() {}\n}\n";
    let t = tests_of(Grammar::Java, testng, &[]);
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].framework, Framework::TestNg);
    assert_eq!(expects(&t[0]), ["`add(1, 2)` is 3"]);
    assert_eq!(t[1].skipped.as_deref(), Some("@Test(enabled = false)"));
}

#[test]
fn csv_and_value_source_rows_are_table_rows() {
    let src = "class ATest {\n    @ParameterizedTest\n    @CsvSource({\n        \"1, 2, 3\",\n        \"'a, b', 0, 'x'\",\n    })\n    void adds(int a, int b, int expected) {}\n    @ParameterizedTest\n    @ValueSource(strings = {\"racecar\", \"radar\"})\n    void palindromes(String word) { assertTrue(isPalindrome(word)); }\n}\n";
    let t = tests_of(Grammar::Java, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`expected` is 3 for `a` 1, `b` 2",
            "`expected` is \"x\" for `a` \"a, b\", `b` 0"
        ]
    );
    assert_eq!(t[0].expects[0].line, 4);
    assert_eq!(
        expects(&t[1]),
        [
            "`isPalindrome(word)` holds",
            "the case `word` = \"racecar\" to pass",
            "the case `word` = \"radar\" to pass"
        ]
    );
}

#[test]
fn junit3_test_methods_need_a_test_case_or_an_unannotated_test_class() {
    let src = "public class CartTest extends TestCase {\n    public void testSave() { assertEquals(1, save()); }\n    public void helper() {}\n}\n";
    let t = tests_of(Grammar::Java, src, &[]);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].name, "testSave");
    // A plain class with a `test...` method defines no test.
    assert!(tests_of(
        Grammar::Java,
        "class Cart {\n    public void testMode() {}\n}\n",
        &[]
    )
    .is_empty());
}

/// The expectations a file's tests pass to the assertion helpers `support` defines.
fn helper_expects(g: Grammar, test: &str, support: &str) -> Vec<String> {
    let tree = parse(g, support).expect("parsed");
    let h = helpers::assertion_helpers(helpers::defined(g, tree.root_node(), support));
    tests_of(g, test, &[])
        .iter()
        .flat_map(|t| helpers::expectations(&t.helper_calls, &h))
        .map(|e| e.text)
        .collect()
}

const RUST_ENV: &str = "impl TestEnv {\n    pub fn assert_failure_with_error(&self, args: &[&str], expected: &str) {\n        let status = self.assert_error_subdirectory(\".\", args, Some(expected));\n        if status.success() { panic!(\"should fail\"); }\n    }\n    fn assert_error_subdirectory(&self, path: &str, args: &[&str], expected: Option<&str>) -> Status {\n        let output = run(path, args);\n        if let Some(expected) = expected {\n            let actual = stderr(&output);\n            if expected != actual { panic!(\"{}\", format_output_error(args, expected, &actual)); }\n        }\n        output.status\n    }\n    pub fn run_with_error(&self, args: &[&str], expected: &str) {\n        let output = run(\".\", args);\n        println!(\"{} {:?}\", expected, output);\n    }\n}\n";

#[test]
fn a_rust_helper_that_asserts_through_another_makes_its_literal_arguments_expectations() {
    let test = "#[test]\nfn flag() {\n    let te = TestEnv::new();\n    te.assert_failure_with_error(&[\"pat\", \"--flag\", \"x/y\"], \"[tool error]: bad flag\");\n}\n";
    assert_eq!(
        helper_expects(Grammar::Rust, test, RUST_ENV),
        ["`assert_failure_with_error`: `expected` is \"[tool error]: bad flag\" for `args` &[\"pat\", \"--flag\", \"x/y\"]"]
    );
}

#[test]
fn a_local_bound_to_a_literal_passes_that_literal_to_a_helper() {
    let test = "#[test]\nfn flag() {\n    let te = TestEnv::new();\n    let expected = \"[tool error]: bad flag\";\n    te.assert_failure_with_error(&[\"pat\"], expected);\n}\n";
    assert_eq!(
        helper_expects(Grammar::Rust, test, RUST_ENV),
        ["`assert_failure_with_error`: `expected` is \"[tool error]: bad flag\" for `args` &[\"pat\"]"]
    );
    // Control: a local bound to a call's result passes no literal.
    let computed = test.replace("\"[tool error]: bad flag\"", "message()");
    assert!(helper_expects(Grammar::Rust, &computed, RUST_ENV)
        .iter()
        .all(|e| !e.contains("bad flag") && !e.contains("message()")));
}

#[test]
fn a_helper_of_the_same_shape_that_asserts_nothing_passes_no_expectation() {
    let test = "#[test]\nfn flag() {\n    let te = TestEnv::new();\n    te.run_with_error(&[\"pat\"], \"[tool error]: bad flag\");\n}\n";
    assert!(helper_expects(Grammar::Rust, test, RUST_ENV).is_empty());
    // Control: the helper becomes one once it compares what it is given.
    let asserting = RUST_ENV.replace(
        "println!(\"{} {:?}\", expected, output);",
        "assert_eq!(stderr(&output), expected);",
    );
    assert_eq!(helper_expects(Grammar::Rust, test, &asserting).len(), 1);
}

#[test]
fn a_helper_two_calls_away_from_an_assertion_is_no_helper() {
    let support = "fn a(got: &str, want: &str) { assert_eq!(got, want); }\nfn b(got: &str, want: &str) { a(got, want) }\nfn c(got: &str, want: &str) { b(got, want) }\n";
    let test = "#[test]\nfn t() {\n    b(&out(), \"x\");\n    c(&out(), \"y\");\n}\n";
    assert_eq!(
        helper_expects(Grammar::Rust, test, support),
        ["`&out()` is \"x\" (`b`)"]
    );
}

#[test]
fn a_go_helper_that_fails_the_test_on_a_condition_compares_its_parameters() {
    let support = "package cli\n\nfunc checkContains(t *testing.T, got, want string) {\n\tt.Helper()\n\tif !strings.Contains(got, want) {\n\t\tt.Errorf(\"%q does not contain %q\", got, want)\n\t}\n}\n\nfunc logOnly(t *testing.T, got, want string) {\n\tt.Logf(\"%q %q\", got, want)\n}\n";
    let test = "package cli\n\nfunc TestHelp(t *testing.T) {\n\tout := run(\"--help\")\n\tcheckContains(t, out, \"Usage: app\")\n\tlogOnly(t, out, \"ignored\")\n}\n";
    assert_eq!(
        helper_expects(Grammar::Go, test, support),
        ["`out` is \"Usage: app\" (`checkContains`)"]
    );
}

#[test]
fn a_go_helper_that_returns_a_built_error_on_a_condition_compares_nothing() {
    // `return fmt.Errorf(..)` builds an error for the caller: the condition before it
    // chooses a branch, it checks no expectation.
    let support = "package cli\n\nfunc load(t *testing.T, raw, kind string) error {\n\tif kind != \"json\" {\n\t\treturn fmt.Errorf(\"no adapter: %s\", kind)\n\t}\n\treturn nil\n}\n";
    let test =
        "package cli\n\nfunc TestLoad(t *testing.T) {\n\tload(t, \"{}\", \"caddyfile\")\n}\n";
    assert!(helper_expects(Grammar::Go, test, support).is_empty());
    // Control: the same condition failing the test compares the parameter.
    let failing = support.replace("return fmt.Errorf(", "t.Errorf(");
    assert_eq!(
        helper_expects(Grammar::Go, test, &failing),
        ["`load`: `kind` is \"caddyfile\" for `raw` \"{}\""]
    );
}

#[test]
fn python_and_javascript_helpers_are_read_by_what_they_assert() {
    let support = "def assert_status(response, expected_status=200):\n    assert response.status_code == expected_status\n\ndef make_client(base_url='x'):\n    return Client(base_url)\n";
    let test = "def test_redirect(client):\n    r = client.get('/a')\n    assert_status(r, expected_status=301)\n    make_client(base_url='http://y')\n";
    assert_eq!(
        helper_expects(Grammar::Python, test, support),
        ["`r` is 301 (`assert_status`)"]
    );
    let support = "export function expectOutput(args: string[], want: string) {\n  const out = run(args);\n  expect(out).toBe(want);\n}\nexport const build = (args: string[], name: string) => run(args, name);\n";
    let test = "it('prints help', () => {\n  expectOutput(['--help'], 'Usage: cli');\n  build(['x'], 'y');\n});\n";
    assert_eq!(
        helper_expects(Grammar::TypeScript, test, support),
        ["`expectOutput`: `want` is 'Usage: cli' for `args` ['--help']"]
    );
}
#[test]
fn locals_bound_once_to_a_literal_pass_it_to_a_helper_in_every_language() {
    let go_support = "package cli\n\nfunc checkContains(t *testing.T, got, want string) {\n\tif !strings.Contains(got, want) {\n\t\tt.Errorf(\"%q\", got)\n\t}\n}\n";
    let go_test = "package cli\n\nfunc TestHelp(t *testing.T) {\n\twant := \"Usage: app\"\n\tcheckContains(t, run(\"--help\"), want)\n}\n";
    assert_eq!(
        helper_expects(Grammar::Go, go_test, go_support),
        ["`run(\"--help\")` is \"Usage: app\" (`checkContains`)"]
    );
    let py_support = "def assert_status(response, expected_status=200):\n    assert response.status_code == expected_status\n";
    let py_test =
        "def test_redirect(client):\n    code = 301\n    assert_status(client.get('/a'), code)\n";
    assert_eq!(
        helper_expects(Grammar::Python, py_test, py_support),
        ["`client.get('/a')` is 301 (`assert_status`)"]
    );
    let ts_support = "export function expectOutput(args: string[], want: string) {\n  expect(run(args)).toBe(want);\n}\n";
    let ts_test = "it('prints help', () => {\n  const usage = 'Usage: cli';\n  expectOutput(['--help'], usage);\n});\n";
    assert_eq!(
        helper_expects(Grammar::TypeScript, ts_test, ts_support),
        ["`expectOutput`: `want` is 'Usage: cli' for `args` ['--help']"]
    );
    // Controls: a local bound to a call, or declared twice, holds no one literal.
    let computed = ts_test.replace("'Usage: cli'", "usageOf('cli')");
    assert!(helper_expects(Grammar::TypeScript, &computed, ts_support)
        .iter()
        .all(|e| !e.contains("Usage")));
    let twice = ts_test.replace(
        "  expectOutput",
        "  {\n    const usage = 'other';\n  }\n  expectOutput",
    );
    assert!(helper_expects(Grammar::TypeScript, &twice, ts_support)
        .iter()
        .all(|e| !e.contains("Usage") && !e.contains("other")));
}

#[test]
fn test_each_rows_are_quoted_with_their_inputs() {
    let src = "test.each([[1, 1, 2], [1, 2, 3]])('add(%i, %i)', (a, b, expected) => {\n  expect(add(a, b)).toBe(expected);\n});\ntest.each`\n  a    | b    | expected\n  ${1} | ${1} | ${2}\n  ${2} | ${1} | ${3}\n`('returns $expected', ({ a, b, expected }) => {\n  expect(a + b).toBe(expected);\n});\nit.each([{ input: 'x', output: 'X' }])('upper', ({ input, output }) => {});\n";
    let t = tests_of(Grammar::TypeScript, src, &[]);
    assert_eq!(
        expects(&t[0])[..2],
        [
            "`expected` is 2 for `a` 1, `b` 1",
            "`expected` is 3 for `a` 1, `b` 2"
        ]
    );
    assert_eq!(
        expects(&t[1])[..2],
        [
            "`expected` is 2 for `a` 1, `b` 1",
            "`expected` is 3 for `a` 2, `b` 1"
        ]
    );
    // Each row at its own line, so that a changed row is told from the others.
    assert_eq!(t[1].expects[1].line, 7);
    assert_eq!(expects(&t[2]), ["`output` is 'X' for `input` 'x'"]);
}

#[test]
fn go_table_rows_without_keys_are_named_by_the_struct_fields() {
    let src = "package x\n\nfunc TestUpper(t *testing.T) {\n\ttests := []struct {\n\t\tin, want string\n\t}{\n\t\t{\"a\", \"A\"},\n\t\t{in: \"b\", want: \"B\"},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.in, func(t *testing.T) {\n\t\t\tif got := Upper(tt.in); got != tt.want {\n\t\t\t\tt.Errorf(\"got %q\", got)\n\t\t\t}\n\t\t})\n\t}\n}\n";
    let t = tests_of(Grammar::Go, src, &[]);
    let e = expects(&t[0]);
    assert!(e.contains(&"`want` is \"A\" for `in` \"a\""), "{e:?}");
    assert!(e.contains(&"`want` is \"B\" for `in` \"b\""), "{e:?}");
}

#[test]
fn parametrize_rows_without_an_expected_column_are_quoted_as_cases() {
    let src = "import pytest\n\n@pytest.mark.parametrize(\"method\", [\"GET\", pytest.param(\"HEAD\", id=\"head\")])\ndef test_method(method):\n    assert send(method)\n";
    let t = tests_of(Grammar::Python, src, &[]);
    let e = expects(&t[0]);
    assert!(e.contains(&"the case `method` = \"GET\" to pass"), "{e:?}");
    assert!(e.contains(&"the case `method` = \"HEAD\" to pass"), "{e:?}");
}

#[test]
fn a_test_that_sets_an_option_arranges_it_and_acts_with_the_checked_call() {
    let go = "package chi\n\nfunc TestStrictSlash(t *testing.T) {\n\tr := NewRouter()\n\tr.StrictSlash = true\n\tt.Setenv(\"CHI_DEBUG\", \"1\")\n\tgot := r.Match(\"/users/\")\n\tif got != \"/users\" {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, go, &[])[0];
    assert_eq!(
        t.setup.as_deref(),
        Some("set `r.StrictSlash` to `true`, set `CHI_DEBUG` to `\"1\"`")
    );
    assert_eq!(t.act.as_deref(), Some("r.Match(\"/users/\")"));
    let ts = "it('is strict', async () => {\n  const app = new Hono({ strict: false, router: { kind: 'x' } });\n  const res = await app.request('/hello/');\n  expect(res.status).toBe(200);\n});\n";
    let t = &tests_of(Grammar::TypeScript, ts, &[])[0];
    // An option inside a named one is part of it.
    assert_eq!(
        t.setup.as_deref(),
        Some("set `strict` to `false`, set `router` to `{ kind: 'x' }`")
    );
    assert_eq!(t.act.as_deref(), Some("app.request('/hello/')"));
    let py = "def test_redirects(client, tmp_path):\n    client.follow_redirects = True\n    r = client.get('/a')\n    assert r.status_code == 200\n";
    let t = &tests_of(Grammar::Python, py, &[])[0];
    assert_eq!(
        t.setup.as_deref(),
        Some("set `client.follow_redirects` to `True`, use the fixtures `client`, `tmp_path`")
    );
    assert_eq!(t.act.as_deref(), Some("client.get('/a')"));
}

#[test]
fn a_computed_value_a_local_and_a_table_row_are_no_settings() {
    let go = "package chi\n\nfunc TestRoutes(t *testing.T) {\n\tcases := []struct{ in, want string }{{in: \"/a\", want: \"/a\"}}\n\tr := NewRouter()\n\tr.Prefix = prefixOf(t)\n\tn := 3\n\tfor _, c := range cases {\n\t\tif got := r.Match(c.in); got != c.want {\n\t\t\tt.Errorf(\"got %q\", got)\n\t\t}\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, go, &[])[0];
    // Nothing set to a literal: the first call statement stands.
    assert_eq!(t.setup.as_deref(), Some("run `r := NewRouter()`"));
    // Control: the same router with a literal option is a setting.
    let set = go.replace("prefixOf(t)", "\"/v1\"");
    let t = &tests_of(Grammar::Go, &set, &[])[0];
    assert_eq!(t.setup.as_deref(), Some("set `r.Prefix` to `\"/v1\"`"));
}

#[test]
fn a_function_value_an_early_exit_and_a_loop_are_no_set_up() {
    let go = "package chi\n\nfunc TestNotFound(t *testing.T) {\n\tt.Parallel()\n\tr := NewRouter()\n\tr.NotFound = func(w http.ResponseWriter, r *http.Request) {}\n\tif got := r.Match(\"/x\"); got != \"\" {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, go, &[])[0];
    assert_eq!(t.setup.as_deref(), Some("run `r := NewRouter()`"));
    let rs = "#[test]\nfn batch() {\n    if cfg!(windows) {\n        return;\n    }\n    for n in [1, 2] {\n        run(n);\n    }\n    let te = TestEnv::new(DIRS);\n    assert_eq!(te.count(), 2);\n}\n";
    let t = &tests_of(Grammar::Rust, rs, &[])[0];
    assert_eq!(
        t.setup.as_deref(),
        Some("run `let te = TestEnv::new(DIRS);`")
    );
    // Control: a literal option value is a setting.
    let set = go.replace("func(w http.ResponseWriter, r *http.Request) {}", "true");
    let t = &tests_of(Grammar::Go, &set, &[])[0];
    assert_eq!(t.setup.as_deref(), Some("set `r.NotFound` to `true`"));
}

#[test]
fn a_go_check_that_fails_when_a_call_holds_expects_it_not_to() {
    let src = "package m\n\nfunc TestNoColor(t *testing.T) {\n\tout := run()\n\tif strings.Contains(out, \"\\x1b[\") {\n\t\tt.Fatal(\"colored\")\n\t}\n\tif !strings.HasPrefix(out, \"panic\") {\n\t\tt.Error(\"no panic\")\n\t}\n\tif strings.HasSuffix(out, \"x\") {\n\t\tlog(out)\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    // The third `if` reports nothing: no expectation.
    assert_eq!(
        expects(t),
        [
            "`out` does not contain \"\\x1b[\"",
            "`out` starts with \"panic\""
        ]
    );
}

#[test]
fn a_conversion_of_a_bound_result_acts_with_the_call_that_produced_it() {
    let py = "def test_param():\n    url = httpx.URL('https://x/', params={'u': '%'})\n    assert str(url) == 'https://x/?u=%25'\n";
    let t = &tests_of(Grammar::Python, py, &[])[0];
    assert_eq!(
        t.act.as_deref(),
        Some("httpx.URL('https://x/', params={'u': '%'})")
    );
    // Control: a call of the code under test is the act itself.
    let own = py.replace("str(url)", "render(url)");
    let t = &tests_of(Grammar::Python, &own, &[])[0];
    assert_eq!(t.act.as_deref(), Some("render(url)"));
}

#[test]
fn an_assert_cmd_chain_expects_its_outcomes_of_the_command_line_it_builds() {
    let src = "#[test]\nfn ignores_listed_codes() {\n    hyperfine()\n        .arg(\"--runs=1\")\n        .arg(\"--ignore-failure=1\")\n        .arg(\"exit 2\")\n        .assert()\n        .failure()\n        .stderr(predicate::str::contains(\"non-zero exit code 2\"));\n    Command::cargo_bin(\"fd\").unwrap().args([\"-H\", \"x\"]).assert().code(1).stdout(\"\");\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "running `hyperfine --runs=1 --ignore-failure=1 'exit 2'` fails",
            "running `hyperfine --runs=1 --ignore-failure=1 'exit 2'` prints \"non-zero exit code 2\" on stderr",
            "running `fd -H x` exits with code 1",
            "running `fd -H x` prints exactly \"\" on stdout",
        ]
    );
}

#[test]
fn a_std_command_named_by_a_literal_runs_that_program() {
    let src = "#[test]\nfn ksh_parses() {\n    Command::new(\"ksh\").args([\"-n\", \"-c\", &source]).assert().success().stdout(\"\");\n    Command::new(bin_path()).arg(\"-V\").assert().success();\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "running `ksh -n -c` succeeds",
            "running `ksh -n -c` prints exactly \"\" on stdout",
            // A program not named by a literal is not guessed.
            "running `… -V` succeeds",
        ]
    );
}

#[test]
fn an_assert_method_with_arguments_is_no_command_line_builder() {
    // Another API's `assert(x)`: read as before, a method assertion on its receiver.
    let src = "#[test]\nfn checks() {\n    state.assert(ready).success();\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    assert!(
        !expects(&t[0]).iter().any(|e| e.starts_with("running")),
        "{:?}",
        expects(&t[0])
    );
}

const RUST_BUILDER: &str = "impl Test {\n    pub fn justfile(mut self, justfile: &str) -> Self {\n        self.justfile = justfile.into();\n        self\n    }\n    pub fn stdout(mut self, stdout: impl Into<String>) -> Self {\n        self.stdout = stdout.into();\n        self\n    }\n    pub fn run(self) {\n        fs::write(\"justfile\", &self.justfile).unwrap();\n        let want = if self.unindent { unindent(&self.stdout) } else { self.stdout.clone() };\n        let out = run_tool();\n        if !compare(&out, &want) {\n            panic!(\"Output mismatch.\");\n        }\n    }\n}\n";

#[test]
fn a_builder_setter_whose_field_the_run_compares_passes_an_expectation() {
    let test = "#[test]\nfn prints() {\n    Test::new()\n        .justfile(\"x:\\n  echo hi\")\n        .stdout(\"hi\\n\")\n        .run();\n}\n";
    assert_eq!(
        helper_expects(Grammar::Rust, test, RUST_BUILDER),
        ["`stdout`: `stdout` is \"hi\\n\""]
    );
}

#[test]
fn a_builder_setter_whose_field_is_only_used_passes_no_expectation() {
    // `justfile` is read by the run (written to disk), never compared: an input.
    let test = "#[test]\nfn prints() {\n    Test::new().justfile(\"x:\\n  echo hi\").run();\n}\n";
    assert!(helper_expects(Grammar::Rust, test, RUST_BUILDER).is_empty());
    // Control: once the run compares the field, its setter passes an expectation.
    let comparing = RUST_BUILDER.replace(
        "let out = run_tool();",
        "let out = run_tool();\n        assert_eq!(read(), self.justfile);",
    );
    assert_eq!(helper_expects(Grammar::Rust, test, &comparing).len(), 1);
}

#[test]
fn a_case_function_that_hands_its_argument_to_a_comparing_setter_is_a_helper() {
    let support = format!("{RUST_BUILDER}fn case(expression: &str, expected: &str) {{\n    Test::new().justfile(expression).stdout(expected).run();\n}}\n");
    let test = "#[test]\nfn len() {\n    case(\"[]\", \"0\");\n}\n";
    assert_eq!(
        helper_expects(Grammar::Rust, test, &support),
        ["`case`: `expected` is \"0\" for `expression` \"[]\""]
    );
}

#[test]
fn a_javascript_builder_that_compares_this_field_makes_its_setter_an_expectation() {
    let support = "class Check {\n  wants(value) {\n    this.expected = value;\n    return this;\n  }\n  input(value) {\n    this.given = value;\n    return this;\n  }\n  run() {\n    const got = run(this.given);\n    assert.equal(got, this.expected);\n  }\n}\n";
    let test = "it('upper', () => {\n  new Check().input('a').wants('A').run();\n});\n";
    assert_eq!(
        helper_expects(Grammar::JavaScript, test, support),
        ["`wants`: `value` is 'A'"]
    );
}

#[test]
fn a_request_chains_own_expect_calls_are_expectations() {
    let src = "it('redirects', function (done) {\n  request(app)\n    .get('/old')\n    .expect('Location', '/new')\n    .expect(301, 'Moved', done);\n});\nit('finds', async () => {\n  await request(app).get('/x').expect(200);\n});\n";
    let t = tests_of(Grammar::JavaScript, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`request(app) .get('/old')` responds 301 with body 'Moved'",
            "`request(app) .get('/old')` has header 'Location' matching '/new'"
        ]
    );
    assert_eq!(expects(&t[1]), ["`request(app).get('/x')` responds 200"]);
}

#[test]
fn a_chained_expect_with_only_a_callback_is_no_expectation() {
    // `.expect(fn)` checks in code the test's own reading covers; nothing literal to quote.
    let src =
        "it('checks', function (done) {\n  request(app).get('/').expect(check).end(done);\n});\n";
    assert!(expects(&tests_of(Grammar::JavaScript, src, &[])[0]).is_empty());
    // Control: the global `expect(x).toBe(y)` is still read as jest's.
    let jest = "it('adds', () => {\n  expect(add(1, 2)).toBe(3);\n});\n";
    assert_eq!(
        expects(&tests_of(Grammar::JavaScript, jest, &[])[0]),
        ["`add(1, 2)` is 3"]
    );
}

#[test]
fn a_parameter_compared_through_the_value_a_helper_builds_from_it_is_quoted_as_such() {
    let support = "package cli\n\nfunc dupError(err error, t *testing.T, arg string) {\n\tif err == nil {\n\t\tt.Fatal(\"Expected an error\")\n\t}\n\tgot := err.Error()\n\texpected := `duplicate argument \"` + arg + `\"`\n\tif got != expected {\n\t\tt.Errorf(\"want %q, got %q\", expected, got)\n\t}\n}\n";
    let test = "package cli\n\nfunc TestDup(t *testing.T) {\n\t_, err := run(\"one\", \"one\")\n\tdupError(err, t, \"one\")\n}\n";
    assert_eq!(
        helper_expects(Grammar::Go, test, support),
        ["`err` is checked against what it builds from `arg` \"one\" (`dupError`)"]
    );
    // Control: a parameter that only feeds a message, never a comparison, is no expectation.
    let logging = support.replace(
        "\tif got != expected {\n\t\tt.Errorf(\"want %q, got %q\", expected, got)\n\t}\n",
        "\tt.Logf(\"%q %q\", expected, got)\n",
    );
    assert!(helper_expects(Grammar::Go, test, &logging)
        .iter()
        .all(|e| !e.contains("\"one\"")));
    // Control: a parameter the helper hands to the behaviour is its input, not a value
    // the comparison checks.
    let running = "package cli\n\nfunc runs(t *testing.T, input string) {\n\tgot := run(input)\n\tif got != \"ok\" {\n\t\tt.Errorf(\"got %q\", got)\n\t}\n}\n";
    let test = "package cli\n\nfunc TestRuns(t *testing.T) {\n\truns(t, \"one\")\n}\n";
    assert!(helper_expects(Grammar::Go, test, running).is_empty());
}

#[test]
fn kotlin_tests_are_annotated_functions_and_a_plain_test_named_function_is_not() {
    let src = "import kotlin.test.Test\nclass CartTest {\n  @Test fun savesCart() {\n    val cart = Cart()\n    assertEquals(3, cart.save(1))\n  }\n  @Test fun `saves the total`() {}\n  fun testHelper() { assertEquals(1, 1) }\n  @ParameterizedTest\n  fun rows(n: Int) {}\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    let names: Vec<(&str, &str)> = t
        .iter()
        .map(|t| (t.name.as_str(), t.title.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("savesCart", "savesCart"),
            ("saves the total", "saves the total"),
            ("rows", "rows")
        ]
    );
    assert_eq!(t[0].framework, Framework::JUnit);
    assert_eq!(expects(&t[0]), ["`cart.save(1)` is 3"]);
    assert_eq!(t[0].calls, ["Cart", "save"]);
    assert_eq!(t[0].setup.as_deref(), Some("run `val cart = Cart()`"));
}

#[test]
fn kotlin_junit3_tests_are_test_functions_of_a_test_case_class_only() {
    let src = "class ATest : TestCase() {\n  fun testSaves() {}\n  fun helper() {}\n}\nclass B {\n  fun testNot() {}\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["testSaves"]);
}

#[test]
fn disabled_and_ignored_kotlin_tests_are_skipped_and_others_are_not() {
    let src = "class ATest {\n  @Disabled(\"flaky\")\n  @Test fun a() {}\n  @Test fun b() {}\n}\n@Ignore\nclass BTest {\n  @Test fun c() {}\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    assert_eq!(t[0].skipped.as_deref(), Some("@Disabled(\"flaky\")"));
    assert_eq!(t[1].skipped, None);
    assert_eq!(t[2].skipped.as_deref(), Some("@Ignore"));
}

#[test]
fn kotlin_fluent_and_kotlin_test_expectations_read_their_literal_side() {
    let src = "import kotlin.test.Test\nclass ATest {\n  @Test fun a() {\n    val expected = \"b,a\"\n    assertEquals(expected, join(paths))\n    assertNotEquals(0, size())\n    assertThat(total()).isEqualTo(\"3.00\")\n    assertThat(names()).hasSize(2)\n    assertThat(ready()).isTrue()\n    assertThat(label()).contains(\"x\")\n    assertTrue(a() == 5)\n    assertFalse(done())\n    assertNull(find())\n    assertEquals(listOf(\"a\", \"b\"), list())\n  }\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`join(paths)` is \"b,a\"",
            "`size()` is not 0",
            "`total()` is \"3.00\"",
            "`names()` has size 2",
            "`ready()` is true",
            "`label()` contains \"x\"",
            "`a()` is 5",
            "`find()` is null",
            "`list()` is listOf(\"a\", \"b\")",
            "`done()` does not hold"
        ]
    );
    // The bound literal's line is where the expected value stands.
    assert_eq!(t[0].expects[0].line, 4);
    assert!(!t[0].calls.iter().any(|c| c.starts_with("assert")));
}

#[test]
fn kotlin_expected_failures_name_the_thrown_type() {
    let src = "class ATest {\n  @Test fun a() {\n    assertFailsWith<IOException> {\n      load()\n    }\n    val e = assertFailsWith<IllegalStateException>(\"m\") { save(-1) }\n    assertThrows<TimeoutException> { wait() }\n    assertFailsWith(EOFException::class) { read() }\n    assertFailure { close() }.isInstanceOf<SocketException>()\n    assertThatThrownBy { connect() }.isInstanceOf(IOException::class.java)\n  }\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`load()` throws IOException",
            "`save(-1)` throws IllegalStateException",
            "`wait()` throws TimeoutException",
            "`read()` throws EOFException",
            "`close()` throws SocketException",
            "`connect()` throws IOException"
        ]
    );
}

#[test]
fn a_kotlin_assertion_without_a_literal_quotes_the_expression() {
    let src = "class ATest {\n  @Test fun a() {\n    val want = compute()\n    assertEquals(want, run())\n    assertThat(run()).isEqualTo(other)\n    val s = \"x$y\"\n    assertEquals(s, run())\n  }\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`run()` equals `want`",
            "`run()` is `other`",
            "`run()` equals `s`"
        ]
    );
}

#[test]
fn a_kotlin_call_that_is_no_assertion_is_a_call_not_an_expectation() {
    let src = "class ATest {\n  @Test fun a() {\n    cart.isEqualTo(3)\n    check(\"x\")\n  }\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    assert!(t[0].expects.is_empty());
    assert_eq!(t[0].calls, ["check", "isEqualTo"]);
    assert_eq!(t[0].helper_calls.len(), 2);
}

#[test]
fn a_kotlin_file_without_a_test_annotation_may_define_no_tests() {
    assert!(may_define_tests(
        Grammar::Kotlin,
        "class A {\n  @Test fun a() {}\n}\n",
        &[]
    ));
    assert!(may_define_tests(
        Grammar::Kotlin,
        "class A : TestCase() {\n  fun testA() {}\n}\n",
        &[]
    ));
    assert!(!may_define_tests(
        Grammar::Kotlin,
        "class ATest {\n  fun testA() {}\n}\n",
        &[]
    ));
}

#[test]
fn a_kotlin_helper_that_asserts_makes_its_literal_arguments_expectations() {
    let support = "fun Cache.assertPresent(key: String, expected: String) {\n  assertThat(get(key)).isEqualTo(expected)\n}\nfun logOnly(key: String, value: String) {\n  println(value)\n}\n";
    let test = "class CacheTest {\n  @Test fun present() {\n    cache.assertPresent(\"a\", \"x\")\n    logOnly(\"a\", \"ignored\")\n  }\n}\n";
    assert_eq!(
        helper_expects(Grammar::Kotlin, test, support),
        ["`assertPresent`: `expected` is \"x\" for `key` \"a\""]
    );
}

#[test]
fn a_helper_comparing_a_parameter_with_what_it_computes_takes_no_other_argument_as_subject() {
    // `takeQuery` checks the event it takes: `hostname` against `event.hostname`, `type`
    // against `event.type`; the caller's `TYPE_HTTPS` is no value "lysine.dev" describes.
    let support = "fun takeQuery(hostname: String, type: Int): Event {\n  val event = takeEvent()\n  assertThat(event.hostname).isEqualTo(hostname)\n  assertThat(event.type).isEqualTo(type)\n  return event\n}\n";
    let test = "class DnsTest {\n  @Test fun happy() {\n    transport.takeQuery(\"lysine.dev\", TYPE_HTTPS)\n  }\n}\n";
    assert_eq!(
        helper_expects(Grammar::Kotlin, test, support),
        ["`takeQuery`: `hostname` is \"lysine.dev\""]
    );
}

#[test]
fn a_helper_comparing_two_of_its_parameters_takes_the_computed_argument_as_subject() {
    // Control: `check(got, want)` compares its two parameters with each other.
    let support =
        "fun check(got: Int, want: String) {\n  assertThat(got.toString()).isEqualTo(want)\n}\n";
    let test =
        "class DnsTest {\n  @Test fun happy() {\n    check(TYPE_HTTPS, \"lysine.dev\")\n  }\n}\n";
    assert_eq!(
        helper_expects(Grammar::Kotlin, test, support),
        ["`TYPE_HTTPS` is \"lysine.dev\" (`check`)"]
    );
}

#[test]
fn a_python_ordering_assertion_bounds_its_computed_side_by_the_literal() {
    let src = "def test_short():\n    assert len(signed) <= 64\n    assert 3 < len(signed)\n    assert len(a) <= len(b)\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`len(signed)` is at most 64",
            "`len(signed)` is greater than 3",
            // Control: no literal side, no bound to quote.
            "`len(a) <= len(b)` holds"
        ]
    );
}

#[test]
fn unittest_ordering_assertions_read_as_comparisons() {
    let src = "class T(TestCase):\n    def test_wrap(self):\n        self.assertLess(len(line), 80)\n        self.assertGreaterEqual(count, 1)\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(
        expects(&t[0]),
        ["`len(line)` is less than 80", "`count` is at least 1"]
    );
}

#[test]
fn bare_numbers_of_an_expectation_are_shown_as_code() {
    assert_eq!(
        values_as_code("`copy.width()` is 80 for `n` -1, `f` 0.5"),
        "`copy.width()` is `80` for `n` `-1`, `f` `0.5`"
    );
    assert_eq!(
        values_as_code("`ref` has been called times 1"),
        "`ref` has been called times `1`"
    );
    assert_eq!(values_as_code("`x` is (80, 25)"), "`x` is (`80`, `25`)");
}

#[test]
fn a_string_of_one_or_two_characters_of_an_expectation_is_shown_as_code() {
    assert_eq!(
        values_as_code("`dirname(p)` is \"C:\""),
        "`dirname(p)` is `\"C:\"`"
    );
    assert_eq!(
        values_as_code("`a.toJson(x)` is \"[]\" for `s` 'a'"),
        "`a.toJson(x)` is `\"[]\"` for `s` `'a'`"
    );
    // Control: a longer string, an empty one, one inside code and one joined to more
    // text are left as written.
    for text in [
        "`name` is \"abc\"",
        "`name` is \"\"",
        "`f(\"a\")` holds",
        "`s` is \"a\"+b",
    ] {
        assert_eq!(values_as_code(text), text);
    }
}

#[test]
fn numbers_inside_code_strings_or_words_are_left_as_written() {
    for text in [
        "`len(line) <= 64` holds",
        "`msg` is \"expected 2 chunks\"",
        "`msg` is 'retry 3 times'",
        "`name` is v2 for `id` a1",
        "`s` don't 3x",
    ] {
        assert_eq!(values_as_code(text), text);
    }
}

#[test]
fn an_assertion_class_call_of_its_own_kind_is_quoted_with_its_arguments() {
    let src = "class PrimitiveTest {\n    @Test\n    public void hashes() {\n        MoreAsserts.assertEqualsAndHashCode(new JsonPrimitive(42), new JsonPrimitive(42.0));\n        MoreAsserts.describe(new JsonPrimitive(7), \"seven\");\n    }\n}\n";
    let t = tests_of(Grammar::Java, src, &[]);
    // Control: a method of the same class not named as an assertion asserts nothing.
    assert_eq!(
        expects(&t[0]),
        ["`assertEqualsAndHashCode(new JsonPrimitive(42), new JsonPrimitive(42.0))` holds"]
    );
}

#[test]
fn a_class_parametrize_gives_its_rows_to_each_test_method() {
    let src = "import pytest\n\n@pytest.mark.parametrize((\"model\", \"perm\"), [(Tag, \"view_tag\")])\nclass TestVisible:\n    def test_owner_sees_own(self, model, perm):\n        check(model, perm)\n\n    @pytest.mark.slow\n    def test_stranger_sees_none(self, model, perm):\n        check(model, perm)\n\nclass TestPlain:\n    def test_plain(self):\n        check(Tag, \"view_tag\")\n";
    let t = tests_of(Grammar::Python, src, &[]);
    let rows: Vec<Vec<&str>> = t.iter().map(expects).collect();
    assert_eq!(rows[0], rows[1]);
    assert_eq!(rows[0].len(), 1);
    assert!(rows[0][0].contains("\"view_tag\""), "{rows:?}");
    // Control: a class without the decorator gives its methods no rows.
    assert!(rows[2].is_empty(), "{rows:?}");
}

#[test]
fn unittest_assert_true_of_a_comparison_reads_as_the_comparison() {
    let src = "class T(TestCase):\n    def test_short(self):\n        self.assertTrue(len(signed) <= 64)\n        self.assertTrue(signed.isalnum())\n";
    let t = tests_of(Grammar::Python, src, &[]);
    // Control: a call with no comparison still only holds.
    assert_eq!(
        expects(&t[0]),
        ["`len(signed)` is at most 64", "`signed.isalnum()` holds"]
    );
}

#[test]
fn an_rstest_reuse_applied_function_is_a_test_of_cases_and_its_template_is_none() {
    let src = "mod tests {\n    use rstest::rstest;\n    use rstest_reuse::{apply, template};\n\n    #[template]\n    #[rstest]\n    fn opts(#[values(false, true)] echo: bool) {}\n\n    #[apply(opts)]\n    fn ksh_ksh(echo: bool) {\n        assert!(render(echo).is_ok());\n    }\n\n    #[test]\n    fn plain() {\n        assert_eq!(sum(1, 2), 3);\n    }\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    let names: Vec<(&str, bool)> = t.iter().map(|t| (t.name.as_str(), t.cases)).collect();
    assert_eq!(names, [("ksh_ksh", true), ("plain", false)]);
}

#[test]
fn an_apply_attribute_without_rstest_reuse_is_no_test() {
    let src = "#[apply(opts)]\nfn configure(x: u8) {\n    assert!(x > 0);\n}\n#[test]\nfn a() {}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    let names: Vec<&str> = t.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["a"]);
}

#[test]
fn an_rstest_with_case_values_expands_into_cases_and_one_with_fixtures_only_does_not() {
    let src = "use rstest::*;\n\n#[rstest]\n#[case(1, 2)]\n#[case(2, 4)]\nfn doubles(#[case] n: u8, #[case] want: u8) {\n    assert_eq!(n * 2, want);\n}\n\n#[rstest]\nfn checks(#[values(\"a\", \"b\")] s: &str) {\n    assert!(!s.is_empty());\n}\n\n#[rstest]\nfn uses_a_fixture(db: Db) {\n    assert!(db.is_empty());\n}\n";
    let t = tests_of(Grammar::Rust, src, &[]);
    let names: Vec<(&str, bool)> = t.iter().map(|t| (t.name.as_str(), t.cases)).collect();
    assert_eq!(
        names,
        [
            ("doubles", true),
            ("checks", true),
            ("uses_a_fixture", false)
        ]
    );
}

#[test]
fn a_go_expected_value_built_from_literals_is_quoted_with_them() {
    let src = "package m\n\nfunc TestHelp(t *testing.T) {\n\tout := render(app)\n\texpected := \"COMMANDS:\\n\" +\n\t\t\"   run  runs it\"\n\tif out != expected {\n\t\tt.Errorf(\"got %q\", out)\n\t}\n\twant := fmt.Sprintf(\"%d items of %s\", 3, name)\n\tif got := count(); got != want {\n\t\tt.Error(got)\n\t}\n\tlines := strings.Join([]string{\"apple\", // a fruit\n\t\t\"pear\"}, \"\\n\")\n\tassert.Equal(t, lines, list())\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(
        expects(t),
        [
            "`out` is \"COMMANDS:\\n\" + \" run runs it\"",
            "`got` is fmt.Sprintf(\"%d items of %s\", 3, name)",
            "`list()` equals strings.Join([]string{\"apple\", \"pear\"}, \"\\n\")",
        ]
    );
    // Control: a format, a join or a call of the code under test that adds no text of
    // its own builds no expected value.
    let src = "package m\n\nfunc TestHelp(t *testing.T) {\n\twant := fmt.Sprintf(\"%v\", x)\n\tif got := f(); got != want {\n\t\tt.Error(got)\n\t}\n\tjoined := strings.Join(parts, \"\\n\")\n\tif g := h(); g != joined {\n\t\tt.Error(g)\n\t}\n\texp := Parse(\"x: y\")\n\tif r := k(); r != exp {\n\t\tt.Error(r)\n\t}\n}\n";
    assert!(expects(&tests_of(Grammar::Go, src, &[])[0]).is_empty());
}

#[test]
fn a_go_affix_check_expects_its_text_of_the_subject() {
    let src = "package m\n\nfunc TestOut(t *testing.T) {\n\tout := run()\n\twant := \"usage: \" + name\n\tif !strings.Contains(out, want) {\n\t\tt.Errorf(\"no usage\")\n\t}\n\tif !bytes.HasSuffix(buf, \"\\n\" + \"done\") {\n\t\tt.Error(\"unfinished\")\n\t}\n\tassert.True(t, strings.HasPrefix(out, \"v1\"))\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(
        expects(t),
        [
            "`out` contains \"usage: \" + name",
            "`buf` ends with \"\\n\" + \"done\"",
            "`out` starts with \"v1\"",
        ]
    );
    // Control: a text the test does not write out, or another package's `Contains`,
    // stays the call that must hold.
    let src = "package m\n\nfunc TestOut(t *testing.T) {\n\tif !strings.Contains(out, name) {\n\t\tt.Error(\"x\")\n\t}\n\tif !slices.Contains(list, \"a\") {\n\t\tt.Error(\"y\")\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(
        expects(t),
        [
            "`strings.Contains(out, name)` holds",
            "`slices.Contains(list, \"a\")` holds"
        ]
    );
}

#[test]
fn a_go_equality_call_expects_the_value_the_test_wrote() {
    let src = "package m\n\nfunc TestArgs(t *testing.T) {\n\twantArgs := []string{\"-fg\", \"arg0\"}\n\tif !reflect.DeepEqual(f.Args(), wantArgs) {\n\t\tt.Errorf(\"args\")\n\t}\n\tif reflect.DeepEqual(g(), \"x\") {\n\t\tt.Error(\"same\")\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(
        expects(t),
        [
            "`f.Args()` is []string{\"-fg\", \"arg0\"}",
            "`g()` is not \"x\""
        ]
    );
    // Control: with neither side written out, the call is what must hold; another
    // package's `Equal` is no equality known.
    let src = "package m\n\nfunc TestArgs(t *testing.T) {\n\tif !reflect.DeepEqual(f.Args(), want) {\n\t\tt.Errorf(\"args\")\n\t}\n\tif !geom.Equal(p, \"x\") {\n\t\tt.Error(\"p\")\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(
        expects(t),
        [
            "`reflect.DeepEqual(f.Args(), want)` holds",
            "`geom.Equal(p, \"x\")` holds"
        ]
    );
}

#[test]
fn a_go_test_whose_checks_live_in_a_helper_given_its_t_expects_what_they_expect() {
    let src = "package m\n\nfunc checkArgs(f *FlagSet, t *testing.T) {\n\twant := []string{\"-fg\", \"arg0\"}\n\tif !reflect.DeepEqual(f.Args(), want) {\n\t\tt.Errorf(\"args\")\n\t}\n}\n\nfunc TestArgs(t *testing.T) {\n\tcheckArgs(NewFlagSet(), t)\n}\n\nfunc TestOwn(t *testing.T) {\n\tcheckArgs(NewFlagSet(), t)\n\tif got := f(); got != \"x\" {\n\t\tt.Error(got)\n\t}\n}\n";
    let ts = tests_of(Grammar::Go, src, &[]);
    let by_name = |n: &str| ts.iter().find(|t| t.name == n).unwrap();
    assert_eq!(
        expects(by_name("TestArgs")),
        ["`f.Args()` is []string{\"-fg\", \"arg0\"}"]
    );
    // Control: a test with a check of its own keeps its own.
    assert_eq!(expects(by_name("TestOwn")), ["`got` is \"x\""]);
    // Control: a function that is not handed the test's `t` passes nothing on.
    let plain = src.replace(
        "checkArgs(f *FlagSet, t *testing.T)",
        "checkArgs(f *FlagSet, t *log.Logger)",
    );
    let ts = tests_of(Grammar::Go, &plain, &[]);
    assert!(expects(ts.iter().find(|t| t.name == "TestArgs").unwrap()).is_empty());
}

#[test]
fn a_go_if_initializer_binds_before_its_condition() {
    let src = "package m\n\nfunc TestSafe(t *testing.T) {\n\tif want, got := Safe(foo), \"foo\"; want != got {\n\t\tt.Errorf(\"want %s\", want)\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(expects(t), ["`want` is \"foo\""]);
    // Control: an initializer bound to a call gives no value.
    let src = src.replace("\"foo\"; want", "Other(); want");
    assert!(expects(&tests_of(Grammar::Go, &src, &[])[0]).is_empty());
}

#[test]
fn an_error_check_follows_the_value_checks() {
    let src = "package m\n\nfunc TestRun(t *testing.T) {\n\tout, err := run()\n\tif err != nil {\n\t\tt.Fatal(err)\n\t}\n\tif out != \"ok\" {\n\t\tt.Error(out)\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(expects(t), ["`out` is \"ok\"", "`err` is nil"]);
    // Control: a nil check of a value that is no error keeps its place.
    let src = src.replace("err != nil", "conn != nil");
    let t = &tests_of(Grammar::Go, &src, &[])[0];
    assert_eq!(expects(t), ["`conn` is nil", "`out` is \"ok\""]);
}

#[test]
fn node_assert_ok_reads_its_condition_and_message() {
    let src = "it('renders', () => {\n  assert.ok(res.text.includes('<h1>'), 'has a title');\n  assert(res.status === 200);\n  assert.ok(!body.startsWith('#'));\n  assert.ok(isReady(app));\n});\n";
    let t = &tests_of(Grammar::JavaScript, src, &[])[0];
    assert_eq!(
        expects(t),
        [
            "`res.text` contains '<h1>' ('has a title')",
            "`res.status` is 200",
            "`body` does not start with '#'",
            "`isReady(app)` holds",
        ]
    );
    // Control: a comparison of two computed values names no value; a message that is
    // no literal is left out.
    let src = "it('x', () => {\n  assert.ok(a === b, msg);\n});\n";
    let t = &tests_of(Grammar::JavaScript, src, &[])[0];
    assert_eq!(expects(t), ["`a === b` holds"]);
}

#[test]
fn a_python_module_constant_bound_to_a_literal_is_an_expected_value() {
    let src = "EXPECTED = \"a,b\\n\"\nLIMIT = 3\nLIMIT = 4\nHELP = make_help()\n\ndef test_csv():\n    assert render() == EXPECTED\n    assert count() == LIMIT\n    assert usage() == HELP\n\ndef test_shadowed():\n    EXPECTED = compute()\n    assert render() == EXPECTED\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(
        expects(&t[0]),
        [
            "`render()` is \"a,b\\n\"",
            "`count() == LIMIT` holds",
            "`usage() == HELP` holds"
        ]
    );
    // Control: a test's own binding of the name hides the module's.
    assert_eq!(expects(&t[1]), ["`render() == EXPECTED` holds"]);
}

#[test]
fn numbers_inside_a_triple_quoted_string_are_left_as_written() {
    assert_eq!(
        values_as_code("`out` is \"\"\"\nline 1 \"a\" 2\n\"\"\" for `n` 3"),
        "`out` is \"\"\"\nline 1 \"a\" 2\n\"\"\" for `n` `3`"
    );
    assert_eq!(
        values_as_code("`out` is '''it's 12''' and 5"),
        "`out` is '''it's 12''' and `5`"
    );
}

#[test]
fn a_tests_calls_that_check_nothing_are_its_set_up_calls() {
    let src = "def test_run(client):\n    client.login('ann')\n    seed(db)\n    x = load()\n    assert client.get('/') == 200\n    check_page(client, 'home')\n    client.logout()\n";
    let t = &tests_of(Grammar::Python, src, &[])[0];
    let calls: Vec<(u32, &str)> = t
        .setup_calls
        .iter()
        .map(|c| (c.line, c.text.as_str()))
        .collect();
    // Control: a bound call, an assertion and a call named as a check are none.
    assert_eq!(
        calls,
        [
            (2, "client.login('ann')"),
            (3, "seed(db)"),
            (7, "client.logout()")
        ]
    );
}

#[test]
fn a_pytest_raises_match_is_the_message_expected() {
    let src = "def test_a():\n    with pytest.raises(TypeError, match=r\"must be a class\\.\"):\n        fields(object())\n\ndef test_b():\n    with pytest.raises(ValueError, match=pattern):\n        f()\n";
    let t = tests_of(Grammar::Python, src, &[]);
    assert_eq!(
        expects(&t[0]),
        ["raises TypeError matching r\"must be a class\\.\""]
    );
    // Control: a pattern that is no literal names no message.
    assert_eq!(expects(&t[1]), ["raises ValueError"]);
}

#[test]
fn a_go_element_of_a_list_of_literals_is_expected_with_the_list() {
    let src = "package m\n\nfunc TestSplit(t *testing.T) {\n\topts := []string{\"opt1\", \"opt3,op\"}\n\tret := split(strings.Join(opts, \";\"))\n\tfor idx, r := range ret {\n\t\tif r != opts[idx] {\n\t\t\tt.Fatalf(\"got %s\", r)\n\t\t}\n\t}\n}\n";
    let t = &tests_of(Grammar::Go, src, &[])[0];
    assert_eq!(
        expects(t),
        ["`r` is opts[idx] of []string{\"opt1\", \"opt3,op\"}"]
    );
    // Control: a list holding a computed element, or bound again, gives no value.
    let computed = src.replace("\"opt3,op\"}", "name}");
    assert!(expects(&tests_of(Grammar::Go, &computed, &[])[0]).is_empty());
    let rebound = src.replace("\tret := split", "\topts = load()\n\tret := split");
    assert!(expects(&tests_of(Grammar::Go, &rebound, &[])[0]).is_empty());
}

/// A Kotlin file whose first test the parser cannot close (`in1.skip(3)` reads as an
/// `in` check) when a later raw string follows: `first` swallows the tests after it.
const KOTLIN_SWALLOWING: &str = "class A {\n  @Test\n  fun first() {\n    val in1 = r.source()\n    in1.skip(3)\n    in1.close()\n    val in2 = r.source()\n    assertThat(in2.exhausted()).isTrue()\n    in2.close()\n  }\n\n  @Test\n  fun second() {\n    assertThat(x).isEqualTo(\"bee\")\n  }\n\n  @Test\n  fun third() {\n    val body = \"\"\"\n      1\n\n      \"\"\".trimIndent()\n    val journal = \"\"\"a\n1\n\nCLEAN $k ${body.length}\n\"\"\"\n    assertThat(y).isEqualTo(\"sea\")\n  }\n}\n";

#[test]
fn a_kotlin_test_the_parser_cannot_close_ends_at_its_closing_line_and_the_tests_it_swallowed_are_read(
) {
    let mut t = tests_of(Grammar::Kotlin, KOTLIN_SWALLOWING, &[]);
    t.sort_by_key(|t| t.line);
    let read: Vec<(&str, u32, u32)> = t.iter().map(|t| (t.name.as_str(), t.line, t.end)).collect();
    assert_eq!(
        read,
        [("first", 2, 10), ("second", 12, 15), ("third", 17, 29)]
    );
    assert!(t[1].expects.iter().any(|e| e.text.contains("\"bee\"")));
    assert!(t[2].expects.iter().any(|e| e.text.contains("\"sea\"")));
    assert!(!t[0].expects.iter().any(|e| e.text.contains("bee")));
}

#[test]
fn a_kotlin_test_with_a_parse_error_that_still_closes_is_read_once_as_before() {
    // The same error, without the raw string that makes the parser run on: each test
    // closes where it does, and none is read twice.
    let src = "class A {\n  @Test\n  fun first() {\n    val in1 = r.source()\n    in1.skip(3)\n    assertThat(in1.exhausted()).isTrue()\n  }\n\n  @Test\n  fun second() {\n    assertThat(x).isEqualTo(\"bee\")\n  }\n}\n";
    let t = tests_of(Grammar::Kotlin, src, &[]);
    let read: Vec<(&str, u32, u32)> = t.iter().map(|t| (t.name.as_str(), t.line, t.end)).collect();
    assert_eq!(read, [("first", 2, 7), ("second", 9, 12)]);
}

/// The expectations of one Java (or Kotlin) test whose body is `body`.
fn jvm_expects(g: Grammar, body: &str) -> Vec<String> {
    let src = match g {
        Grammar::Kotlin => format!("import kotlin.test.Test\nclass ATest {{\n    @Test\n    fun a() {{\n{body}    }}\n}}\n"),
        _ => format!("import org.junit.jupiter.api.Test;\nclass ATest {{\n    @Test\n    void a() {{\n{body}    }}\n}}\n"),
    };
    let t = tests_of(g, &src, &[]);
    t[0].expects.iter().map(|e| e.text.clone()).collect()
}

#[test]
fn a_jvm_string_that_escapes_quotes_is_shown_as_the_text_it_holds() {
    let java = "        assertEquals(\"\\\"NEW\\\"\", gson.toJson(State.NEW));\n        assertEquals(\"{\\\"a\\\":\\\"b\\\\\\\\c\\\"}\", json());\n        assertEquals(\"plain\\n\", text());\n";
    assert_eq!(
        jvm_expects(Grammar::Java, java),
        [
            "`gson.toJson(State.NEW)` is the text `\"NEW\"`",
            "`json()` is the text `{\"a\":\"b\\\\c\"}`",
            // Negative control: no escaped quote, the literal as written.
            "`text()` is \"plain\\n\""
        ]
    );
    let kt = "        assertThat(body()).isEqualTo(\"\\\"x\\\"\")\n        assertThat(name()).isEqualTo(\"x\")\n";
    assert_eq!(
        jvm_expects(Grammar::Kotlin, kt),
        ["`body()` is the text `\"x\"`", "`name()` is \"x\""]
    );
}

#[test]
fn a_jvm_expected_value_joined_from_strings_is_shown_by_its_parts() {
    let java = "        assertEquals(\"b\" + emoji + \"a\", reverse(s));\n        assertThat(digits(s)).isEqualTo(one + \"9\");\n        assertEquals(prefix + suffix, join(s));\n        assertEquals(f(\"a\" + b), g(s));\n";
    assert_eq!(
        jvm_expects(Grammar::Java, java),
        [
            "`reverse(s)` equals \"b\" + `emoji` + \"a\"",
            "`digits(s)` is `one` + \"9\"",
            // Negative controls: no literal part, or a `+` inside a call.
            "`join(s)` equals `prefix + suffix`",
            "`g(s)` equals `f(\"a\" + b)`"
        ]
    );
    let kt = "        assertThat(reverse(s)).isEqualTo(\"b\" + emoji)\n        assertThat(sum(s)).isEqualTo(a + b)\n";
    assert_eq!(
        jvm_expects(Grammar::Kotlin, kt),
        ["`reverse(s)` is \"b\" + `emoji`", "`sum(s)` is `a + b`"]
    );
}

#[test]
fn short_parts_of_a_joined_value_read_as_code_values() {
    assert_eq!(
        values_as_code("`reverse(s)` equals \"b\" + `emoji` + \"a\""),
        "`reverse(s)` equals `\"b\"` + `emoji` + `\"a\"`"
    );
}

#[test]
fn a_java_name_given_a_new_literal_holds_it_at_the_assertions_that_follow() {
    let java = "        String expected = \"a\";\n        assertEquals(expected, f(1));\n        expected = \"b,c\";\n        assertEquals(expected, f(2));\n        expected = g();\n        assertEquals(expected, f(3));\n";
    assert_eq!(
        jvm_expects(Grammar::Java, java),
        [
            "`f(1)` is \"a\"",
            "`f(2)` is \"b,c\"",
            // Negative control: a value that is no literal leaves the name without one.
            "`f(3)` equals `expected`"
        ]
    );
}

#[test]
fn ava_serial_and_failing_tests_are_tests_and_a_plain_serial_call_is_not() {
    let src = "import test from 'ava';\ntest.serial('resolves', t => { t.is(f(), 'a'); });\ntest.serial.skip('later', t => {});\ntest.failing('known bug', t => { t.true(g()); });\nserial('not a test', t => { t.is(f(), 'b'); });\ntest.before(t => { setup(); });\n";
    let want = [
        ("resolves", None),
        ("later", Some("test.skip")),
        ("known bug", None),
    ];
    assert_eq!(skips(&tests_of(Grammar::JavaScript, src, &[])), want);
}

/// Each test's title with the marker that skips it.
fn skips(t: &[Test]) -> Vec<(&str, Option<&str>)> {
    t.iter()
        .map(|t| (t.title.as_str(), t.skipped.as_deref()))
        .collect()
}

#[test]
fn the_test_contexts_assertions_are_expectations_and_the_same_calls_elsewhere_are_not() {
    let src = "test('kills', async context => {\n  const want = 'C:\\\\Windows';\n  context.is(getFile(), want);\n  context.not(a, 1);\n  context.deepEqual(list(), ['x']);\n  context.true(isRunning(pid));\n  context.false(done);\n  context.regex(out, /ok/);\n  await context.throwsAsync(run(), {message: 'boom'});\n  context.snapshot(render());\n  context.plan(2);\n  t.is(other, 'unread');\n});\ntest('tap', t => { t.equal(sum(1), 1); t.same(obj, {a: 1}); t.assert.strictEqual(x, 'y'); });\nit('jest', () => { t.is(x, 'no context'); });\nfunction helper(t) { t.is(x, 'outside'); }\n";
    let t = tests_of(Grammar::JavaScript, src, &[]);
    let [context, tap, jest] = t.as_slice() else {
        panic!("three tests: {t:?}");
    };
    assert_eq!(
        expects(context),
        [
            "`getFile()` is 'C:\\\\Windows'",
            "`a` is not 1",
            "`list()` deep equals ['x']",
            "`isRunning(pid)` is true",
            "`done` is false",
            "`out` matches /ok/",
            "`run()` rejects {message: 'boom'}",
            "`render()` matches the snapshot",
        ]
    );
    assert_eq!(
        expects(tap),
        ["`sum(1)` is 1", "`obj` deep equals {a: 1}", "`x` is 'y'"]
    );
    assert!(expects(jest).is_empty(), "{:?}", expects(jest));
}

#[test]
fn a_test_given_a_function_by_name_runs_it_with_its_inputs_and_a_skipped_one_does_not() {
    let src = "const check = async (t, filter, buffer) => {\n  const out = await send({filter, buffer});\n  t.is(out.count, buffer);\n};\ntest('buffer false', check, isTrue, false);\ntest('buffer true', check, isTrue, true);\ntest.skip('buffer later', check, isTrue, true);\nit('no body');\n";
    let t = tests_of(Grammar::JavaScript, src, &[]);
    assert_eq!(
        skips(&t),
        [
            ("buffer false", None),
            ("buffer true", None),
            ("buffer later", Some("test.skip")),
            ("no body", Some("it without a body"))
        ]
    );
    assert_eq!(expects(&t[0]), ["`out.count` is false"]);
    assert_eq!(expects(&t[1]), ["`out.count` is true"]);
    assert!(t[0].calls.contains(&"send".to_string()), "{:?}", t[0].calls);
    assert!(
        t[0].setup
            .as_deref()
            .is_some_and(|s| s.starts_with("`filter` set to `isTrue`, `buffer` set to `false`")),
        "{:?}",
        t[0].setup
    );
}

#[test]
fn a_function_from_another_file_given_by_name_expects_the_calls_literal_inputs() {
    let src = "import {testKill} from './helpers.js';\ntest('kills after 2s', testKill, 'SIGTERM', 2000);\ntest('kills any', testKill, signal);\n";
    let t = tests_of(Grammar::JavaScript, src, &[]);
    assert_eq!(t[0].skipped, None);
    assert_eq!(expects(&t[0]), ["`testKill('SIGTERM', 2000)` holds"]);
    assert_eq!(t[0].helper_calls.len(), 1);
    assert_eq!(t[1].skipped, None);
    assert!(expects(&t[1]).is_empty());
}

#[test]
fn tsd_assertions_are_the_expectations_of_a_type_test_and_the_same_names_without_tsd_are_not() {
    let src = "import {expectType, expectAssignable, expectNotAssignable, expectError} from 'tsd';\nimport {execa} from '../index.js';\n\nexpectType<string>(await execa('a').stdout);\nexpectAssignable<Uint8Array>(chunk);\nexpectNotAssignable<string>(chunk);\nexpectError(execa({binary: 1}));\n";
    let t = tests_of(Grammar::TypeScript, src, &[]);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].skipped, None);
    assert_eq!(
        expects(&t[0]),
        [
            "`await execa('a').stdout` has the type `string`",
            "`chunk` is assignable to `Uint8Array`",
            "`chunk` is not assignable to `string`",
            "`execa({binary: 1})` is a type error",
        ]
    );
    let own = "const expectType = <T>(x: T) => x;\nexpectType<string>(name);\n";
    assert!(tests_of(Grammar::TypeScript, own, &[]).is_empty());
}

#[test]
fn a_rust_predicate_over_literal_inputs_is_an_expectation_of_them() {
    let t = tests_of(
        Grammar::Rust,
        r#"#[test]
fn decides() {
    let mut m = matchers();
    assert!(matchedf(&mut m, "src/drop.tmp").is_ignore());
    assert!(!matchedf(&mut m, "src/keep.tmp").is_ignore());
    assert!(out.contains("hello"));
    assert!(is_hidden_path(".git"));
    assert!(m.is_empty());
    assert!(a.is_some() && b.is_ok());
}
"#,
        &[],
    );
    assert_eq!(
        expects(&t[0]),
        [
            "`matchedf(&mut m, \"src/drop.tmp\")` satisfies `is_ignore()`",
            "`matchedf(&mut m, \"src/keep.tmp\")` does not satisfy `is_ignore()`",
            "`out` contains \"hello\"",
            "`is_hidden_path(\".git\")` is true",
            // No literal input, or no single predicate: still a bare check.
            "`m.is_empty()` holds",
            "`a.is_some() && b.is_ok()` holds",
        ]
    );
}

#[test]
fn predicates_over_literal_inputs_read_alike_in_other_languages() {
    let cases: [(Grammar, &str, &[&str]); 3] = [
        (
            Grammar::Python,
            "def test_a():\n    assert m.is_ignored('a.tmp')\n    assert not m.is_ignored('b.rs')\n    assert m.ready()\n",
            &[
                "`m` satisfies `is_ignored('a.tmp')`",
                "`m` does not satisfy `is_ignored('b.rs')`",
                "`m.ready()` holds",
            ],
        ),
        (
            Grammar::Java,
            "class T {\n  @Test\n  void a() {\n    assertTrue(matcher.isIgnored(\"a.tmp\"));\n    assertFalse(name.startsWith(\"x\"));\n    assertTrue(list.isEmpty());\n  }\n}\n",
            &[
                "`matcher` satisfies `isIgnored(\"a.tmp\")`",
                "`name` does not start with \"x\"",
                "`list.isEmpty()` holds",
            ],
        ),
        (
            Grammar::JavaScript,
            "test('a', () => {\n  expect(isHidden('.git')).toBe(true);\n  expect(ready()).toBe(true);\n});\n",
            &["`isHidden('.git')` is true", "`ready()` is true"],
        ),
    ];
    for (g, src, want) in cases {
        assert_eq!(expects(&tests_of(g, src, &[])[0]), want, "{g:?}");
    }
}

#[test]
fn the_act_of_a_predicate_over_literal_inputs_is_the_call_it_asks() {
    let src = "#[test]\nfn decides() {\n    let mut m = matchers();\n    assert!(matchedf(&mut m, \"a.tmp\").is_ignore());\n}\n#[test]\nfn bare() {\n    assert!(state().is_ready());\n}\n";
    let acts: Vec<Option<String>> = tests_of(Grammar::Rust, src, &[])
        .into_iter()
        .map(|t| t.act)
        .collect();
    // Without a literal input the predicate stays the checked call, as before.
    assert_eq!(
        acts,
        [
            Some("matchedf(&mut m, \"a.tmp\")".to_string()),
            Some("state().is_ready()".to_string())
        ]
    );
}

//! The bash, zsh and fish completions qa-completions writes for every binary, from its
//! clap command.

use crate::common;

use qa_testkit::Program;
use std::path::Path;

/// Every long flag of `name` that --help shows (top level).
fn flags(command: &clap::Command) -> Vec<String> {
    command
        .get_arguments()
        .filter(|a| !a.is_hide_set())
        .filter_map(|a| a.get_long().map(str::to_string))
        .collect()
}

/// Whether `text` holds `token` as a whole word (not the start of a longer flag).
fn names(text: &str, token: &str) -> bool {
    text.match_indices(token).any(|(at, _)| {
        !text[at + token.len()..]
            .starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    })
}

fn generate() -> tempfile::TempDir {
    let prefix = tempfile::tempdir().unwrap();
    Program::at(env!("CARGO_BIN_EXE_qa-completions"))
        .invocation()
        .arg(prefix.path())
        .run()
        .success();
    prefix
}

/// What bash offers for `words` (the last one being completed) after sourcing `script`.
fn bash_offers(script: &Path, name: &str, words: &[&str]) -> Vec<String> {
    let line = words.join(" ");
    let program = format!(
        r#"source "$1" || exit 3
spec=$(complete -p {name}) || exit 4
f=${{spec##*-F }}; f=${{f%% *}}
COMP_WORDS=({line}); COMP_CWORD={cword}; COMP_LINE="{line}"; COMP_POINT=${{#COMP_LINE}}
"$f" {name} "${{COMP_WORDS[COMP_CWORD]}}" "${{COMP_WORDS[COMP_CWORD-1]}}"
printf '%s\n' "${{COMPREPLY[@]}}""#,
        cword = words.len() - 1
    );
    let run = Program::at("bash")
        .invocation()
        .args(["--norc", "--noprofile", "-c", &program, "bash"])
        .arg(script)
        .run()
        .success();
    run.text().lines().map(str::to_string).collect()
}

#[test]
fn every_binary_gets_bash_zsh_and_fish_completions_where_each_shell_looks() {
    let prefix = generate();
    for (name, _) in qa_packaging::commands() {
        for relative in [
            format!("share/bash-completion/completions/{name}"),
            format!("share/zsh/site-functions/_{name}"),
            format!("share/fish/vendor_completions.d/{name}.fish"),
        ] {
            let file = prefix.path().join(&relative);
            let size = std::fs::metadata(&file).map(|m| m.len()).unwrap_or(0);
            assert!(size > 0, "{relative} missing or empty");
        }
    }
}

#[test]
fn bash_completion_registers_each_binary_and_offers_its_flags() {
    let prefix = generate();
    for (name, command) in qa_packaging::commands() {
        let script = prefix
            .path()
            .join("share/bash-completion/completions")
            .join(name);
        let offered = bash_offers(&script, name, &[name, "--"]);
        for flag in flags(&command) {
            assert!(
                offered.contains(&format!("--{flag}")),
                "{name}: bash does not offer --{flag}: {offered:?}"
            );
        }
    }
}

#[test]
fn bash_completion_of_qa_manifest_offers_its_commands() {
    let prefix = generate();
    let script = prefix
        .path()
        .join("share/bash-completion/completions/qa-manifest");
    assert_eq!(
        bash_offers(&script, "qa-manifest", &["qa-manifest", "ac"]),
        ["accept"]
    );
}

#[test]
fn zsh_and_fish_completions_name_every_flag() {
    let prefix = generate();
    for (name, command) in qa_packaging::commands() {
        let zsh = std::fs::read_to_string(
            prefix
                .path()
                .join(format!("share/zsh/site-functions/_{name}")),
        )
        .unwrap();
        let fish = std::fs::read_to_string(
            prefix
                .path()
                .join(format!("share/fish/vendor_completions.d/{name}.fish")),
        )
        .unwrap();
        assert!(
            zsh.starts_with(&format!("#compdef {name}")),
            "{name}: {zsh:.40}"
        );
        assert!(
            fish.contains(&format!("complete -c {name} ")),
            "{name}: {fish:.40}"
        );
        for flag in flags(&command) {
            assert!(names(&zsh, &format!("--{flag}")), "zsh {name}: --{flag}");
            assert!(
                names(&fish, &format!("-l {flag}")),
                "fish {name}: -l {flag}"
            );
        }
    }
}

#[test]
fn zsh_and_fish_completions_parse_where_the_shells_are_installed() {
    let prefix = generate();
    for (shell, dir, file) in [
        ("zsh", "share/zsh/site-functions", "_qa-diff"),
        ("fish", "share/fish/vendor_completions.d", "qa-diff.fish"),
    ] {
        if !common::on_path(shell) {
            eprintln!("{shell} not installed: syntax not checked");
            continue;
        }
        Program::at(shell)
            .invocation()
            .arg("-n")
            .arg(prefix.path().join(dir).join(file))
            .run()
            .success();
    }
}

#[test]
fn the_generator_without_a_prefix_is_a_usage_error() {
    let run = Program::at(env!("CARGO_BIN_EXE_qa-completions"))
        .invocation()
        .run();
    assert_eq!(run.code, 64, "{}", run.stderr);
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

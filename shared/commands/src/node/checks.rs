//! The scripts of a package.json package that validate its changed configuration and
//! shipped files: `validate:*`, `typecheck`, `build`, `build:<platform>`, `lint`.

use super::manager::Manager;
use super::runners::{never_ends, programs, sole_program};
use super::workspace::{Owner, Package, Workspace};
use crate::delivery::{by_check, is_type_test, Check, Concern, CHECKS};
use crate::tree::{under, Reader};
use crate::{Candidate, Found};
use qa_records::change::CommandScope;

/// Changed files of one package, with what each is.
struct Owned<'a> {
    package: Package,
    /// True for a workspace member, which the root's manager aims at by name.
    member: bool,
    files: Vec<(&'a str, Concern)>,
}

/// The checks of every package that owns a changed configuration or shipped file.
pub fn checks(reader: &mut Reader, concerned: &[(&str, Concern)], found: &mut Found) {
    let workspace = Workspace::read(reader);
    let root_manager = workspace.root.as_ref().map(|r| r.manager(reader.tree()));
    let mut owned: Vec<Owned> = Vec::new();
    for &(file, concern) in concerned {
        let (package, member) = match workspace.owner(reader, file) {
            Some(Owner::Member(dir)) => match Package::read(reader, &dir) {
                Some(package) => (package, true),
                None => continue,
            },
            Some(Owner::Project(package)) => (package, false),
            None => continue,
        };
        match owned.iter_mut().find(|o| o.package.dir == package.dir) {
            Some(o) => o.files.push((file, concern)),
            None => owned.push(Owned {
                package,
                member,
                files: vec![(file, concern)],
            }),
        }
    }
    // A member without a script for a check leaves it to the workspace root's, which
    // spans the members (`"typecheck": "tsc -b"` at the root of a monorepo).
    let mut to_root: Vec<(Check, Vec<&str>)> = Vec::new();
    for o in &owned {
        let manager = match (o.member, root_manager) {
            (true, Some(manager)) => manager,
            _ => o.package.manager(reader.tree()),
        };
        for (check, files) in package_checks(o, manager, found) {
            if !o.member {
                unchecked(check, &files, &o.package.manifest, found);
                continue;
            }
            match to_root.iter_mut().find(|(c, _)| *c == check) {
                Some((_, all)) => all.extend(files),
                None => to_root.push((check, files)),
            }
        }
    }
    if let (Some(root), Some(manager)) = (&workspace.root, root_manager) {
        to_root.sort_by_key(|(check, _)| CHECKS.iter().position(|c| c == check));
        for (check, files) in to_root {
            if !script_checks(root, None, manager, check, &files, found) {
                unchecked(check, &files, &root.manifest, found);
            }
        }
    }
}

/// Says so when no script of `manifest` type-checks changed type tests: they would
/// otherwise seem covered by the test commands, whose runners do not load them.
fn unchecked(check: Check, files: &[&str], manifest: &str, found: &mut Found) {
    let tests: Vec<&str> = files.iter().copied().filter(|f| is_type_test(f)).collect();
    if check != Check::Typecheck || tests.is_empty() {
        return;
    }
    found.problems.push(format!(
        "no script of `{manifest}` type-checks the changed type tests ({}): none starts tsd or a type checker, and the test commands do not run them",
        tests
            .iter()
            .map(|f| format!("`{f}`"))
            .collect::<Vec<_>>()
            .join(", ")
    ));
}

/// One package's checks, in the order of [`CHECKS`], each for the files it loads; returns
/// the checks it declares no script for, with their files.
fn package_checks<'a>(
    o: &Owned<'a>,
    manager: Manager,
    found: &mut Found,
) -> Vec<(Check, Vec<&'a str>)> {
    let package = &o.package;
    let member = match package.name() {
        Some(name) if o.member => {
            let Some(name) = found.word(name, "the package name", &package.manifest) else {
                return Vec::new();
            };
            Some(name)
        }
        _ => None,
    };
    let named = naming_scripts(o, member.as_deref(), manager, found);
    by_check(&o.files)
        .into_iter()
        .filter(|(check, files)| {
            !script_checks(package, member.as_deref(), manager, *check, files, found) && !named
        })
        .collect()
}

/// The scripts that name a changed file (`"build-dts": "rollup -c rollup.dts.config.js"`):
/// they load it, so they come first. True when there is one.
fn naming_scripts(o: &Owned, member: Option<&str>, manager: Manager, found: &mut Found) -> bool {
    let package = &o.package;
    let mut any = false;
    for (name, body) in package.scripts() {
        let Some(body) = body.as_str().filter(|_| name != "test") else {
            continue;
        };
        let files: Vec<&str> = o
            .files
            .iter()
            .map(|(f, _)| *f)
            .filter(|f| under(f, &package.dir).is_some_and(|rel| names_file(body, rel)))
            .collect();
        if files.is_empty() {
            continue;
        }
        let check = Check::of_script(name, sole_program(body));
        if let Some(mut candidate) = script_command(package, member, manager, name, body, found) {
            candidate = candidate.checking(check, name, &files);
            candidate.why = Check::why_named(name, &files);
            found.candidates.push(candidate);
            any = true;
        }
    }
    any
}

/// True when `body` names `path` as a whole word (`-c rollup.dts.config.js`,
/// `--env-file=./.env.production`).
fn names_file(body: &str, path: &str) -> bool {
    let starts = |c: char| c.is_whitespace() || matches!(c, '=' | '"' | '\'' | '/');
    let ends = |c: char| c.is_whitespace() || matches!(c, '"' | '\'' | ';' | '&' | '|' | ')');
    body.match_indices(path).any(|(i, _)| {
        let before = body[..i].chars().next_back();
        let after = body[i + path.len()..].chars().next();
        before.is_none_or(starts) && after.is_none_or(ends)
    })
}

/// The script `name` of `package` as a command, when it is fit to be one: one line,
/// finishing on its own, its name a plain word.
fn script_command(
    package: &Package,
    member: Option<&str>,
    manager: Manager,
    name: &str,
    body: &str,
    found: &mut Found,
) -> Option<Candidate> {
    let what = format!("the `{name}` script");
    if !found.accept(body, &what, &package.manifest) || never_ends(body) {
        return None;
    }
    let script = found.word(name, "a script name", &package.manifest)?;
    let (run, dir) = match member {
        Some(member) => (manager.member_script(member, &script), ""),
        None => (manager.script(&script), package.dir.as_str()),
    };
    let mut candidate = Candidate::new(
        manager.runner(),
        run,
        dir,
        CommandScope::Package,
        &package.manifest,
    );
    candidate.script = Some(name.to_string());
    Some(candidate)
}

/// The scripts of `package` that are `check`, as commands for the changed `files`; false
/// when it has none. `member` is the package's name when the root's manager aims at it.
fn script_checks(
    package: &Package,
    member: Option<&str>,
    manager: Manager,
    check: Check,
    files: &[&str],
    found: &mut Found,
) -> bool {
    let mut any = false;
    for (name, body) in package.scripts() {
        let Some(body) = body.as_str() else {
            continue;
        };
        // A type-test runner type-checks wherever it stands in a chain (`tsd && tsc`): it
        // only reads files.
        let by_program = || {
            sole_program(body).is_some_and(|(program, args)| check.is_run_by(&program, &args))
                || check == Check::Typecheck
                    && programs(body).iter().any(|(program, _)| program == "tsd")
        };
        if !check.names(name) && !by_program() {
            continue;
        }
        if let Some(candidate) = script_command(package, member, manager, name, body, found) {
            found
                .candidates
                .push(candidate.checking(check, name, files));
            any = true;
        }
    }
    any
}

#[cfg(test)]
mod tests {
    use super::names_file;

    #[test]
    fn a_script_names_a_file_as_a_whole_word_only() {
        let body = "tsc -p tsconfig.build.json --noCheck && rollup -c rollup.dts.config.js";
        assert!(names_file(body, "rollup.dts.config.js"));
        assert!(names_file(body, "tsconfig.build.json"));
        assert!(names_file(
            "node --env-file=./.env.production x.js",
            ".env.production"
        ));
        assert!(!names_file(body, "dts.config.js"), "part of a longer name");
        assert!(!names_file(
            "rollup -c rollup.dts.config.json",
            "rollup.dts.config.js"
        ));
        assert!(!names_file(body, "tsconfig.json"));
    }
}

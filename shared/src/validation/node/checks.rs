//! The scripts of a package.json package that validate its changed configuration and
//! shipped files: `validate:*`, `typecheck`, `build`, `build:<platform>`, `lint`.

use super::manager::Manager;
use super::runners::{never_ends, sole_program};
use super::workspace::{Owner, Package, Workspace};
use crate::change::CommandScope;
use crate::validation::delivery::{by_check, Check, Concern, CHECKS};
use crate::validation::tree::Reader;
use crate::validation::{Candidate, Found};

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
            script_checks(root, None, manager, check, &files, found);
        }
    }
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
    by_check(&o.files)
        .into_iter()
        .filter(|(check, files)| {
            !script_checks(package, member.as_deref(), manager, *check, files, found)
        })
        .collect()
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
        let by_program =
            || sole_program(body).is_some_and(|(program, args)| check.is_run_by(&program, &args));
        if !check.names(name) && !by_program() {
            continue;
        }
        let what = format!("the `{name}` script");
        if !found.accept(body, &what, &package.manifest) || never_ends(body) {
            continue;
        }
        let Some(script) = found.word(name, "a script name", &package.manifest) else {
            continue;
        };
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
        )
        .checking(check, name, files);
        candidate.script = Some(name.clone());
        found.candidates.push(candidate);
        any = true;
    }
    any
}

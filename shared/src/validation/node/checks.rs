//! The scripts of a package.json package that validate its changed configuration and
//! shipped files: `validate:*`, `typecheck`, `build`, `build:<platform>`, `lint`.

use super::manager::Manager;
use super::runners::{never_ends, sole_program};
use super::workspace::{Owner, Package, Workspace};
use crate::change::CommandScope;
use crate::validation::delivery::{by_check, Concern};
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
    for o in owned {
        let manager = match (o.member, root_manager) {
            (true, Some(manager)) => manager,
            _ => o.package.manager(reader.tree()),
        };
        package_checks(&o, manager, found);
    }
}

/// One package's checks, in the order of [`CHECKS`], each for the files it loads.
fn package_checks(o: &Owned, manager: Manager, found: &mut Found) {
    let package = &o.package;
    let member = match package.name() {
        Some(name) if o.member => {
            let Some(name) = found.word(name, "the package name", &package.manifest) else {
                return;
            };
            Some(name)
        }
        _ => None,
    };
    for (check, files) in by_check(&o.files) {
        for (name, body) in package.scripts() {
            let Some(body) = body.as_str() else {
                continue;
            };
            let by_program = || {
                sole_program(body).is_some_and(|(program, args)| check.is_run_by(&program, &args))
            };
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
            let (run, dir) = match &member {
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
            .checking(check, name, &files);
            candidate.script = Some(name.clone());
            found.candidates.push(candidate);
        }
    }
}

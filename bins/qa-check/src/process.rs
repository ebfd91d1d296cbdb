//! Process groups: signalling a child's whole group and telling whether any of it still
//! lives, so nothing the child started outlives it.

/// SIGKILL to the process group `pgid`.
pub fn kill_group(pgid: u32) {
    signal_group(pgid, libc::SIGKILL);
}

/// Sends `signal` to the process group `pgid`. Returns false when no process is left in
/// the group (or `pgid` cannot name one: 0 and 1 would name our own group or init).
pub fn signal_group(pgid: u32, signal: libc::c_int) -> bool {
    let Ok(pgid) = i32::try_from(pgid) else {
        return false;
    };
    if pgid <= 1 {
        return false;
    }
    // SAFETY: kill(2) takes plain integers; a negative pid names one process group.
    unsafe { libc::kill(-pgid, signal) == 0 }
}

/// True while a process of group `pgid` is alive (zombies not yet reaped count).
pub fn group_alive(pgid: u32) -> bool {
    signal_group(pgid, 0)
}

/// True while a process of group `pgid` is alive and not a zombie: zombies wait only for
/// their parent to reap them and hold nothing open.
pub fn group_has_live_members(pgid: u32) -> bool {
    if !group_alive(pgid) {
        return false;
    }
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return true;
    };
    entries.flatten().any(|entry| {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            return false;
        };
        // After the `(comm)` field: state, ppid, pgrp.
        let Some((_, rest)) = stat.rsplit_once(')') else {
            return false;
        };
        let mut fields = rest.split_whitespace();
        let state = fields.next();
        let group = fields.nth(1);
        group == Some(&pgid.to_string()) && state != Some("Z")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt as _;
    use std::process::Command;

    #[test]
    fn a_group_lives_until_it_is_killed_and_its_leader_reaped() {
        let mut child = Command::new("sleep")
            .arg("30")
            .process_group(0)
            .spawn()
            .unwrap();
        let pgid = child.id();
        assert!(group_has_live_members(pgid));
        kill_group(pgid);
        child.wait().unwrap();
        assert!(!group_has_live_members(pgid));
        assert!(!group_alive(pgid));
    }

    #[test]
    fn our_own_group_and_init_are_never_signalled() {
        assert!(!signal_group(0, 0));
        assert!(!signal_group(1, 0));
    }
}

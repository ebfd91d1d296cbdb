"""The CPU time of a command and of every process it leaves behind (issue 28).

Usage: tree_cpu.py [--json FILE] -- COMMAND [ARG...]

`/usr/bin/time` counts the command and the descendants it reaps. The test suite also
starts servers that outlive the test that started them (the MCP SDK's fork zygote, the
report pages' shared Chromium): they are orphans, reparented to init, and their CPU is
lost to it. This script makes itself the child subreaper (Linux), runs COMMAND with the
caller's stdio, then waits for every orphan too (the shared servers exit after 20 s idle)
and prints the command's wall time, the wall time until the last descendant exited, and
user and system CPU of the whole tree (`RUSAGE_CHILDREN`). A process whose parent ignores
SIGCHLD is reaped by the kernel and its CPU is lost even so; the suite's servers reap
their children for that reason. Exits with COMMAND's exit status.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import resource
import subprocess
import sys
import time

PR_SET_CHILD_SUBREAPER = 36


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="also write the numbers to this file")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("no command")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("tree_cpu: cannot become the child subreaper (not Linux?)")
    start = time.monotonic()
    child = subprocess.Popen(command)
    code = child.wait()
    wall = time.monotonic() - start
    # The orphans: wait for each until none is left.
    while True:
        try:
            os.wait()
        except ChildProcessError:
            break
    tail = time.monotonic() - start
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    numbers = {
        "command": command,
        "exit": code,
        "wall_s": round(wall, 1),
        "wall_until_last_orphan_s": round(tail, 1),
        "user_s": round(usage.ru_utime, 1),
        "sys_s": round(usage.ru_stime, 1),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 1),
    }
    print(
        f"tree_cpu: wall {numbers['wall_s']} s (last orphan {numbers['wall_until_last_orphan_s']} s), "
        f"CPU {numbers['cpu_s']} s (user {numbers['user_s']}, sys {numbers['sys_s']})",
        file=sys.stderr,
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump(numbers, f, indent=2)
    return code


if __name__ == "__main__":
    sys.exit(main())

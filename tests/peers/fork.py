"""A Python script started by fork from a warm interpreter: what each start costs is the
fork, not the script's imports. The MCP SDK's imports are about 1 s of CPU a start, and
the tests start its server (tests/peers/mcp_server.py) and its client
(bins/qa-mcp/tests/mcp_client.py) dozens of times a run.

Usage: fork.py SCRIPT [ARG...]
Behaves as `python SCRIPT ARG...` does to whoever started it: SCRIPT's `main()` runs with
this process's stdin, stdout and stderr, working directory, environment, umask and
arguments; SIGTERM and SIGINT reach it; this process exits as it did (its code, or the
same signal). When this process dies (SIGKILL included), the script's process is killed.
SCRIPT must define `main()` and call it only under `if __name__ == "__main__"`.

How: this process (the relay, standard library only) connects to a warm process (the
zygote, `fork.py --zygote SOCKET SCRIPT`) on a Unix socket in the temp folder, one per
user, Python and version of both scripts, starting it first when none listens (under a
file lock; it exits after 20 s without a start). The zygote has imported SCRIPT and
forks, for each relay, a monitor that forks the script's process with the relay's stdio
(passed over the socket) and reports its pid and then its exit status. Every start is a
fresh process with SCRIPT's initial state: the zygote never runs `main()`.
"""

from __future__ import annotations

import fcntl
import hashlib
import importlib.util
import json
import os
import select
import signal
import socket
import sys
import tempfile
import time

IDLE_SECONDS = 20
START_SECONDS = 30


def socket_path(script: str) -> str:
    """One zygote per user, Python, script path and version of both scripts."""
    key = hashlib.sha256(sys.executable.encode() + b"\0" + script.encode())
    for name in (script, os.path.abspath(__file__)):
        with open(name, "rb") as f:
            key.update(f.read())
    return os.path.join(tempfile.gettempdir(), f"qapipe-fork-{os.getuid()}-{key.hexdigest()[:16]}.sock")


# --- the zygote ---------------------------------------------------------------------------


def reap(_signum=None, _frame=None) -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def zygote(path: str, script: str) -> None:
    # As `python SCRIPT` would: the script's folder first on the import path.
    sys.path.insert(0, os.path.dirname(script))
    spec = importlib.util.spec_from_file_location("__forked__", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # the imports, once

    # Monitors are reaped here, not by the kernel (SIG_IGN), so their CPU and their
    # scripts' adds up in this process's children's time (bench/tree_cpu.py counts it).
    signal.signal(signal.SIGCHLD, reap)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    listener.settimeout(IDLE_SECONDS)
    identity = os.stat(path).st_ino
    while True:
        try:
            conn, _ = listener.accept()
        except socket.timeout:
            # Idle: stop listening first, so a relay that comes now starts a new zygote.
            try:
                if os.stat(path).st_ino == identity:
                    os.unlink(path)
            except FileNotFoundError:
                pass
            return
        conn.settimeout(None)
        if os.fork() == 0:
            listener.close()
            monitor(conn, module)
        conn.close()


def read_line(conn: socket.socket) -> bytes:
    """One line, read a byte at a time so nothing after it is taken from the socket."""
    line = bytearray()
    while not line.endswith(b"\n"):
        byte = conn.recv(1)
        if not byte:
            break
        line += byte
    return bytes(line)


def monitor(conn: socket.socket, module) -> None:
    """In a child of the zygote: starts the script and reports on it; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        _, fds, _, _ = socket.recv_fds(conn, 1, 3)
        start = json.loads(read_line(conn))
        pid = os.fork()
        if pid == 0:
            conn.close()
            run(start, fds, module)
        for fd in fds:
            os.close(fd)
        conn.sendall(json.dumps({"pid": pid}).encode() + b"\n")
        pidfd = os.pidfd_open(pid)
        while True:
            ready, _, _ = select.select([conn, pidfd], [], [])
            if pidfd in ready:
                _, status = os.waitpid(pid, 0)
                conn.sendall(json.dumps({"status": status}).encode() + b"\n")
                code = 0
                break
            if conn in ready and not conn.recv(1):
                # The relay is gone: so is its script.
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
    except BaseException:
        pass
    os._exit(code)


def run(start: dict, fds: list[int], module) -> None:
    """In the script's process: its main() as the relay's process would run it."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(start["cwd"])
        os.environ.clear()
        os.environ.update(start["env"])
        os.umask(start["umask"])
        sys.argv = start["argv"]
        module.main()
        code = 0
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            code = e.code or 0
        else:
            print(e.code, file=sys.stderr)
    except BaseException:
        import traceback

        traceback.print_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


# --- the relay ----------------------------------------------------------------------------


def connect(path: str) -> socket.socket | None:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        sock.connect(path)
        return sock
    except OSError:
        sock.close()
        return None


def connect_or_start(path: str, script: str) -> socket.socket:
    sock = connect(path)
    if sock:
        return sock
    with open(path + ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        # Another relay may have started it while this one waited for the lock.
        sock = connect(path)
        if sock:
            return sock
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
        import subprocess  # only here: most starts find the zygote listening

        zygote_process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--zygote", path, script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            process_group=0,
        )
        until = time.monotonic() + START_SECONDS
        while time.monotonic() < until:
            sock = connect(path)
            if sock:
                return sock
            if zygote_process.poll() is not None:
                sys.exit(f"fork.py: the zygote of {script} exited ({zygote_process.returncode}) before listening")
            time.sleep(0.02)
        sys.exit(f"fork.py: the zygote of {script} did not listen on {path} within {START_SECONDS} s")


def relay(script: str, args: list[str]) -> None:
    path = socket_path(script)
    pending: list[int] = []
    started: list[int] = []

    def forward(signum, _frame):
        if started:
            os.kill(started[0], signum)
        else:
            pending.append(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    umask = os.umask(0)
    os.umask(umask)
    start = {"argv": [script, *args], "cwd": os.getcwd(), "env": dict(os.environ), "umask": umask}
    # A zygote that was just leaving (its idle time up) drops the start: ask again once.
    for _attempt in range(2):
        sock = connect_or_start(path, script)
        try:
            socket.send_fds(sock, [b"F"], [0, 1, 2])
            sock.sendall(json.dumps(start).encode() + b"\n")
            reader = sock.makefile("rb")
            first = reader.readline()
        except OSError:
            first = b""
        if first:
            break
        sock.close()
    else:
        sys.exit(f"fork.py: the zygote of {script} dropped the start twice")
    started.append(json.loads(first)["pid"])
    for signum in pending:
        os.kill(started[0], signum)
    line = reader.readline()
    if not line:
        sys.exit(f"fork.py: the monitor of {script} is gone")
    status = json.loads(line)["status"]
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    sys.exit(os.waitstatus_to_exitcode(status))


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--zygote":
        zygote(sys.argv[2], sys.argv[3])
        return
    if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
        sys.exit("usage: fork.py SCRIPT [ARG...]")
    relay(os.path.abspath(sys.argv[1]), sys.argv[2:])


if __name__ == "__main__":
    main()

"""mcp_server.py started by fork from a warm interpreter: what each start costs is the fork,
not the SDK's imports (about 0.9 s of CPU a start; qa-check's and testkit's tests start
dozens of servers a run).

Usage: mcp_fork.py [--mode stateful|stateless]
Behaves as `mcp_server.py --mode ...` does to whoever started it: the server writes its
`PORT <n>` line and its logs to this process's stdout and stderr, SIGTERM and SIGINT
reach it, and this process exits as the server did (its code, or the same signal). When
this process dies (SIGKILL included), the server is killed.

How: this process (the relay, standard library only) connects to a warm process (the
zygote, `mcp_fork.py --zygote SOCKET`) on a Unix socket in the temp folder, one per user and
version of the scripts, starting it first when none listens (under a file lock; it
exits after 20 s without a start). The zygote has imported mcp_server.py and forks, for
each relay, a monitor that forks the server with the relay's stdout and stderr (passed
over the socket) and reports its pid and then its exit status. Every server is a fresh
process with mcp_server.py's initial state: the zygote never runs it.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
IDLE_SECONDS = 20
START_SECONDS = 30


def socket_path() -> str:
    """One zygote per user, Python and version of both scripts."""
    key = hashlib.sha256(sys.executable.encode())
    for name in ("mcp_server.py", "mcp_fork.py"):
        with open(os.path.join(HERE, name), "rb") as f:
            key.update(f.read())
    return os.path.join(tempfile.gettempdir(), f"qapipe-mcp-{os.getuid()}-{key.hexdigest()[:16]}.sock")


# --- the zygote ---------------------------------------------------------------------------


def zygote(path: str) -> None:
    sys.path.insert(0, HERE)
    import mcp_server  # the SDK's imports, once

    # Children are reaped by the kernel; a monitor restores the default for its own.
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)
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
            monitor(conn, mcp_server)
        conn.close()


def monitor(conn: socket.socket, mcp_server) -> None:
    """In a child of the zygote: starts the server and reports on it; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        message, fds, _, _ = socket.recv_fds(conn, 4096, 2)
        mode = json.loads(message)["mode"]
        pid = os.fork()
        if pid == 0:
            conn.close()
            serve(mode, fds, mcp_server)
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
                # The relay is gone: so is its server.
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                break
    except BaseException:
        pass
    os._exit(code)


def serve(mode: str, fds: list[int], mcp_server) -> None:
    """In the server's process: mcp_server.py's main with the relay's stdout and stderr."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(fds[0], 1)
        os.dup2(fds[1], 2)
        for fd in (null, *fds):
            os.close(fd)
        sys.argv = ["mcp_server.py", "--mode", mode]
        mcp_server.main()
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 1
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


def connect_or_start(path: str) -> socket.socket:
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
        zygote_process = subprocess.Popen(
            [sys.executable, os.path.abspath(__file__), "--zygote", path],
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
                sys.exit(f"mcp_fork: the zygote exited ({zygote_process.returncode}) before listening")
            time.sleep(0.02)
        sys.exit(f"mcp_fork: the zygote did not listen on {path} within {START_SECONDS} s")


def relay(mode: str) -> None:
    path = socket_path()
    pending: list[int] = []
    server: list[int] = []

    def forward(signum, _frame):
        if server:
            os.kill(server[0], signum)
        else:
            pending.append(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    # A zygote that was just leaving (its idle time up) drops the start: ask again once.
    for attempt in range(2):
        sock = connect_or_start(path)
        try:
            socket.send_fds(sock, [json.dumps({"mode": mode}).encode()], [1, 2])
            reader = sock.makefile("rb")
            first = reader.readline()
        except OSError:
            first = b""
        if first:
            break
        sock.close()
    else:
        sys.exit("mcp_fork: the zygote dropped the start twice")
    server.append(json.loads(first)["pid"])
    for signum in pending:
        os.kill(server[0], signum)
    line = reader.readline()
    if not line:
        sys.exit("mcp_fork: the server's monitor is gone")
    status = json.loads(line)["status"]
    if os.WIFSIGNALED(status):
        signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
        os.kill(os.getpid(), os.WTERMSIG(status))
    sys.exit(os.waitstatus_to_exitcode(status))


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--zygote":
        zygote(sys.argv[2])
        return
    # The relay's only argument is the server's (mcp_server.py checks its value).
    mode = "stateful"
    if len(sys.argv) == 3 and sys.argv[1] == "--mode":
        mode = sys.argv[2]
    elif len(sys.argv) != 1:
        sys.exit("usage: mcp_fork.py [--mode stateful|stateless]")
    relay(mode)


if __name__ == "__main__":
    main()

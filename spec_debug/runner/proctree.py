"""Killing a whole process tree on this machine.

A step runs in its own session (process group), so killpg reaches every child that stayed in
the group. Children that called setsid() escape the group, so we also walk /proc for
descendants first and signal them one by one. One whose parent has exited is no descendant
any more (reparented to init): `(setsid server &)`, a double-forked daemon, or a child forked
as the tree was killed (by a trap on TERM, or just before the kill's walk) whose parent then
died of it. What still ties such a process to the step is the output pipe it inherited, so
the step's pipes are followed too (kill_tree's `pipes`).
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def descendants(root_pid: int) -> list[int]:
    """Pids of every live descendant of root_pid (Linux /proc; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    proc = Path("/proc")
    if not proc.is_dir():
        return []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        # The command name may contain spaces or parens: ppid is the 2nd field after the last ')'.
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) < 2:
            continue
        children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    stack = [root_pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def kill_tree(root_pid: int, *, grace_s: float = 0.5, pipes: frozenset[str] = frozenset()) -> None:
    """SIGTERM the tree, wait up to grace_s, then SIGKILL what is left. `pipes` (pipe_ids of the
    step's output pipes) adds every process holding one of them, in or out of the tree."""
    pids = [root_pid, *_members(root_pid, pipes)]
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(root_pid, sig)
            grouped = True
        except (ProcessLookupError, PermissionError):
            grouped = False
        for pid in pids:
            # One SIGTERM a process: a second one, by pid after the group's, lands inside a
            # handler installed with SA_NODEFER (faulthandler.register(SIGTERM, chain=True), how
            # a hung NCCL rank is made to say where it hangs) and kills it mid-dump.
            if grouped and _group_of(pid) == root_pid:
                continue
            try:
                os.kill(pid, sig)
            except (ProcessLookupError, PermissionError):
                pass
        if sig == signal.SIGTERM:
            deadline = time.monotonic() + grace_s
            while time.monotonic() < deadline and any(_alive(p) for p in pids):
                time.sleep(0.02)
            # Late-forked children of the dying tree are caught by the SIGKILL pass: those whose
            # parent died meanwhile (reparented) by the pipe they hold.
            pids = list(dict.fromkeys(pids + _members(root_pid, pipes)))


def _members(root_pid: int, pipes: frozenset[str]) -> list[int]:
    """The tree's descendants, then the processes outside it holding one of its pipes."""
    found = descendants(root_pid)
    return found + [pid for pid, _ in _holders(pipes, exclude={root_pid, *found}, writers=True)]


def _group_of(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie counts as dead: it holds no resources and only waits to be reaped.
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
        return state[state.rfind(")") + 2] != "Z"
    except OSError:
        return False


def pipe_ids(*fds: int) -> frozenset[str]:
    """The pipes fds are ends of, as /proc/PID/fd links name them ("pipe:[INODE]"). Taken while
    the fds are open: a number read later may be another file's after a close."""
    found = set()
    for fd in fds:
        try:
            found.add(f"pipe:[{os.fstat(fd).st_ino}]")
        except OSError:
            continue
    return frozenset(found)


def pipe_holders(read_fd: int, *, exclude: set[int] = frozenset()) -> list[tuple[int, str]]:
    """(pid, command line) of every process we can see that holds the other end of the pipe
    read_fd reads (Linux /proc; empty elsewhere). A process that called setsid() or was
    reparented to init is found too: what ties it to the step is the open pipe, not its parent."""
    return _holders(pipe_ids(read_fd), exclude=exclude)


def _holders(targets: frozenset[str], *, exclude: set[int] = frozenset(), writers: bool = False) -> list[tuple[int, str]]:
    """(pid, command line) of every process but this one holding one of the pipes `targets`;
    with writers, only one holding a pipe's write end. The kill wants those: a child this
    process forks meanwhile (another host's ProxyCommand) holds the read ends until its exec."""
    proc = Path("/proc")
    if not targets or not proc.is_dir():
        return []
    me = os.getpid()
    found: list[tuple[int, str]] = []
    for entry in proc.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me or int(entry.name) in exclude:
            continue
        try:
            holds = any(os.readlink(fd) in targets and (not writers or _writes(entry, fd.name))
                        for fd in (entry / "fd").iterdir())
            if holds:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip()
                found.append((int(entry.name), cmdline))
        except OSError:
            continue  # not ours to read, or gone meanwhile
    return sorted(found)


def _writes(entry: Path, fd: str) -> bool:
    """Whether process `entry`'s fd is open for writing (/proc/PID/fdinfo: flags, in octal)."""
    for line in (entry / "fdinfo" / fd).read_text().splitlines():
        if line.startswith("flags:"):
            return int(line.split()[1], 8) & (os.O_WRONLY | os.O_RDWR) != 0
    return False

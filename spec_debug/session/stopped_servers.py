"""Benchmarks of a server the session started itself and stopped again.

An agent that tries a change without touching the server under investigation starts a second
one beside it (`nohup python -m sglang.launch_server ... --port 30001 &`), benchmarks it, and
kills it (`pkill -f "port 30001"`). A distilled playbook leaves the launch out (it changes the
host), so a step that benchmarks port 30001 finds nothing listening there: it measured a server
that exists in the session only. A benchmark of a server that was there before the session (the
one reported slow), or of one the session started and left running, is a check the playbook can
repeat.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from spec_debug.session.records import CommandRecord
from spec_debug.session.shell_words import simple_commands

_PORT = re.compile(r"--port(?:=|\s+)(\d+)\b|--base[-_]url(?:=|\s+)['\"]?https?://[^\s/'\":]+:(\d+)")
_DEFAULT_PORTS = (("sglang", "30000"), ("vllm", "8000"))
"""The port a server listens on and a benchmark sends to when no flag names one: SGLang's
ServerArgs.port (python/sglang/srt/server_args.py) and bench_serving's default for its sglang
backend; vLLM's `--port` default (vllm/entrypoints/openai/cli_args.py) and `vllm bench serve`'s."""
_KILLERS = frozenset({"kill", "pkill", "killall", "fuser"})
_PORT_WORD = re.compile(r"(?<![\d.])(\d{4,5})(?![\d.])")
_ENGINE_WORDS = re.compile(r"sglang|vllm|launch_server|trtllm|\bserve\b|\bpython[\d.]*\b")
"""A kill pattern that names one of these stops every server the session started on the host
(`pkill -f sglang`, `pkill -f launch_server`, `pkill python`)."""


def named_port(command: str) -> str | None:
    """The port a launch serves on or a benchmark sends to, as its flags name it (``--port``,
    a ``--base-url`` with a port); None where they name none."""
    m = _PORT.search(command) if "--" in command else None
    return (m.group(1) or m.group(2)) if m else None


def served_port(command: str) -> str | None:
    """:func:`named_port`, else the engine's default port where the command names the engine."""
    port = named_port(command)
    if port is not None:
        return port
    return next((default for engine, default in _DEFAULT_PORTS if engine in command), None)


def stopped_ports(command: str, running: set[str]) -> set[str]:
    """Which of ``running`` (ports of servers the session started on the host) ``command`` stops.
    The port may be in another command of the line: `kill $(lsof -t -i:30001)`, `lsof -ti:30001 |
    xargs kill -9`."""
    killers = [argv for argv in simple_commands(command)
               if not isinstance(argv, str) and argv[0].rsplit("/", 1)[-1] in _KILLERS]
    if not killers:
        return set()
    named = {p for p in _PORT_WORD.findall(command) if p in running}
    if named:
        return named  # `pkill -f "port 30001"`, `fuser -k 30001/tcp`, `kill $(lsof -t -i:30001)`
    if any(argv[0].rsplit("/", 1)[-1] != "kill" and _ENGINE_WORDS.search(" ".join(argv[1:]).lower())
           for argv in killers):
        return set(running)  # `pkill -f sglang`: every server it started there
    return set()


class OwnServers:
    """The servers one agent started itself, by (host, port), and whether each is still up: the
    analysis follows them as it reads (stopping one is cleanup, no change of approach), distill
    over the commands kept (a benchmark of one stopped at the end is no step)."""

    _MOST = 64
    """Servers remembered per agent (the oldest forgotten first)."""

    def __init__(self) -> None:
        self.up: dict[tuple[str | None, str], bool] = {}

    def launched(self, host: str | None, command: str) -> None:
        port = served_port(command)
        if port is not None:
            self.up[host, port] = True
            if len(self.up) > self._MOST:
                del self.up[next(iter(self.up))]

    def stop(self, host: str | None, command: str) -> bool:
        """Mark the servers on ``host`` that ``command`` stops; whether it stopped any."""
        if "kill" not in command and "fuser" not in command:
            return False
        running = {port for (h, port), is_up in self.up.items() if h == host and is_up}
        stopped = stopped_ports(command, running) if running else ()
        for port in stopped:
            self.up[host, port] = False
        return bool(stopped)


def benchmarks_of_stopped_servers(commands: Iterable[CommandRecord]) -> set[tuple[str, int]]:
    """``(session, seq)`` of each benchmark that measured a server its agent had started and
    that, at the end, was stopped by the same agent and not started again. Followed per agent:
    its commands are in order (a sub-agent's file is read after its parent's, so across agents
    the order of the list is not the order they ran in)."""
    by_agent: dict[tuple[str, str], list[CommandRecord]] = {}
    for cmd in commands:
        if cmd.category in ("launch_server", "benchmark") or "kill" in cmd.command or "fuser" in cmd.command:
            by_agent.setdefault((cmd.session, cmd.agent), []).append(cmd)
    found: set[tuple[str, int]] = set()
    for runs in by_agent.values():
        servers = OwnServers()
        measured: list[tuple[tuple[str | None, str], CommandRecord]] = []
        for cmd in sorted(runs, key=lambda c: c.seq):
            host = cmd.host.lower() if cmd.host else None
            inner = cmd.inner or cmd.command
            if cmd.category == "launch_server":
                servers.launched(host, inner)
            elif cmd.category == "benchmark":
                port = served_port(inner)
                if port is not None and servers.up.get((host, port)):
                    measured.append(((host, port), cmd))
            elif servers.up:
                servers.stop(host, inner)
        found.update((cmd.session, cmd.seq) for key, cmd in measured if servers.up.get(key) is False)
    return found

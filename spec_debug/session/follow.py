"""Which commands follow their output until someone stops them (`tail -f`, `watch`,
`nvidia-smi -l 1`): a playbook step has no one to stop it, so it gets a time limit."""

from __future__ import annotations

import re

from spec_debug.session.shell_words import shell_scripts, simple_commands

FOLLOW_TIMEOUT_S = 30
_FOLLOW_FLAG = {"tail": ("f", "F"), "journalctl": ("f",), "dmesg": ("w",), "docker": ("f",), "podman": ("f",),
                "kubectl": ("f",), "oc": ("f",)}


def follows_output(command: str) -> str | None:
    """The program and flag that make ``command`` run until it is stopped (`tail -f`, `watch`,
    `nvidia-smi -l 1`, `ping` without `-c`, `top` without `-n`), or None."""
    for argv in simple_commands(command):
        prog, args = argv[0].rsplit("/", 1)[-1], argv[1:]
        clusters = [a[1:] for a in args if re.fullmatch(r"-[A-Za-z]+\d*", a)]  # -fn50, -bn1
        logs = prog in ("docker", "podman", "kubectl", "oc")
        if prog in _FOLLOW_FLAG and (not logs or "logs" in args):
            flag = next((f for f in _FOLLOW_FLAG[prog] for c in clusters if f in c), None)
            if flag or any(a.startswith("--follow") for a in args):
                return f"{prog}{' logs' if logs else ''} -{flag or '-follow'}"
        if prog in _CONTAINER_TOOLS and (stream := _container_stream(prog, args)):
            return stream
        if prog in ("watch", "htop", "nvtop", "btop"):
            return prog
        if prog == "top" and not any("n" in c for c in clusters):
            return "top"
        if prog == "ping" and not any("c" in c for c in clusters):
            return "ping"
        if prog == "nvidia-smi" and any(a in ("-l", "-lms", "--loop", "--loop-ms") or a.startswith("--loop") for a in args):
            return "nvidia-smi -l"
        if prog == "nvidia-smi" and args[:1] in (["dmon"], ["pmon"]) and "-c" not in args:
            return f"nvidia-smi {args[0]}"
        if prog in _SAMPLERS and _samples_forever(prog, args):
            return f"{prog} {'without a count' if prog == 'dstat' else 'with an interval and no count'}"
        if prog == "free" and any(c.startswith("s") for c in clusters) and not any("c" in c for c in clusters) \
                and "--count" not in args:
            return "free -s"
        if prog == "gpustat" and any(a in ("-i", "--interval", "--watch") or a.startswith("--interval=") for a in args):
            return "gpustat -i"
        if prog == "nvitop" and not any(a in ("-1", "--once") for a in args):
            return "nvitop"
    # a script a shell reads from a heredoc (`sudo bash <<'EOF'` + `tail -f log`) runs its own
    # commands, as unattended.interactive reads them: one that follows its output never ends
    for script in shell_scripts(command) if "<<" in command else ():
        if follows := follows_output(script):
            return follows
    return None


_SAMPLERS = frozenset({"vmstat", "iostat", "mpstat", "pidstat", "sar", "dstat"})
"""``PROG [interval [count]]`` (sysstat's iostat(1), mpstat(1), pidstat(1), sar(1); procps
vmstat(8); dstat(1)): with an interval and no count they report until stopped, and dstat
(1 s by default) does with no count at all."""


def _samples_forever(prog: str, args: list[str]) -> bool:
    numbers = [a for a in args if a.isdigit()]
    if prog == "dstat":
        return len(numbers) < 2
    return len(numbers) == 1


_CONTAINER_TOOLS = frozenset({"docker", "podman", "nerdctl", "kubectl", "oc"})


def _container_stream(prog: str, args: list[str]) -> str | None:
    """The container command that streams until stopped: ``docker stats`` without
    ``--no-stream`` (docker docs, docker stats: "a live data stream"), ``docker events`` without
    ``--until``, ``docker attach`` (the container's output, for as long as it runs), and ``kubectl
    get -w``/``--watch`` (kubectl get: "after listing/getting the requested object, watch for
    changes"). With no one to stop it, the step waited for as long as the container ran."""
    verb = _verb(args)
    if prog in ("kubectl", "oc"):
        if verb == "get" and any(a in ("-w", "--watch", "--watch-only") or a.startswith(("--watch=", "--watch-only="))
                                 for a in args):
            return f"{prog} get --watch"
        return None
    if verb == "stats" and not any(a.startswith("--no-stream") for a in args):
        return f"{prog} stats"
    if verb == "events" and not any(a.startswith("--until") for a in args):
        return f"{prog} events"
    if verb == "attach":
        return f"{prog} attach"
    return None


# Global options that take a value before the verb (`docker -H ssh://gpu01 stats`, `kubectl -n
# infer get pods -w`), and the words that group verbs (`docker compose stats`, `docker container stats`).
_VALUE_OPTIONS = frozenset({"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "-f", "--file", "-p",
                            "--project-name", "-n", "--namespace", "--kubeconfig", "-s", "--server", "--cluster",
                            "--user"})
_GROUPS = frozenset({"compose", "container"})


def _verb(args: list[str]) -> str | None:
    after_value = False
    for arg in args:
        if after_value:
            after_value = False
        elif arg in _VALUE_OPTIONS:
            after_value = True
        elif not arg.startswith("-") and arg not in _GROUPS:
            return arg
    return None

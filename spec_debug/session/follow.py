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

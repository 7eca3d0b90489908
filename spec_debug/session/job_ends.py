"""A command typed with ``&`` at a prompt, whose end the shell reports later: bash prints a job's
new status before the next prompt after it changes (``[1]+  Killed   python3 -m
sglang.launch_server ...``, ``[1]+  Exit 3   nohup python3 ...``: bash jobs.c, ``pretty_print_job``
and ``notify_of_job_status``; zsh ``[1]  + killed     python3 ...``, ``exit 3``). The line lands in
the output of whatever command ran then (an ``nvidia-smi``), and is the background command's
end: a server the OOM killer took, a launch that exited. Recorded with bash 5.2.15 and zsh 5.9
under util-linux script 2.38.1."""

from __future__ import annotations

import re
from dataclasses import dataclass

_JOB_END = re.compile(
    r"^\[\d+\]\s*[+-]?\s+(?:\d+ +)?"
    r"(?P<status>Exit (?P<code>\d+)|exit (?P<zcode>\d+)|Killed|killed|Terminated|terminated|Segmentation fault"
    r"|segmentation fault|Aborted|abort|Done|done)(?: \(core dumped\))?\s+(?P<command>\S.*?)\s*$", re.M)
_SIGNALLED = {"killed": (137, "SIGKILL"), "terminated": (143, "SIGTERM"), "segmentation fault": (139, "SIGSEGV"),
              "aborted": (134, "SIGABRT"), "abort": (134, "SIGABRT"), "done": (0, None)}
"""A job's status word and its exit status (128 + the signal's number on Linux, signal(7))."""


@dataclass(frozen=True, slots=True)
class JobEnd:
    command: str
    """The job's command as the shell shows it: as typed, without the ``&``."""
    exit_code: int
    signal: str | None
    line: str


def job_ends(output: str) -> list[JobEnd]:
    """The ends of background jobs the shell reported in ``output``."""
    ends = []
    for m in _JOB_END.finditer(output):
        code = m.group("code") or m.group("zcode")
        exit_code, signal = (int(code), None) if code else _SIGNALLED[m.group("status").lower()]
        ends.append(JobEnd(_normal(m.group("command")), exit_code, signal, m.group(0).strip()))
    return ends


def backgrounded(command: str) -> str | None:
    """``command`` as its job's lines show it, where it was typed to run in the background (a
    trailing ``&``, not ``&&``); else None."""
    line = command.rstrip()
    if not line.endswith("&") or line.endswith("&&") or line.endswith("|&") or line.endswith(">&"):
        return None
    return _normal(line[:-1])


def _normal(command: str) -> str:
    return " ".join(command.split())

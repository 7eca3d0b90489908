"""A command typed with ``&`` at a prompt, whose end the shell reports later: bash prints a job's
new status before the next prompt after it changes (``[1]+  Killed   python3 -m
sglang.launch_server ...``, ``[1]+  Exit 3   nohup python3 ...``: bash jobs.c, ``pretty_print_job``
and ``notify_of_job_status``; zsh ``[1]  + killed     python3 ...``, ``exit 3``). The line lands in
the output of whatever command ran then (an ``nvidia-smi``), and is the background command's
end: a server the OOM killer took, a launch that exited. Recorded with bash 5.2.15 and zsh 5.9
under util-linux script 2.38.1."""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass

_JOB_END = re.compile(
    r"^\[\d+\]\s*[+-]?\s+(?:\d+ +)?"
    r"(?P<status>Exit (?P<code>\d+)|exit (?P<zcode>\d+)|Killed|killed|Terminated|terminated|Segmentation fault"
    r"|segmentation fault|Aborted|abort|Done|done|Bus error|Interrupt|Hangup|Quit|Illegal instruction"
    r"|Floating point exception|Trace/breakpoint trap|Broken pipe|Alarm clock|User defined signal [12]"
    r"|bus error|interrupt|hangup|quit|illegal hardware instruction|floating point exception|trace trap"
    r"|broken pipe|alarm|user-defined signal [12])"
    r"(?:\s*\(core dumped\))?(?:\s+|(?<=exception))(?P<command>\S.*?)"
    r"(?:  \(wd: (?P<wd>[^\n]*?)\))?\s*$", re.M)
"""bash pads the status to 24 columns, then writes ``(core dumped) `` where the job left a core,
then the command (bash jobs.c ``print_pipeline``: ``LONGEST_SIGNAL_DESC``): ``Segmentation fault
(core dumped) python3 ...`` after six spaces, ``Floating point exceptionpython3 ...`` with none (the
description is 24 characters). A signal's description is the C library's (``strsignal``: glibc's
"Bus error" for the SIGBUS a too small /dev/shm gives PyTorch's workers in a container, "Interrupt",
"Hangup"). bash adds ``  (wd: DIR)`` after the command of a job started in another folder than the
shell is in now (``polite_directory_format``: ``~`` for home). zsh writes its own lower-case
messages (``[1]    bus error  sleep 101``, ``[1]  + segmentation fault (core dumped)  sleep 105``;
its signal table: "illegal hardware instruction", "trace trap", "alarm", "user-defined signal 1").
Recorded with bash 5.2.15 and zsh 5.9 under util-linux script 2.38.1 (``kill -BUS %1``, ``kill
-SEGV %1`` after ``ulimit -c unlimited``)."""
_SIGNALLED = {"killed": (137, "SIGKILL"), "terminated": (143, "SIGTERM"), "segmentation fault": (139, "SIGSEGV"),
              "aborted": (134, "SIGABRT"), "abort": (134, "SIGABRT"), "done": (0, None),
              "hangup": (129, "SIGHUP"), "interrupt": (130, "SIGINT"), "quit": (131, "SIGQUIT"),
              "illegal instruction": (132, "SIGILL"), "trace/breakpoint trap": (133, "SIGTRAP"),
              "bus error": (135, "SIGBUS"), "floating point exception": (136, "SIGFPE"),
              "user defined signal 1": (138, "SIGUSR1"), "user defined signal 2": (140, "SIGUSR2"),
              "broken pipe": (141, "SIGPIPE"), "alarm clock": (142, "SIGALRM"),
              "illegal hardware instruction": (132, "SIGILL"), "trace trap": (133, "SIGTRAP"),
              "alarm": (142, "SIGALRM"), "user-defined signal 1": (138, "SIGUSR1"),
              "user-defined signal 2": (140, "SIGUSR2")}
"""A job's status word and its exit status (128 + the signal's number on Linux, signal(7))."""


_FISH_JOB_SIGNALLED = re.compile(
    r"^fish: Job \d+, '(?P<command>.*?)(?P<cut>…)?' terminated by signal (?P<signal>SIG[A-Z0-9]+) \([^)\n]*\)\s*$",
    re.M)
"""fish's line for a background job a signal ended (fish 3.6 under util-linux script 2.38.1:
``fish: Job 1, 'python3 -c 'import time; time.s…' terminated by signal SIGKILL (Forced quit)``),
its command cut with an ellipsis to fit the terminal. A job that exits says only "has ended",
whatever its status: no status to read there."""
_SIGNAL_NUMBERS = {"SIGHUP": 1, "SIGINT": 2, "SIGQUIT": 3, "SIGILL": 4, "SIGTRAP": 5, "SIGABRT": 6, "SIGBUS": 7,
                   "SIGFPE": 8, "SIGKILL": 9, "SIGSEGV": 11, "SIGPIPE": 13, "SIGALRM": 14, "SIGTERM": 15}
"""Linux's numbers (signal(7)): a job a signal ended has status 128 + the number."""


@dataclass(frozen=True, slots=True)
class JobEnd:
    command: str
    """The job's command as the shell shows it: as typed, without the ``&``."""
    exit_code: int
    signal: str | None
    line: str
    cut: bool = False
    """The shell showed only the command's start (fish's ellipsis): a job whose command starts so."""
    wd: str | None = None
    """The folder the job was started in, where bash showed it (``(wd: DIR)``, a folder since left)."""


def ended_job(jobs, end: JobEnd) -> str | None:
    """The key in ``jobs`` (commands typed with ``&``, by :func:`backgrounded`) of the job whose
    ``end`` was reported: its command, or the one job whose command starts as a cut one does."""
    if end.command in jobs:
        return end.command
    if not end.cut:
        return None
    found = [job for job in jobs if job.startswith(end.command)]
    return found[0] if len(found) == 1 else None


def reports_job_end(output: str) -> bool:
    """Whether ``output`` may hold a shell's line for a job's end (the literal tests before
    :func:`job_ends`' regexes)."""
    return ("[" in output and "]" in output) or "fish: Job " in output


def job_ends(output: str) -> list[JobEnd]:
    """The ends of background jobs the shell reported in ``output``."""
    ends = []
    for m in _JOB_END.finditer(output):
        code = m.group("code") or m.group("zcode")
        exit_code, signal = (int(code), None) if code else _SIGNALLED[m.group("status").lower()]
        ends.append(JobEnd(_normal(m.group("command")), exit_code, signal, m.group(0).strip(), False, m.group("wd")))
    if "fish: Job " in output:
        for m in _FISH_JOB_SIGNALLED.finditer(output):
            number = _SIGNAL_NUMBERS.get(m.group("signal"))
            if number is None:
                continue
            command = _normal(m.group("command"))
            if not m.group("cut") and command.endswith("&"):
                command = _normal(command[:-1])  # fish shows the job as typed, its "&" too
            ends.append(JobEnd(command, 128 + number, m.group("signal"), m.group(0).strip(), bool(m.group("cut"))))
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


_CONTROL_WORDS = frozenset({"|", "&", ";", ">", "<"})


def written_files(words: list[str]) -> frozenset[str]:
    """The names (last path part) of the files a command's output goes to, from its words as
    :func:`shell.split_words` gives them (``>`` a word of its own): ``> srv.log``, ``2> err.log``,
    ``&> srv.log``, ``>> srv.log``, ``| tee -a srv.log`` (not ``/dev/null``). A job started with ``&`` writes there
    what it would have printed, the error it died of too (``nohup python3 srv.py > srv.log 2>&1 &``)."""
    return frozenset(name.rstrip("/").rsplit("/", 1)[-1] for name in written_paths(words))


def written_paths(words: list[str]) -> list[str]:
    """The paths, as typed, of the files a command's output goes to (:func:`written_files`)."""
    names = []
    for n, word in enumerate(words):
        if word == ">" and n + 1 < len(words) and words[n + 1] not in (">", "&"):
            names.append(words[n + 1])
        elif word == "tee":
            for w in words[n + 1:]:
                if w in _CONTROL_WORDS:
                    break
                if w[:1] != "-":
                    names.append(w)
    return [name for name in names if name and not name.startswith("/dev/")]


def log_key(path: str, cwd: str | None) -> str:
    """The key a file a job writes to, or a command reads, is known by: its path as the shell saw
    it (the folder the command ran in, from the prompt, and the path typed: ``srv.log`` in
    ``~/a`` and in ``~/b`` are two files), or its name where the folder is not known."""
    if path[:1] not in "/~":
        if not cwd or cwd[:1] not in "/~":
            return path.rstrip("/").rsplit("/", 1)[-1]
        path = cwd + "/" + path
    return posixpath.normpath(path)

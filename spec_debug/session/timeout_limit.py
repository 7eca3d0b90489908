"""The time limit a command set itself with coreutils ``timeout(1)``, for the step that runs it."""

from __future__ import annotations

import math
import re

from spec_debug.session.follow import follows_output
from spec_debug.session.shell_words import pipelines, pipelines_backgrounded

_DURATION = re.compile(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)")
_UNIT_S = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}
_WRAPPERS = {"sudo": {"-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U"}, "env": {"-u", "-C", "-S"},
             "nohup": set(), "time": set(), "nice": {"-n"}, "ionice": {"-c", "-n", "-p"}, "stdbuf": set(),
             "exec": set(), "command": set()}
"""Programs that run the rest of their words (sudo -u bob, env A=1, nice -n 5) and the options
of theirs that take a value: ``sudo timeout 60 nvidia-smi dmon`` is bounded by its timeout."""
_INSTANT = frozenset({"cd", "pushd", "popd", "export", "unset", "set", "source", ".", "echo", "printf", "true", ":",
                      "pwd", "date", "hostname", "whoami", "umask", "ulimit", "mkdir", "alias"})
"""Builtins and programs that return at once: ``cd /root/logs && timeout 120 tail -f log`` is
bounded by its timeout as ``timeout 120 tail -f log`` is."""
_FILE_READERS = {"tail": {"-n", "-c", "--lines", "--bytes", "-s", "--sleep-interval", "--pid"},
                 "head": {"-n", "-c", "--lines", "--bytes"}, "cat": set(), "wc": set(), "ls": set(),
                 "grep": {"-e", "-f", "-m", "-A", "-B", "-C", "--max-count"}, "egrep": {"-e", "-f", "-m", "-A", "-B", "-C"},
                 "fgrep": {"-e", "-f", "-m", "-A", "-B", "-C"}, "zcat": set()}
"""Programs that read the files they are given and return (and the options of theirs that take a
value): ``timeout 5m python bench.py || tail -50 log`` is bounded by its timeout; ``tail -f log``
follows its file (:mod:`follow`), and one given no file reads its input."""


def timeout_limit(inner: str) -> int | None:
    """The step timeout for a command line whose long-running commands each run under coreutils
    ``timeout [OPTION] DURATION CMD``: the sum of their DURATIONs with their units (``10m``),
    plus ``-k``'s grace (``-k 10 600`` read as 10 s killed a ten-minute benchmark at ten seconds:
    coreutils src/timeout.c, -k and -s take a value). None when any command of the line runs
    unbounded, or none runs under ``timeout``.

    A pipeline ends when its bounded command does (``timeout 120 tail -f log | grep 'accept
    len'``). Before, only a line that began with ``timeout`` counted: ``sudo timeout 60
    nvidia-smi dmon`` or ``cd /root && timeout 120 tail -f log`` then got the 30 s limit of a
    command that follows its output (:mod:`follow`), cutting the capture the command had timed
    itself; and ``timeout 10 nvidia-smi; python bench.py`` gave the benchmark 10 s."""
    if "timeout" not in inner:
        return None
    # Jobs started with "&" run beside what follows them: ``timeout 30 a & timeout 40 b`` ends
    # after 40 s, not 70 (was their sum), and a ``wait`` after them waits for the last to end.
    now = ends = 0.0
    bounded = False
    for pipeline, background in pipelines_backgrounded(inner):
        if len(pipeline) == 1 and pipeline[0][0] == "wait":
            now = max(now, ends)
            continue
        limits = [_limit(argv) for argv in pipeline]
        timed = [seconds for kind, seconds in limits if kind == "timeout"]
        if timed:
            bounded = True
            if background:
                ends = max(ends, now + max(timed))
            else:
                now += max(timed)
                ends = max(ends, now)
        elif all(kind == "instant" for kind, _ in limits):
            continue
        else:
            return None
    return math.ceil(ends) if bounded and ends > 0 else None


def timed_follow_ends_line(inner: str) -> bool:
    """The line's exit status is that of a command that follows its output run under
    ``timeout`` (``timeout 20 tail -f /var/log/sglang.log``): its 124 is the watch ending when
    the agent meant it to (coreutils timeout(1): "124 if COMMAND times out"), not a failure. Read
    as one, each such watch was a "timed out" error and three of them a loop of failing retries.
    A benchmark under ``timeout`` that exits 124 did not finish: that one is a failure."""
    lines = pipelines(inner) if "timeout" in inner else []
    if not lines or not lines[-1]:
        return False
    last = lines[-1][-1]
    return _limit(last)[0] == "timeout" and follows_output(" ".join(last)) is not None


def _limit(argv: list[str]) -> tuple[str, float]:
    """``("timeout", seconds)`` for a command under ``timeout``, ``("instant", 0)`` for one that
    returns at once, ``("unbounded", 0)`` otherwise."""
    i = 0
    while i < len(argv):
        head = argv[i].rsplit("/", 1)[-1]
        if re.fullmatch(r"[A-Za-z_]\w*=.*", argv[i]):
            i += 1
        elif head in _WRAPPERS:
            takes, i = _WRAPPERS[head], i + 1
            while i < len(argv) and (argv[i].startswith("-") or re.fullmatch(r"[A-Za-z_]\w*=.*", argv[i])):
                i += 2 if argv[i] in takes else 1
        else:
            break
    if i >= len(argv):
        return "instant", 0.0
    head = argv[i].rsplit("/", 1)[-1]
    if head == "timeout":
        seconds = _timeout_seconds(argv[i:])
        return ("timeout", seconds) if seconds else ("unbounded", 0.0)  # 0 means "no timeout" to timeout(1)
    if head in _INSTANT or head in _FILE_READERS and _reads_files(head, argv[i:]):
        return "instant", 0.0
    return "unbounded", 0.0


def _reads_files(head: str, words: list[str]) -> bool:
    """Whether ``words`` (``words[0]`` is ``head``, one of _FILE_READERS) name a file to read and
    follow none: ``tail -50 log``, ``grep 'accept len' server.log``; not ``tail -f log``, nor
    ``grep x`` (its input)."""
    if follows_output(" ".join(words)) is not None:
        return False
    takes, operands, i = _FILE_READERS[head], [], 1
    pattern_given = False
    while i < len(words):
        word = words[i]
        if word == "--":
            operands += words[i + 1:]
            break
        if word.startswith("-") and word != "-":
            if word in takes:
                pattern_given |= word in ("-e", "-f")
                i += 1
            pattern_given |= word.startswith(("--regexp=", "--file="))
        else:
            operands.append(word)
        i += 1
    files = operands if head not in ("grep", "egrep", "fgrep") or pattern_given else operands[1:]
    return head == "ls" or any(f != "-" for f in files)


def _timeout_seconds(words: list[str]) -> float | None:
    """DURATION plus ``-k``'s grace of ``timeout [OPTION] DURATION CMD`` (``words[0]`` is timeout)."""
    grace, i = 0.0, 1
    while i < len(words) and words[i].startswith("-") and words[i] != "--":
        option, _, value = words[i].partition("=")
        if option in ("-k", "--kill-after", "-s", "--signal") and not value:
            value, i = (words[i + 1] if i + 1 < len(words) else ""), i + 1
        elif option.startswith("-k") and len(option) > 2:  # -k5
            value = option[2:]
            option = "-k"
        if option in ("-k", "--kill-after"):
            grace = _seconds(value) or 0.0
        i += 1
    i += words[i:i + 1] == ["--"]
    duration = _seconds(words[i]) if i < len(words) else None
    return duration + grace if duration else None


def _seconds(text: str) -> float | None:
    m = _DURATION.fullmatch(text)
    return float(m.group(1)) * _UNIT_S[m.group(2)] if m else None

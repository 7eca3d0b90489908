"""A command's exit status as the command prints it itself: ``python bench.py; echo "EXIT: $?"``.

Agents add the echo because their tool reports only the last command's status, the echo's 0;
a terminal log shows a status only where someone typed ``echo $?``. The analysis reads the
status back from the output (:func:`echoed_exit`), and distill gives it back to the step it
writes (:func:`spec_debug.session.unattended.keeping_status`). Pure text, no I/O.
"""

from __future__ import annotations

import re

STATUS = r"\$\?|\$\{\?\}|\$\{PIPESTATUS\[0\]\}"
"""The last pipeline's status as agents print it (bash(1), Special Parameters: ``$?``; Shell
Variables: ``PIPESTATUS``, the first command of a ``cmd | tail`` pipeline)."""

TYPED_STATUS_ECHO = re.compile(r'(?:(?:echo|print)\s+"?(?:\$\?|\$\{\?\}|\$status\b|\$\{status\})"?'
                               r'|(?i:(?:(?:echo|write-output|write-host)\s+)?\$(?:LASTEXITCODE|env:LASTEXITCODE)\b))\s*;?\s*$')
"""``echo $?`` typed alone at a prompt (quoted or braced); zsh's ``print $?``, and ``$status``, the
last command's status in zsh (zshparam(1): "status ... Same as ?"), tcsh (tcsh(1), ``status``) and
fish (``$status``). In bash ``$status`` is a plain variable, mostly unset: its empty line is no
status, and the echo is read only where it printed a number. PowerShell's ``$LASTEXITCODE``,
typed alone or echoed, "the exit code of the last native program ... that was run"
(about_Automatic_Variables): ssh's or python's, which its ``$?`` (True/False) does not give."""
_ECHO_OF_STATUS = re.compile(rf"\becho\s+(?:-[ne]+\s+)?([^;&|<>\n]*?(?:{STATUS})[^;&|<>\n]*)")
_LOOP_BEFORE = re.compile(r"(?:^|[;&|(\s])(?:for|while|until)\s")
_LOOP_END = re.compile(r"(?:^|[;&|\s])done\b")
_SAVED_STATUS = re.compile(rf"(?:^|[;&|\s])([A-Za-z_]\w*)=(?:{STATUS})(?=[;\s]|$)")
_STATUS_VAR = re.compile(STATUS)
_TYPED_STATUS = STATUS + r"|\$status\b|\$\{status\}"
_TYPED_ECHO_OF_STATUS = re.compile(rf"(?:echo|print)\s+(?:-[ner]+\s+)?([^;&|<>\n]*?(?:{_TYPED_STATUS})[^;&|<>\n]*)")
"""An echo typed at a prompt with words around the status: bash's ``echo "rc=$?"``, and zsh's
``print "status: $status"`` (zshbuiltins(1), ``print``: "like echo"; ``$status``: zshparam(1)),
which a zsh user types as often. Not in :func:`echoed_exit`: an agent's shell is bash, where
``$status`` is unset."""
_TYPED_STATUS_VAR = re.compile(_TYPED_STATUS)


def echoed_exit(command: str, output: str) -> int | None:
    """The status a command prints of itself: agents run ``python bench.py; echo "EXIT: $?"``
    so the tool's own exit code is the echo's 0 and the real one is only in the output. The
    output line the echo wrote, its words with ``$?`` as a number (bash(1): echo joins its
    arguments with one space), gives it (the last such line: a log printed before may hold one)."""
    found = _echoed_line(command, output)
    return found[0] if found else None


def without_echoed_exit(command: str, output: str) -> str:
    """``output`` without the line :func:`echoed_exit` read the status from: what the commands
    before the echo printed. Read for their errors with it, ``false; echo $?`` gave the error
    "1", the echo's own line, where a status shown by the prompt gives "exit code 1"."""
    found = _echoed_line(command, output)
    if found is None:
        return output
    _, start, end = found
    return output[:start] + output[end + 1:]


def _echoed_line(command: str, output: str) -> tuple[int, int, int] | None:
    """:func:`echoed_exit`'s status, and where its line starts and ends in ``output``."""
    saved = _SAVED_STATUS.search(command)
    if saved is not None:
        # `...; rc=$?; echo "rc=$rc"`: the variable holds the status; read it as $? from there on
        name = saved.group(1)
        command = command[:saved.end()] + re.sub(rf"\$(?:{name}\b|\{{{name}\}})", "$?", command[saved.end():])
    m = _ECHO_OF_STATUS.search(command)
    if m is None or "'" in m.group(1) or "`" in m.group(1) or not command[:m.start()].strip():
        # '$?' is not expanded; a command substitution prints what we cannot know; an echo that
        # starts the command reports on no command of its own
        return None
    if _LOOP_BEFORE.search(command, 0, m.start()) and _LOOP_END.search(command, m.end()):
        # `until curl -sf .../health; do echo "not ready ($?)"; sleep 5; done`: each try's status,
        # not the loop's (which ends 0 once the server answers)
        return None
    return _status_line(command, m, output)


def typed_echo_status(command: str, output: str) -> int | None:
    """The status of the command before, from an echo typed alone at a prompt: ``echo $?``
    (:data:`TYPED_STATUS_ECHO`, its output the number alone) or one with words around it,
    ``echo "status: $?"``, ``echo rc=$?``, its output that line with the number in it (bash(1),
    Special Parameters: ``?``, the most recent foreground pipeline's status)."""
    if "+ " in output:
        output = _untraced(output)
    if TYPED_STATUS_ECHO.match(command):
        status = output.strip()
        return int(status) if status.isdigit() and len(status) <= 3 else None
    if "$" not in command:
        return None
    command = command.strip()
    m = _TYPED_ECHO_OF_STATUS.match(command)
    if m is None or command[m.end():].strip(" ;") or "'" in m.group(1) or "`" in m.group(1):
        return None  # more than the echo, '$?' not expanded, a command substitution's output
    # (bash's `echo "rc=$status"` prints "rc=": no number, no status)
    found = _status_line(command, m, output, _TYPED_STATUS_VAR)
    return found[0] if found else None


def _untraced(output: str) -> str:
    """``output`` without the lines bash's xtrace wrote into it (``set -x``: "+ echo 1", the
    command as it ran, before its output; "++ ..." of a PROMPT_COMMAND after it): each begins
    with PS4, "+ " by default, its first character repeated for each level of indirection
    (bash(1), SHELL VARIABLES, PS4)."""
    return "\n".join(line for line in output.split("\n") if not _XTRACE_LINE.match(line))


_XTRACE_LINE = re.compile(r"\++ ")


def _status_line(command: str, m: re.Match, output: str,
                 status_var: re.Pattern = _STATUS_VAR) -> tuple[int, int, int] | None:
    """The status the echo ``m`` of ``command`` printed, read from its line of ``output``, and
    where that line starts and ends there."""
    # \$? in a command sent through ssh "...": the remote shell's status, printed the same way
    words = " ".join(m.group(1).replace('"', "").replace("\\$", "$").split())
    parts = status_var.split(words)
    if len(parts) != 2 or "$" in parts[0] or "$" in parts[1]:
        return None  # another variable or two statuses: the line cannot be matched
    # `echo -e "\nEXIT: $?"` (zsh's echo and `echo -e` turn \n into a line break): the status's own line
    parts = [parts[0].rsplit("\\n", 1)[-1].lstrip(), parts[1].split("\\n", 1)[0].rstrip()]
    if not parts[0] and not parts[1]:
        # A bare number could be any output's: only the last line, from an echo that ends the command.
        if command[m.end():].strip(" ;\n\"") or not output.strip():
            return None
        end = len(output.rstrip())
        start = output.rfind("\n", 0, end) + 1
        last = output[start:end].strip()
        return (int(last), start, end) if last.isdigit() and len(last) <= 3 else None
    line = re.compile(rf"^[ \t\r]*{re.escape(parts[0])}(\d{{1,3}}){re.escape(parts[1])}[ \t\r]*$", re.M)
    skipped = max(0, len(output) - 20000)
    found = None
    for found in line.finditer(output, skipped):
        pass
    return (int(found.group(1)), found.start(), found.end()) if found else None


_GNU_TIME_STATUS = re.compile(r"^Command (?:exited with non-zero status (\d{1,3})|terminated by signal (\d{1,2}))\s*$",
                              re.M)
"""GNU time's own word on how the command it timed ended, written before its resource report
(time src/time.c, summarize: "Command exited with non-zero status %d", "Command terminated by
signal %d"); bash's ``time`` keyword prints no such line."""


def timed_exit(command: str, output: str) -> int | None:
    """The status GNU time (``/usr/bin/time python3 x.py``, ``command time ...``) reports of the
    command it ran, where its output ends on the report: the status, or 128 + the signal that
    ended it (bash(1), EXIT STATUS); else None."""
    if "time" not in command:
        return None
    tail = output[-2000:]
    if "Command " not in tail:
        return None
    found = _GNU_TIME_STATUS.findall(tail)
    if not found:
        return None
    status, signal = found[-1]
    return int(status) if status else 128 + int(signal)

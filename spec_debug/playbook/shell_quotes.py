"""A `run:` command with a quote that never closes: `run: echo "abc`.

bash reads to the end of the script looking for the closing quote and fails before running
anything ("unexpected EOF while looking for matching `\"'"), on every host, exit code 2: the
playbook validated ok and each step said only "exit code 2". It is refused at load, where the
quote is written.

Two judges, so a legitimate script is never refused: a small scanner of POSIX quoting (Shell &
Utilities 2.2: backslash, '...', "...", and a comment from a `#` that starts a word) finds the
quote that seems unclosed, and only then the controller's own shell reads the script with `-n`
(no command runs) and must fail the same way. The scanner alone would be wrong on what it does
not follow (a heredoc body's `don't`, quotes nested in `"$(...)"`); the shell alone would refuse
what only its version lacks (bash 3.2's `|&`), so only an unclosed quote both agree on is
refused. Without a shell on the controller nothing is refused.

A `{{ ... }}` is a word here (its value is shell-quoted when rendered: templating.shell_quote);
a script with `{% ... %}` (a branch may open a quote the other closes) or a `| raw` value (it
may hold quotes) is not judged.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass

_WORD_BREAK = " \t\n;&|()<>"
_TEMPLATE = re.compile(r"\{\{.*?\}\}|\{#.*?#\}", re.DOTALL)
_RAW_FILTER = re.compile(r"\|\s*raw\b")
# bash: "unexpected EOF while looking for matching `\"'"; dash: "Unterminated quoted string".
_SHELL_SAYS_UNCLOSED = re.compile(r"unexpected EOF while looking for matching|Unterminated quoted string")
_SHELL_LINE = re.compile(r"line (\d+): ")


@dataclass(frozen=True)
class UnclosedQuote:
    index: int
    """Where in the command the quote opens (the scanner's reading)."""
    quote: str
    """The quote as written: ', " or $'."""
    shell_said: str
    """The shell's own words, e.g. "unexpected EOF while looking for matching `\"'"."""
    shell_line: int | None
    """The command's line (1-based) the shell named, where it names one."""


def _scan(command: str) -> tuple[int, str] | None:
    """(index, quote) of the quote the scanner sees open at the end of command, else None."""
    state = ""  # "", "'", '"', "$'"
    opened = 0
    i, n = 0, len(command)
    while i < n:
        char = command[i]
        if state == "'":
            if char == "'":
                state = ""
        elif state in ('"', "$'"):
            if char == "\\":
                i += 1
            elif char == state[-1]:
                state = ""
        elif command.startswith("{{", i) or command.startswith("{#", i):
            template = _TEMPLATE.match(command, i)
            if template is None:
                return None  # Jinja reports it
            i = template.end()
            continue
        elif char == "\\":
            i += 1
        elif char == "#" and (i == 0 or command[i - 1] in _WORD_BREAK):
            end = command.find("\n", i)
            if end < 0:
                break
            i = end
            continue
        elif char == "$" and command.startswith("$'", i):
            state, opened = "$'", i
            i += 1
        elif char in "'\"":
            state, opened = char, i
        i += 1
    return (opened, state) if state else None


def _shell_reading(script: str) -> str | None:
    """What `bash -n` (else `sh -n`) says of the script when it fails, else None (it parses, or
    there is no shell to ask)."""
    shell = shutil.which("bash") or shutil.which("sh")
    if shell is None:
        return None
    # /dev/stdin as the script file: the shell names the line where the quote opened (read as
    # `bash -n` from a pipe it names none). No startup file is read (BASH_ENV unset), C messages.
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LC_ALL": "C"}
    try:
        done = subprocess.run([shell, "-n", "/dev/stdin"], input=script.encode("utf-8", "surrogateescape"),
                              capture_output=True, timeout=10, env=env, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    if done.returncode == 0:
        return None
    return done.stderr.decode("utf-8", "replace").strip()


def unclosed_quote(command: str) -> UnclosedQuote | None:
    """The quote `command` opens and never closes, when the scanner and the shell agree."""
    if ("'" not in command and '"' not in command) or "{%" in command:
        return None
    if "{{" in command and any(_RAW_FILTER.search(t.group(0)) for t in _TEMPLATE.finditer(command)):
        return None
    scanned = _scan(command)
    if scanned is None:
        return None
    # Each template as one word, its line ends kept so the shell's line numbers are the command's.
    script = _TEMPLATE.sub(lambda m: "x" + "\n" * m.group(0).count("\n"), command) if "{" in command else command
    said = _shell_reading(script)
    if said is None:
        return None
    first = said.splitlines()[0]
    unclosed = _SHELL_SAYS_UNCLOSED.search(first)
    if unclosed is None:
        return None  # another syntax error first (bash 3.2's `|&`): not this check's to judge
    line = _SHELL_LINE.search(first)
    return UnclosedQuote(scanned[0], scanned[1], first[unclosed.start():], int(line.group(1)) if line else None)

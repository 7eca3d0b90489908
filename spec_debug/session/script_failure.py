"""A shell script typed at a prompt whose last command failed, in a terminal log that records
no exit status.

A script's status is its last command's: the one ``set -e`` stopped it at, or the one it ended
with (bash(1), EXIT STATUS; ``-e``). Its output then ends on that command's failure, under the
command's name (``cp: cannot stat '/models/x': No such file or directory``), not the script's, so
the reading of a failure a command's own program wrote (:func:`failures.program_said_failure`)
missed it and the call was no failure. Under ``bash -x`` the trace says which command ran last
(``+ cp /models/x ...``): the failure must be its, else the script went on after it."""

from __future__ import annotations

import re

from spec_debug.session.failures import ErrorInfo, last_line_failure
from spec_debug.session.shell import script_run, sole_program
from spec_debug.session.shell_words import C_SHELLS, and_list, shell_c_script, simple_commands, status_pipeline

_SHELL_SCRIPT = (".sh", ".bash")
_LAST_TRACE = re.compile(r"^\++ (?P<program>[^\s=]+)(?:\s|$)", re.M)
"""A ``set -x`` trace line (bash's PS4, ``+ `` and a ``+`` more per level) of a command run."""


def script_said_failure(command: str, output: str, pipefail: bool = False, _depth: int = 0) -> ErrorInfo | None:
    """The failure the last line of a shell script's ``output`` shows, where ``command`` runs a
    shell script (``./deploy.sh``, ``bash deploy.sh``, ``sh x.sh``; or a shell given it as its
    ``-c`` script, ``bash -lc 'cd /w && ./deploy.sh'``) and its status is the line's, or is one
    that stops at its first failure (``set -e``: the script of ``ssh gpu02 bash <<'EOF'``) and
    runs the program that wrote the line; else None. ``pipefail``: the shell had ``set -o
    pipefail`` on, so ``./deploy.sh | tee log`` fails with the script."""
    program = sole_program(command)
    if program in C_SHELLS and _depth < 2 and (script := shell_c_script(command)):
        # `bash -lc './deploy.sh'` (a login shell for conda's PATH): bash -c's status is its
        # script's last command's (bash(1), -c), as python_exit reads it
        return script_said_failure(script, output, pipefail, _depth + 1)
    script = script_run(command)
    file_run = script.endswith(_SHELL_SCRIPT) and _status_is_the_scripts(command, script, program, pipefail)
    if not file_run and not ("set -" in command or "errexit" in command):
        return None
    said = last_line_failure(output)
    if said is None:
        return None
    name, line = said
    if not file_run and not _stops_at_failure_running(command, name):
        return None
    if "+" in output and (traces := _LAST_TRACE.findall(output)):
        last = traces[-1].rsplit("/", 1)[-1]
        if name != last and f"{name}: line " not in line:
            return None  # traced: a command ran after the one that failed
    return ErrorInfo("tool_error", None, line)


def _status_is_the_scripts(command: str, script: str, program: str, pipefail: bool) -> bool:
    """The line's status is the script's failure (bash(1), Pipelines and Lists): it runs the
    script alone (setup and wrappers aside: ``cd /w && sudo ./deploy.sh``, ``bash deploy.sh``),
    in an ``&&`` list (what came after never ran), or in the one pipeline under ``pipefail``.
    ``./deploy.sh | tee log`` without it exits with tee's 0, and ``./deploy.sh; echo done`` with
    echo's: no failed call, as python_exit reads the same lines."""
    if program:
        return program == script or program in C_SHELLS
    if pipefail and status_pipeline(command) is not None:
        return True
    return and_list(command) is not None


def _stops_at_failure_running(script: str, program: str) -> bool:
    """``script`` turns on errexit (``set -e``, ``set -euo pipefail``, ``set -o errexit``: bash(1),
    ``set``) and then runs ``program``: a failure ``program`` wrote last ended it there."""
    errexit = False
    for argv in simple_commands(script):
        if isinstance(argv, str) or not argv:
            continue
        if argv[0] == "set":  # `set -e` on, `set +e` off
            for flag in argv[1:]:
                if flag[:1] in "-+" and flag[1:2] != flag[:1] and "e" in flag:
                    errexit = flag[0] == "-"
            errexit = errexit or "errexit" in argv[1:]
        elif errexit and argv[0].rsplit("/", 1)[-1] == program:
            return True
    return False

"""A Python program typed at a prompt that ended on its own failure message, in a terminal log
that records no exit status.

``sys.exit("Error: could not load draft")`` prints its string to stderr and exits 1 (Python docs,
``sys.exit``: "If another type of object is passed, ... printed to stderr and results in an exit
code of 1"), and argparse's ``parser.error`` prints the usage, then ``prog: error: message``, and
exits 2 (cpython Lib/argparse.py, ``ArgumentParser.error``). Neither is a traceback, nor written
under the interpreter's name, so the call read as a success. Only the output's last line counts:
an ``Error:`` a script printed and went on from is followed by what it did next."""

from __future__ import annotations

import re

from spec_debug.session.failures import ErrorInfo, last_line
from spec_debug.session.shell import opens_repl, script_run, slurm_step, sole_program
from spec_debug.session.shell_words import C_SHELLS, and_list, shell_c_script, simple_commands, status_pipeline

_PYTHON = re.compile(r"python(?:\d(?:\.\d+)?)?")
_SAID_FAILED = re.compile(r"(?:Error|ERROR|error|Fatal|FATAL|fatal):\s*\S")
"""The message a script hands ``sys.exit`` (or prints before ``sys.exit(1)``) to say it failed:
``Error: ...``, ``ERROR: ...``, ``fatal: ...``; Python logging's ``ERROR:root:...`` too."""
_ARGPARSE_ERROR = re.compile(r"[\w.-]+(?: -m [\w.]+)?: error: \S")
"""argparse's last line, ``%(prog)s: error: %(message)s``; its usage line comes before it."""


def python_said_failure(command: str, output: str, pipefail: bool = False, _depth: int = 0) -> ErrorInfo | None:
    """The failure the last line of ``output`` states, where ``command`` runs one Python program
    (``python3 load.py``, ``python3 -m pkg``, ``python3 -c ...``, ``./load.py``; or a shell given it
    as its script, ``bash -lc 'cd /w && python3 load.py'``) and no exit status was recorded; else
    None. ``pipefail``: the shell had ``set -o pipefail`` on, so a pipeline's status is the
    program's failure too."""
    program = sole_program(command)
    if program in C_SHELLS and _depth < 2 and (script := shell_c_script(command)):
        # `ssh gpu02 "bash -lc '...'"` (a login shell for conda's PATH): bash -c's status is its
        # script's last command's (bash(1), -c)
        return python_said_failure(script, output, pipefail, _depth + 1)
    runs_python = bool(_PYTHON.fullmatch(program)) or (program.endswith(".py") and program == script_run(command))
    if not runs_python and (program in _RUNNERS or (not program and "run" in command)):
        # `uv run python load.py`, `conda run -n eagle python load.py` (conda's a setup word to
        # sole_program, as in `conda activate`): the runner starts the program in the project's
        # environment and exits with its status
        argvs = [argv for argv in simple_commands(command) if isinstance(argv, list) and argv]
        if program or len(argvs) == 1:
            runs_python = any(_runs_python_under_runner(argv) for argv in argvs)
    if not runs_python and program == "srun":
        # `srun --pty python3 load.py` with no node named (with -w the line's command is already
        # the program, as it ran there): srun exits with its tasks' highest exit code
        # (slurm.schedmd.com/srun.html), the program's
        runs_python = any(_runs_python_under_srun(argv) for argv in simple_commands(command) if isinstance(argv, list))
    if not runs_python and not program and pipefail and (line := status_pipeline(command)) is not None:
        # `python3 load.py 2>&1 | tee load.log` after `set -o pipefail` (or with it first on the
        # line): the pipeline's status is the program's failure, not tee's 0 (bash(1), Pipelines)
        runs_python = any(_PYTHON.fullmatch(argv[0].rsplit("/", 1)[-1]) and len(argv) > 1 for argv in line)
    if not runs_python and not program and (chain := and_list(command)) is not None:
        # `python3 load.py && echo loaded`: what ran after it printed nothing, as it never ran
        # when the program failed; the list's status is the program's (shell_words.and_list)
        runs_python = any(argv and (_PYTHON.fullmatch(name := argv[0].rsplit("/", 1)[-1]) or name.endswith(".py"))
                          and len(argv) > 1 for argv in chain)
    if not runs_python or opens_repl(command):
        return None
    line = last_line(output)  # (of the output's last 4,000 characters, not a whole server log)
    if _SAID_FAILED.match(line) or (_ARGPARSE_ERROR.match(line) and "usage: " in output):
        return ErrorInfo("tool_error", None, line)
    return None


_RUNNERS = frozenset({"uv", "poetry", "pipenv", "pixi", "pdm", "hatch", "rye", "conda", "mamba", "micromamba"})
"""Environment managers whose ``run`` starts a program in a project's environment."""


def _runs_python_under_runner(argv: list[str]) -> bool:
    """``argv`` is ``<runner> run [options] python ...`` or ``<runner> run [options] x.py``."""
    if len(argv) < 3 or argv[0].rsplit("/", 1)[-1] not in _RUNNERS or "run" not in argv[1:3]:
        return False
    words = argv[argv.index("run") + 1:]
    i = 0
    while i < len(words) and words[i].startswith("-"):  # the runner's own options
        i += 2 if words[i] in _RUNNER_VALUE_OPTIONS else 1
    program = words[i].rsplit("/", 1)[-1] if i < len(words) else ""
    return bool(_PYTHON.fullmatch(program)) or program.endswith(".py")


def _runs_python_under_srun(argv: list[str]) -> bool:
    """``argv`` runs ``srun [options] python SCRIPT`` (or ``-m``/``-c``; a bare or ``-i`` python
    is a prompt) or ``srun [options] x.py``, behind any wrapper."""
    at = next((k for k, word in enumerate(argv) if word.rsplit("/", 1)[-1] == "srun"), None)
    if at is None:
        return False
    step = slurm_step(argv[at:])
    program = step[0].rsplit("/", 1)[-1] if step else ""
    if program.endswith(".py"):
        return True
    return bool(_PYTHON.fullmatch(program)) and "-i" not in step and \
        any(a in ("-c", "-m") or not a.startswith("-") for a in step[1:])


_RUNNER_VALUE_OPTIONS = frozenset({"-n", "--name", "-p", "--prefix", "--python", "--with", "--with-requirements",
                                   "--project", "--directory", "-C", "--package", "--extra", "--group", "--env-file",
                                   "--index", "-e", "--environment", "--manifest-path"})
"""Options of those runners' ``run`` that take a value (``conda run -n eagle``, ``uv run --with
torch``, ``pixi run -e cuda``), so the word after one is no program."""

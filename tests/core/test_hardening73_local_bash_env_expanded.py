"""A BASH_ENV that names its file through a variable stays quiet in local steps too.

bash expands $BASH_ENV before reading it, as between double quotes (bash(1), INVOCATION;
shell.c execute_env_file): `BASH_ENV='$HOME/.envrc'`, as a CI runner or a dotfile sets it, is
read as ~/.envrc. The local runner, which drops what a BASH_ENV file prints (hardening72), left
every value with a `$` or a backquote to bash: the file's "loaded-env" banner and its stderr
warning came first in every `--host local` step's output, and `that: stdout.startswith(...)`
or a json: capture read a line the step never wrote. The value is now expanded as bash would,
in the step's shell; the file's functions and variables are there, BASH_ENV is exported as it
was (a bash the step starts reads and prints it as before), and an expansion that comes out
empty reads nothing, as bash does. Through the real CLI.
"""

from __future__ import annotations

import pytest

from tests.conftest import only_run, run_cli

PLAYBOOK = (
    "name: p\nsteps:\n"
    "  - id: drv\n    run: \"myfn; echo $FROM_ENV $LINENO\"\n"
    "    expect:\n      - that: stdout.startswith('fn-ok')\n"
    "  - id: child\n    run: \"echo \\\"$BASH_ENV\\\"; bash -c 'myfn'\"\n"
)


def _home(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".envrc").write_text("echo loaded-env\necho env-err >&2\nmyfn() { echo fn-ok; }\nexport FROM_ENV=yes\n")
    return home


@pytest.mark.parametrize("value", ["$HOME/.envrc", "${HOME}/.envrc", "$(echo $HOME)/.envrc", "`echo $HOME`/.envrc"])
def test_an_expanded_bash_env_prints_nothing_into_the_step(tmp_path, value):
    home = _home(tmp_path)
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path,
                     env={"HOME": str(home), "BASH_ENV": value})
    assert result.code == 0, result.stderr
    _, record = only_run(tmp_path / "runs")
    assert [(s["stdout"], s["stderr"], s["status"]) for s in record["steps"]] == [
        ("fn-ok\nyes 1\n", "", "passed"),  # was "loaded-env\nfn-ok\nyes 1\n", "env-err\n", failed
        # the step's own bash reads BASH_ENV itself, as exported: its output is the step's
        (f"{value}\nloaded-env\nfn-ok\n", "env-err\n", "passed"),
    ], result.stderr


def test_a_bash_env_that_expands_to_nothing_reads_nothing(tmp_path):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: s\n    run: \"echo ok; type myfn >/dev/null 2>&1 || echo no-fn\"\n")
    _home(tmp_path)
    result = run_cli("run", "p.yaml", "--host", "local", "--out", "runs", cwd=tmp_path,
                     env={"BASH_ENV": "${SPEC_DEBUG_UNSET_VAR}"})
    _, record = only_run(tmp_path / "runs")
    (step,) = record["steps"]
    assert (step["stdout"], step["stderr"], step["status"]) == ("ok\nno-fn\n", "", "passed"), result.stderr

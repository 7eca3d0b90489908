"""`python -m spec_debug --install-completion` (or `--show-completion`) wrote a script that never
completed anything: Typer names it after the program, which under `python -m` is "python -m
spec_debug", so the script called `_PYTHON _M SPEC_DEBUG_COMPLETE=complete_bash` (a variable
name with spaces, run by bash as a command), bound `complete` to "python -m spec_debug", and was
written to "~/.bash_completions/python -m spec_debug.sh". Now the script is the `spec-debug`
command's, as the console script gives it; usage lines still say what was typed."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_cli


def _python_m(*args: str, home: Path) -> subprocess.CompletedProcess:
    # Typer's switch that makes the option take the shell's name instead of detecting the shell
    # from the process tree (which under pytest may be none)
    env = {**os.environ, "HOME": str(home), "COLUMNS": "200", "_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1"}
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True,
                          timeout=120, env=env, cwd=home)


def test_show_completion_is_for_the_spec_debug_command(tmp_path: Path) -> None:
    result = _python_m("--show-completion", "bash", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "_SPEC_DEBUG_COMPLETE=complete_bash $1" in result.stdout
    assert result.stdout.rstrip().splitlines()[-1] == "complete -o default -F _spec_debug_completion spec-debug"
    assert "python" not in result.stdout.lower()


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_install_completion_writes_a_script_bash_binds_to_spec_debug(tmp_path: Path) -> None:
    result = _python_m("--install-completion", "bash", home=tmp_path)
    assert result.returncode == 0, result.stderr
    script = tmp_path / ".bash_completions" / "spec-debug.sh"
    assert sorted(p.name for p in (tmp_path / ".bash_completions").iterdir()) == ["spec-debug.sh"]
    assert (tmp_path / ".bashrc").read_text().strip() == f"source '{script}'"
    bound = subprocess.run(["bash", "--norc", "-c", f"source '{script}' && complete -p spec-debug"],
                           capture_output=True, text=True, timeout=30)
    assert (bound.returncode, bound.stdout.strip()) == (0, "complete -o default -F _spec_debug_completion spec-debug")


def test_a_usage_error_still_names_python_dash_m(tmp_path: Path) -> None:
    result = run_cli("findings", "--nosuch", cwd=tmp_path, real_process=True)
    assert result.code == 2
    assert "python -m spec_debug findings --help" in result.stderr

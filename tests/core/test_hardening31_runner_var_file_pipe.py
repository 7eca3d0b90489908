"""`--var-file <(sops -d cluster.yaml)`: secrets decrypted into a pipe, never onto the disk. The
CLI read each var file twice (once for the vars, again to check their names against the
playbook); the second read of the pipe found it empty, so a var the playbook does not declare
passed that check and was refused later as "v.yaml: --var modle is not a var of playbook",
naming the playbook and an option the user never passed. The file is now read once."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

PLAYBOOK = "name: p\nvars:\n  model: m\nsteps:\n  - id: a\n    run: echo {{ model }}\n"
REPO_ROOT = Path(__file__).resolve().parents[2]


def _run_with_var_file_from_a_pipe(tmp_path: Path, var_text: str, *extra: str) -> subprocess.CompletedProcess[str]:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    command = (f"{shlex.quote(sys.executable)} -m spec_debug run {shlex.quote(str(playbook))} --host local "
               f"--out {shlex.quote(str(tmp_path / 'runs'))} --var-file <(printf %s {shlex.quote(var_text)}) "
               + " ".join(extra))
    return subprocess.run(["bash", "-c", command], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT)


def test_an_unknown_var_in_a_piped_var_file_is_named_at_its_line_in_that_file(tmp_path):
    result = _run_with_var_file_from_a_pipe(tmp_path, "model: b\nmodle: c\n")
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert ":2:1: modle is not a var of playbook 'p'" in result.stderr, result.stderr
    assert "/dev/fd/" in result.stderr and "--var modle" not in result.stderr, result.stderr


def test_a_piped_var_file_still_sets_the_vars(tmp_path):
    result = _run_with_var_file_from_a_pipe(tmp_path, "model: from-the-pipe\n", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"].strip() == "from-the-pipe"

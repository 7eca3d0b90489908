"""`spec-debug run "$PLAYBOOK" --host gpu01` with PLAYBOOK unset passes an empty argument.
Path("") is the current folder, so run, explain, `playbooks validate` and `playbooks show` said
"<playbook>: is a directory, not a playbook file" and listed the folder's YAML files, as if the
user had named it. They now say the argument is empty; a file really named " " still loads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """
name: blank
steps:
  - id: hello
    run: echo hello
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


@pytest.mark.parametrize("argv", [
    ["run", "", "--host", "local"],
    ["explain", ""],
    ["explain", "  "],
    ["playbooks", "validate", ""],
    ["playbooks", "show", ""],
])
def test_an_empty_playbook_argument_is_named_as_empty(tmp_path, argv):
    (tmp_path / "other.yaml").write_text(PLAYBOOK)
    proc = _cli(*argv, cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "the playbook argument is empty" in proc.stderr
    assert "is a directory" not in proc.stderr and "other.yaml" not in proc.stderr
    assert "host_smoke" in proc.stderr  # the hint lists the shipped playbooks
    assert not (tmp_path / "runs").exists()


def test_a_file_named_blank_still_loads(tmp_path):
    (tmp_path / " ").write_text(PLAYBOOK)
    proc = _cli("playbooks", "validate", " ", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr

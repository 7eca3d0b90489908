"""The hints of a -o file that cannot be written named what the command does not have:
`schema -o /dev/full` (a full disk) said "pass --out DIR on another disk", an option of run and
demo only; `schema -o schemas/`, `findings --markdown docs/` and `explain p.yaml -o out/` (a
folder) said "name a file, e.g. schemas/report.md", a report name for a schema, a catalog and a
walkthrough. Each now names a file of what it writes, and a full disk no missing option."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """
name: hinted
steps:
  - id: hello
    run: echo hello
"""


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=60, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


@pytest.mark.parametrize(("argv", "example"), [
    (["schema", "-o", "out"], "playbook.schema.json"),
    (["findings", "--markdown", "out"], "findings.md"),
    (["explain", "p.yaml", "-o", "out"], "walkthrough.md"),
    (["explain", "p.yaml", "--format", "html", "-o", "out"], "walkthrough.html"),
])
def test_a_folder_given_as_the_output_gets_a_file_name_of_what_is_written(tmp_path, argv, example):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "out").mkdir()
    proc = _cli(*argv, cwd=tmp_path)
    assert proc.returncode == 3, proc.stderr
    assert "Traceback" not in proc.stderr
    assert "error: cannot write out: it is a folder" in proc.stderr
    assert f"hint: name a file, e.g. {Path('out') / example}" in proc.stderr
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (a device that is always full)")
@pytest.mark.parametrize("argv", [["schema", "-o", "/dev/full"], ["explain", "p.yaml", "-o", "/dev/full"],
                                  ["findings", "--markdown", "/dev/full"]])
def test_a_full_disk_hint_names_no_option_the_command_lacks(tmp_path, argv):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(*argv, cwd=tmp_path)
    assert proc.returncode == 3, proc.stderr
    assert "No space left on device" in proc.stderr
    hint = next(line for line in proc.stderr.splitlines() if line.lstrip().startswith("hint:"))
    assert "free some space there" in hint
    assert "pass --out" not in hint

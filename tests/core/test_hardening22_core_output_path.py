"""`-o` naming a file under a file (`-o notes.md/walkthrough.md`, a typo for a folder): mkdir
fails with "File exists", and the error said "cannot create the folder notes.md: File exists",
as if the folder were there. It now says the file is in the way; the file is untouched."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

PLAYBOOK = """\
name: simple
steps:
  - id: hello
    why: says hello
    run: echo hello
"""


@pytest.mark.parametrize("output", ["notes.md/walkthrough.md", "notes.md/deeper/walkthrough.html"])
def test_explain_to_a_path_under_a_file_names_the_file(tmp_path, output):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "notes.md").write_text("mine\n")
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "explain", "p.yaml", "-o", output], capture_output=True,
                          text=True, cwd=tmp_path, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    said = " ".join(proc.stderr.split())
    assert proc.returncode != 0 and "Traceback" not in said
    folder = output.rsplit("/", 1)[0]
    assert f"error: cannot create the folder {folder}: notes.md is a file, not a folder" in said, said
    assert "File exists" not in said
    assert (tmp_path / "notes.md").read_text() == "mine\n"

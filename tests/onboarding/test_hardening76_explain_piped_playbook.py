"""`curl -s URL | spec-debug explain -` (a playbook shared by URL, as docs/playbooks.md pipes one
to `run`): the walkthrough said "step through it with `spec-debug run /dev/stdin --host HOST
--step`", a command `run` refuses (--step reads its answers from standard input), and "the whole
walkthrough: `spec-debug explain /dev/stdin`", which reads an empty pipe. It now says to save the
playbook as playbook.yaml first and gives the commands for that file; a playbook file keeps its
own path, and the JSON says `"piped"`."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PLAYBOOK = "name: t\nsteps:\n  - id: a\n    run: echo one\n  - id: b\n    run: echo two\n"


def _explain(tmp_path, *args: str, piped: bool = True) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", "explain", *args], input=PLAYBOOK if piped else None,
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_piped_walkthrough_says_save_it_first(tmp_path):
    proc = _explain(tmp_path, "-")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[2:5] == [
        "It was read from a pipe: save it as `playbook.yaml` first (e.g. `curl -s URL -o playbook.yaml`).",
        "Run it with `spec-debug run playbook.yaml --host HOST`, or step through it with",
        "`spec-debug run playbook.yaml --host HOST --step` to see each command before it runs."]
    assert "/dev/stdin" not in proc.stdout
    one = _explain(tmp_path, "-", "b")
    assert "the whole walkthrough: `spec-debug explain playbook.yaml`." in one.stdout, one.stdout
    data = json.loads(_explain(tmp_path, "-", "--json").stdout)
    assert (data["run_as"], data["piped"]) == ("playbook.yaml", True)


def test_a_file_keeps_its_path(tmp_path):
    (tmp_path / "mine.yaml").write_text(PLAYBOOK)
    proc = _explain(tmp_path, "mine.yaml", piped=False)
    assert proc.stdout.splitlines()[2] == "Run it with `spec-debug run mine.yaml --host HOST`, or step through it with"
    assert "pipe" not in proc.stdout
    data = json.loads(_explain(tmp_path, "mine.yaml", "--json", piped=False).stdout)
    assert (data["run_as"], data["piped"]) == ("mine.yaml", False)

"""What `spec-debug run` and `report` are given as users write them, through the real CLI.

- `--junit` naming a folder, or a path under a file: it failed only after the whole run, when
  the XML was written (exit 3, "aborted", with every step passed), and `report` cannot write
  JUnit again. Now refused before anything runs, with the file to name.
- Every Markdown report ends "re-render with `spec-debug report <run-id>`"; that said "no run
  record at <run-id>". A bare run id now means runs/<run-id>, where `run` puts it by default.
- An unreachable host's fix read "Is sshd running and listening on that port?. Check that ...".
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest

PLAYBOOK = """\
name: simple
steps:
  - id: hello
    run: echo hello
"""


def _cli(cwd, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize(("junit", "says", "hint"), [
    ("ci", "error: --junit ci is a folder", "hint: name a file, e.g. --junit ci/junit.xml"),
    ("notes.txt/junit.xml", "error: --junit notes.txt/junit.xml: notes.txt is a file, not a folder",
     "hint: name a file in a folder"),
])
def test_a_junit_path_that_cannot_be_written_is_refused_before_the_run(tmp_path, junit, says, hint):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    (tmp_path / "ci").mkdir()
    (tmp_path / "notes.txt").write_text("mine\n")
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "--out", "runs", "--junit", junit)
    said = " ".join((proc.stdout + proc.stderr).split())
    assert proc.returncode == 2, said
    assert says in said and hint in said
    assert "Traceback" not in said
    assert not (tmp_path / "runs").exists()  # nothing ran
    assert (tmp_path / "notes.txt").read_text() == "mine\n"


def test_a_junit_file_in_a_new_folder_is_still_written(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "--out", "runs", "--junit", "ci/out/junit.xml")
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "ci" / "out" / "junit.xml").read_text().startswith("<?xml")


def test_the_reports_own_re_render_line_works(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    footer = re.search(r"re-render with `(spec-debug report [^`]+)`", (run_dir / "report.md").read_text()).group(1)
    proc = _cli(tmp_path, *footer.split()[1:], "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["run_id"] == run_dir.name
    # a name that is no run anywhere still says what to pass
    proc = _cli(tmp_path, "report", "20990101T000000000Z-none-00000000")
    assert proc.returncode == 2 and "no run record at 20990101T000000000Z-none-00000000" in proc.stderr


def test_a_file_named_like_the_run_id_here_is_read_as_given(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    (tmp_path / run_dir.name).write_text("not a record")
    proc = _cli(tmp_path, "report", run_dir.name)
    assert proc.returncode == 2 and "is not a run record" in proc.stderr


def test_an_unreachable_hosts_fix_reads_as_sentences(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "root@127.0.0.1:1", "--batch", "--connect-timeout", "5", "--json")
    assert proc.returncode == 3, proc.stderr
    (finding,) = json.loads(proc.stdout)["findings"]
    assert finding["code"] == "SD005"
    assert finding["remediation"].startswith("Is sshd running and listening on that port? Check that `ssh HOST` works")
    assert "?." not in finding["remediation"]

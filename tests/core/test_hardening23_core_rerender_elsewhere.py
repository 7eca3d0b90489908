"""The report's own re-render line works as printed for a run written with -o DIR.

Every Markdown report ends "re-render with `spec-debug report <run-id>`". A bare run id is read
from ./runs; for a run written with `-o /scratch/runs` (or `-o "my runs"`) that answered "no run
record at <run-id>". The footer now names the run folder when it is not runs/<run-id> here, the
bare-id error says where a bare id is looked for, and report.md ends with a newline.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys

PLAYBOOK = """\
name: simple
steps:
  - id: hello
    run: echo hello
"""


def _cli(cwd, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def _footer_command(report_md) -> list[str]:
    text = report_md.read_text()
    assert text.endswith("`.\n"), text[-80:]
    return shlex.split(re.search(r"re-render with `(spec-debug report [^`]+)`", text).group(1))


def test_an_absolute_out_folder_is_named_in_the_footer_and_works_from_anywhere(tmp_path):
    (tmp_path / "work").mkdir()
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "work" / "p.yaml").write_text(PLAYBOOK)
    out = tmp_path / "scratch" / "runs"
    assert _cli(tmp_path / "work", "run", "p.yaml", "--host", "local", "-o", str(out)).returncode == 0
    (run_dir,) = out.iterdir()
    command = _footer_command(run_dir / "report.md")
    assert command[-1] == str(run_dir)
    proc = _cli(tmp_path / "elsewhere", *command[1:], "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["run_id"] == run_dir.name
    # the re-rendered report names the same folder
    proc = _cli(tmp_path / "elsewhere", *command[1:])
    assert f"spec-debug report {run_dir}`" in proc.stdout


def test_a_relative_out_folder_with_a_space_is_quoted(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "my runs").returncode == 0
    (run_dir,) = (tmp_path / "my runs").iterdir()
    command = _footer_command(run_dir / "report.md")
    assert command[-1] == f"my runs/{run_dir.name}"
    proc = _cli(tmp_path, *command[1:], "--json")
    assert proc.returncode == 0, proc.stderr


def test_the_default_runs_folder_keeps_the_bare_id(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "./runs").returncode == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert _footer_command(run_dir / "report.md")[-1] == run_dir.name


def test_a_bare_id_not_under_runs_says_where_it_was_looked_for(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "out").returncode == 0
    (run_dir,) = (tmp_path / "out").iterdir()
    proc = _cli(tmp_path, "report", run_dir.name)
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 2 and "Traceback" not in said
    assert f"no run record at {run_dir.name}" in said
    assert f"for a run written with -o DIR, pass DIR/{run_dir.name}" in said


def test_report_dash_o_ends_with_a_newline(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    assert _cli(tmp_path, "report", run_dir.name, "-o", "again.md").returncode == 0
    assert (tmp_path / "again.md").read_text().endswith("\n")
    assert (run_dir / "report.html").read_text().endswith("</html>\n")

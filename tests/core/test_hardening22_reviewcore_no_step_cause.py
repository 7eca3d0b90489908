"""A run in which no step ran because every host stopped with an error that is not a connection
failure (an internal error, as a `[/x]` answer to the step-through prompt raised; a template
error): the report said "no host could be reached (see Findings)", but the host was reached and
there was no finding to see. Unreachable is a host's SD005 finding (runner/engine.py); a host in
error without one now reads "every host stopped with an error before its first step"."""

from __future__ import annotations

import json
import os
import subprocess
import sys

PLAYBOOK = """\
name: simple
steps:
  - id: hello
    run: echo hello
"""


def _cli(cwd, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          input=stdin, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_a_host_in_error_without_sd005_is_not_called_unreachable(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "--step", stdin="q\n").returncode == 3
    (run_dir,) = (tmp_path / "runs").iterdir()
    record = json.loads((run_dir / "run.json").read_text())
    record["status"] = "error"
    record["hosts"][0].update(status="error", error="internal error: MarkupError: closing tag '[/x]'")
    (run_dir / "run.json").write_text(json.dumps(record))
    for fmt, said in (("md", "No step ran: every host stopped with an error before its first step"),
                      ("html", "<p>No step ran: every host stopped with an error before its first step")):
        proc = _cli(tmp_path, "report", str(run_dir), "--format", fmt)
        assert proc.returncode == 0, proc.stderr
        assert said in proc.stdout and "could be reached" not in proc.stdout

"""`-o ./-` is a file named "-", as for curl, tar and sort, where `-o -` is standard output.
The option was a typer Path, which turns `./-` into `-` before the command sees it: `report`,
`explain`, `schema` and `findings --markdown` printed to stdout and no file named "-" could be
written at all. Through the real CLI, from the folder the file lands in."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest


def _cli(cwd, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize(("args", "starts"), [
    (("report", "RUN", "-o", "./-"), "# Incident report: p"),
    (("explain", "p.yaml", "--output", "./-"), "# Walkthrough"),
    (("schema", "-o", "./-"), "{"),
    (("findings", "--markdown", "./-"), "# Finding codes"),
])
def test_dot_dash_is_the_file_named_dash(tmp_path, args, starts):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: a\n    run: echo hi\n")
    if "RUN" in args:
        assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
        (run,) = (tmp_path / "runs").iterdir()
        args = tuple(str(run) if a == "RUN" else a for a in args)
    proc = _cli(tmp_path, *args)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert (tmp_path / "-").read_text(encoding="utf-8").startswith(starts)
    assert not proc.stdout.strip(), proc.stdout[:200]  # the document went to the file, not to stdout

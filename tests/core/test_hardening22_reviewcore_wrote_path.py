"""`spec-debug report RUN -o PATH` says "wrote PATH" on stderr. The path went through rich markup:
`-o "[bold]x.md"` read "wrote x.md" (not the file written), and a path with "[/x]" in it (a folder
named "[") raised MarkupError as a traceback after the report was written. It is printed as text."""

from __future__ import annotations

import os
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


def test_the_written_path_is_said_as_given(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local").returncode == 0
    (run_dir,) = (tmp_path / "runs").iterdir()
    (tmp_path / "[").mkdir()
    for output in ("[bold]x.md", "[/x].md"):
        proc = _cli(tmp_path, "report", str(run_dir), "-o", output)
        assert proc.returncode == 0, proc.stderr
        assert f"wrote {output}" in proc.stderr and "Traceback" not in proc.stderr
        assert (tmp_path / output).is_file()

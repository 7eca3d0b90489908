"""The report's footer is a command to paste back into a shell: `spec-debug report DIR/<id>`
for a run written with -o DIR. It was made with the table-cell code span, which writes a | as
\\| (GFM tables undo that, a code span outside a table prints it): for -o 'a|b' the pasted
command named the folder 'a\\|b', which does not exist. Through the real CLI and bash."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys

import pytest

_FOOTER = re.compile(r"re-render with (`+) ?(.*?) ?\1\.$")


def _cli(cwd, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


@pytest.mark.parametrize("out", ["logs|today", "it's ünï ☃ $HOME"])
def test_the_footer_pasted_into_bash_renders_the_run(tmp_path, out):
    (tmp_path / "p.yaml").write_text("name: p\nsteps:\n  - id: a\n    run: echo hi\n")
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", out).returncode == 0
    (run,) = (tmp_path / out).iterdir()
    footer = (run / "report.md").read_text(encoding="utf-8").splitlines()[-1]
    pasted = _FOOTER.search(footer)
    assert pasted, footer
    as_typed = f"spec-debug() {{ {shlex.quote(sys.executable)} -m spec_debug \"$@\"; }}; {pasted.group(2)} --format json"
    proc = subprocess.run(["bash", "-c", as_typed], capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and '"run_id"' in proc.stdout, f"{pasted.group(2)}: {proc.stderr}"

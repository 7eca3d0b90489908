"""`spec-debug report RUN --template brief.j2 -o brief.html` (or `--format html`): a template
whose name does not end in .html was rendered without autoescaping although the output is HTML,
so a step's output from the host (`</script><script>alert(1)</script>`) went raw into the
HTML file. A template rendered as HTML now escapes whatever its name; Markdown output from the
same template keeps the text as written."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PLAYBOOK = """\
name: hostile
steps:
  - id: say
    run: "printf '%s\\\\n' '</script><script>alert(1)</script> <b>x</b>'"
"""

TEMPLATE = "<p>{{ record.steps[0].stdout }}</p>\n"


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120, env={**os.environ, "COLUMNS": "300", "NO_COLOR": "1"})


@pytest.fixture(scope="module")
def run_dir(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "p.yaml").write_text(PLAYBOOK)
    (folder / "brief.j2").write_text(TEMPLATE)
    proc = _cli("run", "p.yaml", "--host", "local", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    run = next((folder / "runs").iterdir())
    assert "</script><script>" in (run / "run.json").read_text()
    return run


@pytest.mark.parametrize("how", [["-o", "brief.html"], ["--format", "html", "-o", "brief.out"], ["-o", "brief.htm"]])
def test_a_template_rendered_as_html_escapes_the_host_output(run_dir, how):
    folder = run_dir.parent.parent
    proc = _cli("report", str(run_dir), "--template", "brief.j2", *how, cwd=folder)
    assert proc.returncode == 0, proc.stderr
    text = (folder / how[-1]).read_text()
    assert "<script>" not in text and "<b>" not in text, text
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;x&lt;/b&gt;" in text
    assert text.startswith("<p>")  # the template's own markup is kept


def test_the_same_template_as_markdown_keeps_the_text(run_dir):
    folder = run_dir.parent.parent
    proc = _cli("report", str(run_dir), "--template", "brief.j2", cwd=folder)
    assert proc.returncode == 0, proc.stderr
    assert "</script><script>alert(1)</script> <b>x</b>" in proc.stdout

"""`spec-debug run` when run.json is written but a report is not, and -o paths that look like
console markup, through the real CLI.

- A full disk (or a file-size limit: FAT32, `ulimit -f`) after run.json fits: report.html is
  the largest file. The run's verdict went unsaid and the hint was to run the whole playbook
  again with --out. Now the verdict is said, run.json is named complete, and the hint gives the
  `spec-debug report ... -o ...` line for each report not written. Made real here with
  RLIMIT_FSIZE (SIGXFSZ ignored, so the write fails with EFBIG as on a FAT32 stick).
- `-o '[/x]'`: the closing verdict line read the report path as rich markup and raised
  MarkupError after the run (a traceback, exit 1 as if errors were found); `-o '[bold]y'`
  read "report: y/...". `demo --out` the same.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys

PLAYBOOK = """\
name: p
steps:
  - id: a
    run: head -c 5000 /dev/zero | base64
"""


def _cli(cwd, *args: str, preexec=None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=180, preexec_fn=preexec, env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})


def _file_size_limit(limit: int):
    def preexec() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return preexec


def test_a_report_that_cannot_be_written_still_says_the_verdict_and_how_to_render_it(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "probe").returncode == 0
    (probe,) = (tmp_path / "probe").iterdir()
    sizes = {name: (probe / name).stat().st_size for name in ("run.json", "report.md", "report.html")}
    assert sizes["report.html"] > max(sizes["run.json"], sizes["report.md"]) + 200, sizes
    limit = max(sizes["run.json"], sizes["report.md"]) + 100

    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "runs", preexec=_file_size_limit(limit))
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 3, said
    assert "Traceback" not in said
    (run_dir,) = (tmp_path / "runs").iterdir()
    rel = f"runs/{run_dir.name}"
    assert f"PASSED: 0 error(s), 0 warning(s) · run.json: {rel}/run.json" in said
    assert f"error: cannot write {rel}/report.html: File too large ({rel}/run.json is complete)" in said
    assert f"then: spec-debug report {rel} -o {rel}/report.html" in said
    assert not (run_dir / "report.html").exists()
    # the hint works as printed, once the limit is gone
    again = _cli(tmp_path, "report", rel, "-o", f"{rel}/report.html")
    assert again.returncode == 0, again.stderr
    assert (run_dir / "report.html").read_text().rstrip().endswith("</html>")


def test_an_out_folder_that_looks_like_markup_is_printed_as_written(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "[/x]")
    said = " ".join(proc.stderr.split())
    assert proc.returncode == 0, said
    assert "Traceback" not in said and "MarkupError" not in said
    (run_dir,) = (tmp_path / "[" / "x]").iterdir()
    assert f"report: [/x]/{run_dir.name}/report.md" in said
    proc = _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "[bold]y")
    assert "report: [bold]y/" in " ".join(proc.stderr.split())


def test_demo_out_that_looks_like_markup(tmp_path, monkeypatch):
    # The demo itself takes minutes on a loaded CI machine: its closing line is checked with
    # the record of a real run standing in for the demo's.
    from io import StringIO

    from rich.console import Console

    import spec_debug.demo as demo
    from spec_debug.store import load_record

    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    assert _cli(tmp_path, "run", "p.yaml", "--host", "local", "-o", "[/d]").returncode == 0
    (run_dir,) = (tmp_path / "[" / "d]").iterdir()
    record = load_record(run_dir)
    shown = run_dir.relative_to(tmp_path)
    monkeypatch.setattr(demo, "run_demo", lambda *a, **k: demo.DemoResult(
        record, shown, {"md": shown / "report.md", "html": shown / "report.html"}, tmp_path))
    buffer = StringIO()
    code = demo.demo_command(True, tmp_path / "[/d]", Console(file=buffer, width=400, color_system=None))
    assert code == 0
    assert f"report: [/d]/{run_dir.name}/report.md" in buffer.getvalue()

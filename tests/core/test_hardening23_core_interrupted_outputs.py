"""SIGTERM or Ctrl-C while `spec-debug run` writes its outputs (--junit into a pipe nobody
reads: the CI cancels). The message said "spec-debug report DIR renders them" although both
reports were written and only the JUnit file was missing, which `report` cannot write. Now it
names what is missing and how to finish it. Through the real CLI, with a real FIFO."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def test_a_signal_while_the_junit_file_blocks_names_what_is_missing(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: a\n    run: echo ok\n")
    junit = tmp_path / "junit.xml"
    os.mkfifo(junit)
    out = tmp_path / "runs"
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local", "--out", str(out),
                             "--junit", str(junit)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "COLUMNS": "400", "NO_COLOR": "1"})
    try:
        # report.md and report.html are written (in that order): from here on the CLI is in
        # the outputs, then blocked opening the FIFO; the signal has the same answer in both.
        deadline = time.monotonic() + 60
        while not list(out.glob("*/report.html")):
            assert time.monotonic() < deadline and proc.poll() is None, "the reports were never written"
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=30)
    finally:
        proc.kill()
    said = " ".join(stderr.split())
    assert proc.returncode == 3, said
    (run_dir,) = out.iterdir()
    assert f"interrupted while writing the reports; {run_dir}/run.json is complete" in said
    assert f"the JUnit XML {junit} was not written (only `spec-debug run --junit` writes it)" in said
    assert "renders them" not in said and "spec-debug report" not in said  # both reports are there
    assert (run_dir / "report.md").is_file() and (run_dir / "report.html").is_file()

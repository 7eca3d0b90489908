"""A Ctrl-C or SIGTERM while `spec-debug run` writes its outputs, sent at a set moment.

The CLI runs for real in a child process; a hook wraps one of cli_run's output functions so that
the process sends itself SIGTERM as that function starts (the signal handler of spec_debug.cli
then raises there, as for a signal from a CI runner at that moment).

- In the --junit write, with a junit.xml left by an earlier run: the stop said "every output
  was written" (the file was there), over the earlier run's results. Now the file is named as
  not written, "from before this run", and the exit is 3 as for any output left undone.
- In the GITHUB_STEP_SUMMARY append: it said "interrupted while writing the reports ...: every
  output was written" and exited 3, with the summary not appended and no verdict. A summary
  it cannot write is a warning (cli_run.finish_outputs): so is a stop there, and the run's
  verdict and exit code follow.
- In the verdict's print, every file written: exit 3 ("aborted") for a run that passed or
  failed on its own. Now the run's own exit code, said with the stop.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HOOK = """\
import os, signal, sys
import spec_debug.cli_run as cli_run
name = os.environ["STOP_AT"]
original = getattr(cli_run, name)
def stopped_here(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGTERM)
    return original(*args, **kwargs)
setattr(cli_run, name, stopped_here)
sys.argv = ["spec-debug", *sys.argv[1:]]
from spec_debug.cli import main
main()
"""


def _run(tmp_path: Path, stop_at: str, *, fails: bool = False, summary: Path | None = None, extra: tuple[str, ...] = ()):
    (tmp_path / "hook.py").write_text(HOOK)
    (tmp_path / "p.yaml").write_text(f"name: p\nsteps:\n  - id: a\n    run: {'exit 1' if fails else 'echo ok'}\n")
    env = {**os.environ, "STOP_AT": stop_at, "COLUMNS": "400", "NO_COLOR": "1",
           "PYTHONPATH": os.pathsep.join([str(Path(__file__).resolve().parents[2]), os.environ.get("PYTHONPATH", "")])}
    env.pop("GITHUB_STEP_SUMMARY", None)
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    proc = subprocess.run([sys.executable, str(tmp_path / "hook.py"), "run", "p.yaml", "--host", "local", "--out", "runs",
                           "--junit", "junit.xml", *extra], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    (run_dir,) = (tmp_path / "runs").iterdir()
    return proc, run_dir.relative_to(tmp_path), " ".join(proc.stderr.split())


def test_a_junit_file_from_an_earlier_run_is_not_taken_for_this_one(tmp_path):
    (tmp_path / "junit.xml").write_text("<earlier/>\n")
    proc, run_dir, said = _run(tmp_path, "write_junit")
    assert proc.returncode == 3, said
    assert (f"interrupted while writing the reports; {run_dir}/run.json is complete: the JUnit XML junit.xml was not "
            "written (the file there is from before this run) (only `spec-debug run --junit` writes it)") in said, said
    assert "every output was written" not in said and "Traceback" not in said
    assert (tmp_path / "junit.xml").read_text() == "<earlier/>\n"  # left as it was, and named


def test_a_stop_while_the_step_summary_is_appended_is_a_warning(tmp_path):
    summary = tmp_path / "summary.md"
    proc, run_dir, said = _run(tmp_path, "append_step_summary", summary=summary)
    assert proc.returncode == 0, said
    assert (f"warning: terminated (SIGTERM) while appending to GITHUB_STEP_SUMMARY {summary}, which may hold none or part "
            "of this run's summary (the run, run.json and the reports are complete)") in said, said
    assert f"PASSED: 0 error(s), 0 warning(s) · report: {run_dir}/report.md" in said
    assert "interrupted while writing the reports" not in said and "Traceback" not in said
    assert (tmp_path / run_dir / "report.md").is_file() and (tmp_path / run_dir / "report.html").is_file()
    assert "<testsuites" in (tmp_path / "junit.xml").read_text()


def test_a_stop_after_every_output_was_written_keeps_the_runs_exit_code(tmp_path):
    proc, run_dir, said = _run(tmp_path, "_say_verdict", fails=True)
    assert proc.returncode == 1, said  # an error finding: 1, not 3
    assert (f"interrupted while writing the reports; {run_dir}/run.json is complete: every output was written; "
            "the run failed (exit 1)") in said, said
    assert "Traceback" not in said
    assert "<testsuites" in (tmp_path / "junit.xml").read_text()


def test_a_stop_after_every_output_of_a_passed_run_exits_0(tmp_path):
    proc, _, said = _run(tmp_path, "_say_verdict")
    assert proc.returncode == 0, said
    assert "every output was written; the run passed (exit 0)" in said, said


def test_a_stop_after_every_file_but_before_the_json_on_stdout_exits_3(tmp_path):
    # --json writes the record to stdout after the verdict: stopped before, stdout is empty,
    # an output left undone (exit 0 with no document would read as a clean, empty answer).
    proc, run_dir, said = _run(tmp_path, "_say_verdict", extra=("--json",))
    assert proc.returncode == 3, said
    assert proc.stdout == ""
    assert (f"interrupted while writing the reports; {run_dir}/run.json is complete: --json wrote nothing to stdout "
            f"({run_dir}/run.json holds the record)") in said, said

"""A GitLab CI job log echoes each script line as ``$ cmd`` and ends a failed job with ``ERROR:
Job failed: exit code N``, the status of the script line that failed (the shapes gitlab-runner
logs show, as published job logs quote them). A health check that failed with no output of its
own (``curl -sf`` exits 7 silently) read as a success: the runner's line was the only word on
it. After ``Running after_script`` the ``$`` lines are after_script's, whose status the job's
is not: it is the last script line's, printed after after_script's lines
(test_hardening52_gitlab_after_script)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

START = ("Running with gitlab-runner 17.0.0 (44feccdf)\n"
         "section_start:1727776800:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m\n")
FAILED = ("section_end:1727776810:step_script\r\x1b[0K"
          "section_start:1727776810:upload_artifacts_on_failure\r\x1b[0K\x1b[0K\x1b[36;1mUploading artifacts for failed job\x1b[0;m\n"
          "section_end:1727776811:upload_artifacts_on_failure\r\x1b[0K\x1b[31;1mERROR: Job failed: exit code 7\n\x1b[0;m\n")


def _commands(tmp_path: Path, body: str) -> list[tuple]:
    path = tmp_path / "job.log"
    path.write_text(START + body + FAILED)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]]


def test_the_failed_jobs_status_is_its_last_script_lines(tmp_path: Path) -> None:
    body = ("\x1b[32;1m$ nvidia-smi -L\x1b[0;m\nGPU 0: NVIDIA H100 80GB HBM3\n"
            "\x1b[32;1m$ curl -sf localhost:30000/health\x1b[0;m\n")
    assert _commands(tmp_path, body) == [("nvidia-smi -L", None, False), ("curl -sf localhost:30000/health", 7, True)]


def test_after_script_lines_get_no_status_of_the_job(tmp_path: Path) -> None:
    body = ("\x1b[32;1m$ curl -sf localhost:30000/health\x1b[0;m\n"
            "section_end:1727776805:step_script\r\x1b[0K"
            "section_start:1727776805:after_script\r\x1b[0K\x1b[0K\x1b[36;1mRunning after_script\x1b[0;m\n"
            "\x1b[32;1m$ tail -n 50 server.log\x1b[0;m\nserver starting\n")
    assert _commands(tmp_path, body) == [("curl -sf localhost:30000/health", 7, True),
                                         ("tail -n 50 server.log", None, False)]

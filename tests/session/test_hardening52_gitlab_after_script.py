"""A GitLab job with an ``after_script`` prints the job's ``ERROR: Job failed: exit code N``
after after_script's own ``$`` lines (gitlab-runner runs after_script whether the script
failed or not, and reports the script's status last). The script line that failed had no
status: a failed launch read as a success, and its output's error as an error of nothing that
failed."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

START = ("Running with gitlab-runner 17.0.0 (44feccdf)\n"
         "section_start:1727776800:step_script\r\x1b[0K\x1b[0K\x1b[36;1mExecuting \"step_script\" stage of the job script\x1b[0;m\n")
AFTER = ("section_end:1727776805:step_script\r\x1b[0K"
         "section_start:1727776805:after_script\r\x1b[0K\x1b[0K\x1b[36;1mRunning after_script\x1b[0;m\n"
         "\x1b[32;1mRunning after script...\x1b[0;m\n"
         "\x1b[32;1m$ tail -n 3 server.log\x1b[0;m\nserver starting\nloading draft\n"
         "\x1b[32;1m$ nvidia-smi --query-gpu=memory.used --format=csv\x1b[0;m\nmemory.used [MiB]\n81000 MiB\n"
         "section_end:1727776806:after_script\r\x1b[0K")
FAILED = ("section_start:1727776810:upload_artifacts_on_failure\r\x1b[0K\x1b[0K\x1b[36;1mUploading artifacts for failed job\x1b[0;m\n"
          "section_end:1727776811:upload_artifacts_on_failure\r\x1b[0K\x1b[31;1mERROR: Job failed: exit code 1\n\x1b[0;m\n")
SUCCEEDED = "\x1b[32;1mJob succeeded\x1b[0;m\n"
SCRIPT = ("\x1b[32;1m$ nvidia-smi -L\x1b[0;m\nGPU 0: NVIDIA H100 80GB HBM3\n"
          "\x1b[32;1m$ python3 tests/test_drafter_standalone.py\x1b[0;m\n"
          "Traceback (most recent call last):\n"
          "  File \"/builds/ml/tests/test_drafter_standalone.py\", line 41, in <module>\n"
          "    hidden = torch.cat([embed, h3, h31], dim=-1)\n"
          "RuntimeError: Sizes of tensors must match except in dimension 2\n")


def _analysed(tmp_path: Path, text: str):
    path = tmp_path / "job.log"
    path.write_text(text)
    return analyze_path(path).to_json()


def test_the_failed_script_line_gets_the_jobs_status_after_the_after_script(tmp_path: Path) -> None:
    doc = _analysed(tmp_path, START + SCRIPT + AFTER + FAILED)
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("nvidia-smi -L", None, False),
        ("python3 tests/test_drafter_standalone.py", 1, True),
        ("tail -n 3 server.log", None, False),
        ("nvidia-smi --query-gpu=memory.used --format=csv", None, False),
    ]
    assert doc["stats"]["tool_calls"] == 4
    # the traceback is the failed command's, and the agent tree counts one failed call
    (error,) = doc["errors"]
    assert (error["kind"], error["exception"], error["command_seq"]) == ("traceback", "RuntimeError", doc["commands"][1]["seq"])
    (main,) = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"]) == (4, 1)


def test_a_job_that_succeeded_leaves_the_script_lines_as_they_were(tmp_path: Path) -> None:
    script = "\x1b[32;1m$ nvidia-smi -L\x1b[0;m\nGPU 0: NVIDIA H100 80GB HBM3\n"
    doc = _analysed(tmp_path, START + script + AFTER + SUCCEEDED)
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("nvidia-smi -L", None, False),
        ("tail -n 3 server.log", None, False),
        ("nvidia-smi --query-gpu=memory.used --format=csv", None, False),
    ]


def test_the_events_keep_their_order_and_a_log_cut_in_the_after_script_loses_nothing(tmp_path: Path) -> None:
    doc = _analysed(tmp_path, START + SCRIPT + AFTER)  # the job's last lines never came
    assert [c["command"] for c in doc["commands"]] == [
        "nvidia-smi -L", "python3 tests/test_drafter_standalone.py", "tail -n 3 server.log",
        "nvidia-smi --query-gpu=memory.used --format=csv"]
    assert [c["exit_code"] for c in doc["commands"]] == [None, None, None, None]
    seqs = [c["seq"] for c in doc["commands"]]
    assert seqs == sorted(seqs)


def test_an_after_script_too_long_to_hold_is_let_through_in_order(tmp_path: Path, monkeypatch) -> None:
    from spec_debug.session.formats import gitlab_job

    monkeypatch.setattr(gitlab_job, "HELD_EVENTS", 2)  # the main result and one after_script result
    doc = _analysed(tmp_path, START + SCRIPT + AFTER + FAILED)
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("nvidia-smi -L", None), ("python3 tests/test_drafter_standalone.py", None),
        ("tail -n 3 server.log", None), ("nvidia-smi --query-gpu=memory.used --format=csv", None)]
    seqs = [c["seq"] for c in doc["commands"]]
    assert seqs == sorted(seqs)

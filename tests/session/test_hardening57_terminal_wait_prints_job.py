"""``sleep 3`` typed while ``python3 srv.py &`` ran: the job's traceback (its stderr is the
terminal) lands in the sleep's output, and bash reports the job's end (``[1]+  Exit 1  python3
srv.py``) before the next prompt. sleep prints nothing of its own, so the traceback is the job's:
its CUDA OOM is an error of ``python3 srv.py &``, and the sleep did not fail. Before: a failed
``sleep 3``, with the OOM as its own error. The typescript (bash 5.2.15, util-linux script
2.38.1) is the one of test_hardening57_terminal_job_output_at_prompt.py."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening57_terminal_job_output_at_prompt import JOB_PRINTS_AT_PROMPT


def test_what_a_sleep_shows_is_the_background_jobs(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(JOB_PRINTS_AT_PROMPT)
    doc = analyze_path(path).to_json()
    seq = {c["command"]: c["seq"] for c in doc["commands"]}
    failed = {c["command"]: c["is_error"] for c in doc["commands"]}
    assert (failed["python3 srv.py &"], failed["sleep 3"]) == (True, False)
    assert {(e["kind"], e["command_seq"]) for e in doc["errors"]} == {
        ("exit_code", seq["python3 srv.py &"]), ("cuda_oom", seq["python3 srv.py &"])}

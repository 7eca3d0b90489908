"""A failed script run under `set -x` (`bash -x run.sh`): bash writes each command it runs as a
trace line ("+ cmd", "++ cmd" inside a command substitution; PS4's default) before its output.

Before: a failure with no error line of its own was named by the output's first line, which was
the trace of the script's first command ("+ '[' 1 -ne 0 ']'"), not what the script printed. Now
the trace lines are skipped: the last line the script printed names the failure."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer

SID = "ab680000-0000-4000-8000-000000000068"


def _analyze(tmp_path: Path, command: str, output: str, exit_code: int):
    w = _Writer(SID, None, datetime(2026, 12, 6, 9, 0, tzinfo=timezone.utc))
    w.prompt("Why does the launch script fail?")
    w.bash(command, output, exit_code=exit_code)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


@pytest.mark.parametrize("output, said", [
    ("+ '[' 1 -ne 0 ']'\n+ echo 'FAILED: server died'\nFAILED: server died\n+ exit 1", "FAILED: server died"),
    ("++ hostname\n+ node=gpu01\n+ python3 check_draft.py --model /models/e3\ndraft has no d2t table\n+ exit 3",
     "draft has no d2t table"),
    ("+ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n+ python3 bench.py\nacceptance 0.00 < 1.5, giving up",
     "acceptance 0.00 < 1.5, giving up"),
])
def test_a_trace_line_is_no_failures_message(tmp_path: Path, output: str, said: str) -> None:
    a = _analyze(tmp_path, "bash -x launch.sh", output, 1)
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(1, True)]
    assert [(e.kind, e.message) for e in a.errors] == [("exit_code", said)]


def test_a_trace_keeps_what_the_script_printed_first_when_untraced() -> None:
    # no trace at all: the first line stays the message (as before)
    (e,) = extract_errors("launching\nserver died", 1, False, status_known=True)
    assert e.message == "launching"
    # an error line the script printed is still found by its words, past the traces
    (e,) = extract_errors("+ python3 x.py\n+ tee log\nERROR: draft checkpoint not found\ndone", 1, False,
                          status_known=True)
    assert e.message == "ERROR: draft checkpoint not found"


def test_only_traces_keep_the_first_one() -> None:
    (e,) = extract_errors("+ false", 1, False, status_known=True)
    assert e.message == "+ false"

"""A CUDA out-of-memory RuntimeError is counted apart from an unrelated RuntimeError.

Before, What went wrong grouped errors by the exception's name alone: a `RuntimeError: CUDA out
of memory` from the drafter's load and a later `RuntimeError: Expected all tensors to be on the
same device` read "2× RuntimeError [msg 2] [msg 4]", hiding that one of them was an OOM. Now an
error the analyzer knows as a GPU/NCCL failure under a generic RuntimeError is counted by that
kind in words ("1 GPU out-of-memory error [msg 2] — ..."), and the other stays "1× RuntimeError"."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

OOM = ("Traceback (most recent call last):\n  File \"/opt/run.py\", line 3, in <module>\n    load()\n"
       "RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (GPU 0; 79.15 GiB total capacity)")
DEV = ("Traceback (most recent call last):\n  File \"/opt/run.py\", line 9, in <module>\n    step()\n"
       "RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!")


def test_oom_runtime_error_counted_apart(tmp_path: Path) -> None:
    w = _Writer("72760000-0000-4000-8000-0000000000a1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("The drafter load fails on gpu01, why?")
    w.bash("python /opt/run.py", OOM, exit_code=1)
    w.bash("python /opt/run.py --small", DEV, exit_code=1)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    kinds = [(e.seq, e.kind, e.exception) for e in analysis.errors]
    assert kinds[0][1] == "cuda_oom" and kinds[0][2] == "RuntimeError", kinds
    went = [line for line in postmortem_view(analysis)["went_wrong"] if "RuntimeError" in line or "memory" in line]
    assert went[0].startswith("1 GPU out-of-memory error [msg 2] — "), went
    assert "CUDA out of memory" in went[0], went
    assert went[1] == "1× RuntimeError [msg 4]", went

"""An OOM or CUDA error line is kept whole as the error's message, "torch.OutOfMemoryError: CUDA
out of memory. Tried to allocate 2.00 GiB", with its exception beside it; the pivot summary, the
postmortem's detection, timeline and notes put the exception before the message, so the report
read "torch.OutOfMemoryError: torch.OutOfMemoryError: CUDA out of memory." in each place."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"


def _session(path: Path) -> Path:
    calls = [("ssh gpu01 'tail -3 /var/log/sglang.log'", OOM),
             ("ssh gpu01 cat /models/draft/config.json", '{"draft_vocab_size": 32000}')]
    lines = []
    for n, (cmd, out) in enumerate(calls):
        ts = f"2026-01-01T00:0{n}:00Z"
        lines.append({"type": "assistant", "uuid": f"a{n}", "sessionId": "s", "timestamp": ts,
                      "message": {"role": "assistant", "content": [
                          {"type": "tool_use", "id": f"t{n}", "name": "Bash", "input": {"command": cmd}}]}})
        lines.append({"type": "user", "uuid": f"u{n}", "sessionId": "s", "timestamp": ts,
                      "message": {"role": "user", "content": [
                          {"type": "tool_result", "tool_use_id": f"t{n}", "content": out, "is_error": False}]}})
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_the_report_names_the_exception_once(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path / "s.jsonl"))
    assert a.pivots[0].summary.startswith(f"After {OOM} [msg 1]")
    report = render_postmortem(a, "md")
    assert "OutOfMemoryError: torch.OutOfMemoryError" not in report
    assert f"First error: {OOM}" in report


def test_a_message_without_its_exception_still_gets_it() -> None:
    from spec_debug.session.failures import error_said

    assert error_said("RuntimeError", "traceback", "CUDA error: an illegal memory access") \
        == "RuntimeError: CUDA error: an illegal memory access"
    assert error_said(None, "timeout", "timed out (exit 124)") == "timeout: timed out (exit 124)"
    assert error_said("torch.OutOfMemoryError", "cuda_oom", "OutOfMemoryError: CUDA out of memory.") \
        == "OutOfMemoryError: CUDA out of memory."

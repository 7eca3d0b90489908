"""A GPU, memory or test failure no exception names is said in words, not by the JSON's kind.

An SGLang server on gpu01 died: `dmesg` showed the kernel's OOM killer, the server log a bare
"CUDA error: an illegal memory access ...", and the EAGLE test then failed. Hardening 71 and 72
said a failed command, connection, tool call or timeout in words, but these kept the JSON's kind
in front of what was printed: "First error: host_oom: [12345.678] Out of memory: Killed process
...", a timeline row "error | cuda_error: CUDA error: ...", the pivot "After cuda_error: CUDA
error: ...", the distilled step's why "after cuda_error: ...", and What went wrong "1× host_oom",
"1× cuda_error", "1× test_failure". They say what was printed now, with the kind in words where
the line does not say it ("test failed: test/...", "GPU error: Indexing.cu:1500: ... Assertion
... failed."), and What went wrong counts them in words ("1 GPU error", "1 failed test"). The
JSON keeps its kinds and the pivots' summaries."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.distill import distill_playbook
from spec_debug.session.failures import failure_said, summary_said
from spec_debug.session.postmortem import postmortem_view, render_postmortem
from tests.session.incident_story import _Writer

OOM = "[12345.678] Out of memory: Killed process 48213 (python3) total-vm:812345kB, anon-rss:60000000kB"
ILLEGAL = "CUDA error: an illegal memory access was encountered"
TEST = "test/srt/test_eagle_infer.py::TestEAGLEEngine::test_correctness: AssertionError: 0.41 < 0.7"
ASSERT = ("/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1500: indexSelectSmallIndex: block: [32,0,0], "
          "thread: [63,0,0] Assertion `srcIndex < srcSelectDimSize` failed.")


def _analysis(tmp_path: Path):
    w = _Writer("72730000-0000-4000-8000-0000000000e1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("The EAGLE-3 sglang server on gpu01 died overnight, why?")
    w.bash("ssh gpu01 'sudo dmesg | tail -n 1'", OOM)
    w.bash("ssh gpu01 'tail -n 3 /var/log/sglang.log'",
           f"[2026-03-02 08:01:02 TP0] Scheduler hit an exception\n{ILLEGAL}\n"
           "CUDA kernel errors might be asynchronously reported at some other API call")
    w.bash("ssh gpu01 'cd /opt/sglang && python -m pytest -q test/srt/test_eagle_infer.py'",
           "FAILED test/srt/test_eagle_infer.py::TestEAGLEEngine::test_correctness - AssertionError: 0.41 < 0.7\n"
           "1 failed, 3 passed in 12.3s", exit_code=1)
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def test_each_failure_is_said_as_printed(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path)
    assert [(e.seq, e.kind, e.exception) for e in analysis.errors] == [
        (2, "host_oom", None), (4, "cuda_error", None), (6, "test_failure", None)]
    view = postmortem_view(analysis)
    assert view["detection"][-1] == f"First error: {OOM} [msg 2] (main)."
    assert view["went_wrong"] == [f"1 process killed for host memory [msg 2] — {OOM}",
                                  f"1 GPU error [msg 4] — {ILLEGAL}",
                                  f"1 failed test [msg 6] — {TEST}"]
    md = render_postmortem(analysis, "md")
    assert f"| main | error | {ILLEGAL} |" in md, md
    assert "| main | error | test failed: test/srt/test_eagle_infer.py::TestEAGLEEngine::test_correctness: " \
           "AssertionError: 0.41 \\< 0.7 |" in md, md
    assert f"| main | pivot | After {ILLEGAL} [[msg 4]](#msg-4), moved from reading logs to running tests" in md, md
    for kind in ("host_oom", "cuda_error", "test_failure"):
        assert kind not in md, kind
    html = render_postmortem(analysis, "html")
    assert "cuda_error" not in html and "host_oom" not in html and "test_failure" not in html
    whys = [step["why"] for step in distill_playbook(analysis)["steps"]]
    assert any(f"change of approach after {ILLEGAL} [msg 4]" in why for why in whys), whys
    # the JSON as it was: the kinds, and the pivot's summary that names it
    doc = json.loads(analysis_json(analysis))
    assert [e["kind"] for e in doc["errors"]] == ["host_oom", "cuda_error", "test_failure"]
    assert [p["summary"][:len(ILLEGAL) + 18] for p in doc["pivots"]] == [f"After cuda_error: {ILLEGAL}"]


def test_the_words_where_the_line_does_not_say_it() -> None:
    assert failure_said(None, "cuda_error", ASSERT) == f"GPU error: {ASSERT}"
    assert failure_said(None, "cuda_error", "HIP error: invalid device function") == "HIP error: invalid device function"
    assert failure_said(None, "host_oom", "Reason: OOMKilled") == "Reason: OOMKilled"
    assert failure_said(None, "test_failure", "") == "test failed"
    assert failure_said(None, "http_error", "Model not found (HTTP 404)") == "Model not found (HTTP 404)"
    assert failure_said(None, "nccl", "watchdog caught collective operation timeout") == (
        "NCCL error: watchdog caught collective operation timeout")
    assert failure_said(None, "denied", "Claude requested permissions to use Bash, but you haven't granted it yet.") \
        == "Claude requested permissions to use Bash, but you haven't granted it yet."
    assert failure_said("RuntimeError", "cuda_error", ILLEGAL) == f"RuntimeError: {ILLEGAL}"  # an exception is named
    assert summary_said(f"sub-agent abc123's cuda_error: {ASSERT}") == f"sub-agent abc123's GPU error: {ASSERT}"
    assert summary_said("agent_error: 529 Overloaded") == "agent_error: 529 Overloaded"  # the agent's own, as it was

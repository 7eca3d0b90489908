"""Of two calls answered in one message, a distilled step credits the output to its own call.

A Gemini CLI checkpoint whose model turn made two shell calls (`grep -c "accept len"` and `tail
-n 4` of one server log) gets both answers in one `user` turn of `functionResponse` parts: both
commands carry that message as `result_seq`. The change of approach after the IndexError the
`tail` printed was credited to both steps: the `grep -c` step (output `1184`) said "Its result
(IndexError: ...) prompted a change of approach". A pivot now names the command whose output
prompted it (`trigger_command`), and only that step says so."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"
PROMPTED = "prompted a change of approach"


def _whys(doc: dict) -> dict[str, str]:
    return {step["run"]: step["why"] for step in doc["steps"]}


def test_the_checkpoint_credits_the_tail_not_the_count() -> None:
    analysis = analyze_path(DATA / "checkpoint-eagle3-accept.json")
    [pivot] = analysis.pivots
    assert pivot.trigger_command == "ssh gpu01 'tail -n 4 /tmp/sglang.log'"
    whys = _whys(distill_playbook(analysis))
    # the `grep -c` (1184) prompted nothing: no step since hardening 72 (test_hardening72_parallel_pivot_step)
    assert 'grep -c "accept len" {{ sglang_log }}' not in whys
    assert whys["tail -n 4 {{ sglang_log }}"] == (
        "Its result (IndexError: index 32000 is out of bounds for dimension 0 with size 32000) "
        "prompted a change of approach at [msg 5].")


def _checkpoint(tmp_path: Path, responses_reversed: bool) -> Path:
    """Two calls with ids (the API's newer parts); the first's output holds the traceback."""
    calls = [("c1", "ssh gpu01 'tail -n 4 /tmp/sglang.log'"),
             ("c2", "ssh gpu01 'grep -c \"accept len\" /tmp/sglang.log'")]
    outputs = {
        "c1": "Output: [2026-10-02 09:12:03 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
              "  File \"/sgl-workspace/sglang/python/sglang/srt/speculative/eagle_worker.py\", line 502, in verify\n"
              "    res = batch.spec_info.verify(batch)\n"
              "IndexError: index 32000 is out of bounds for dimension 0 with size 32000\nExit Code: 0",
        "c2": "Output: 1184\nExit Code: 0",
    }
    answered = list(reversed(calls)) if responses_reversed else calls
    history = [
        {"role": "user", "parts": [{"text": "EAGLE3 on gpu01 dies. Look at the server log."}]},
        {"role": "model", "parts": [{"functionCall": {"id": i, "name": "run_shell_command", "args": {"command": c}}}
                                    for i, c in calls]},
        {"role": "user", "parts": [{"functionResponse": {"id": i, "name": "run_shell_command",
                                                         "response": {"output": f"Command: {c}\n{outputs[i]}"}}}
                                   for i, c in answered]},
        {"role": "model", "parts": [{"functionCall": {"id": "c3", "name": "run_shell_command",
                                                      "args": {"command": "ssh gpu01 'ls /models/eagle3-draft'"}}}]},
        {"role": "user", "parts": [{"functionResponse": {"id": "c3", "name": "run_shell_command",
                                                         "response": {"output": "Output: config.json\nExit Code: 0"}}}]},
    ]
    path = tmp_path / "checkpoint-parallel.json"
    path.write_text(json.dumps(history, indent=2), encoding="utf-8")
    return path


def test_the_first_call_is_credited_when_its_output_said_it(tmp_path: Path) -> None:
    for responses_reversed in (False, True):
        analysis = analyze_path(_checkpoint(tmp_path, responses_reversed))
        assert [p.trigger_command for p in analysis.pivots] == ["ssh gpu01 'tail -n 4 /tmp/sglang.log'"]
        whys = _whys(distill_playbook(analysis))
        assert PROMPTED in whys["tail -n 4 {{ sglang_log }}"]
        assert PROMPTED not in whys.get('grep -c "accept len" {{ sglang_log }}', "")

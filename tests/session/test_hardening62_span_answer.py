"""A result line with no message since the last one is a bare ``--output-format json`` answer,
the agent's text (test_hardening61_bare_json_result.py), and a file of 16 MB and more, read by
worker processes in spans, reads it the same: whether a message came since the last result
may be another span's to say. (The first try decided it in each worker's own read of its span:
a stream-json result line first in its span was read as the answer a second time.)"""

from __future__ import annotations

import json

from tests.session.test_hardening61_bare_json_result import RESULT, SAID, SID
from tests.session.test_session_parallel import _both, pytestmark  # noqa: F401 (forked workers only)


def _run(n: int, tok_s: float) -> dict:
    return {**RESULT, "result": f"Run {n}: EAGLE-3 decodes at {tok_s} tok/s.", "uuid": f"r{n}"}


def _metrics(doc: str) -> list[tuple[str, float]]:
    return sorted((m["name"], m["value"]) for m in json.loads(doc)["metrics"])


def test_a_stream_json_answer_is_read_once_whatever_the_spans(monkeypatch, tmp_path):
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "tools": ["Bash"],
         "model": "claude-sonnet-4-5", "uuid": "i0"},
        {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
            {"type": "text", "text": SAID}]}, "parent_tool_use_id": None, "session_id": SID, "uuid": "a1"},
        {"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"}, "session_id": SID, "uuid": "l1"},
        RESULT,
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for span_bytes in (1, 300, 1 << 20):  # the result line alone in its span, or after the note
        alone, with_workers = _both(monkeypatch, path, span_bytes=span_bytes)
        assert _metrics(alone) == [("accept_length", 3.1), ("throughput", 96.8)]
        assert with_workers == alone, span_bytes


def test_bare_answers_appended_to_one_log_are_each_read_whatever_the_spans(monkeypatch, tmp_path):
    # a CI loop's `claude -p ... --output-format json >> runs.jsonl`, then one stream-json run
    rerun = "python3 bench_serving.py --num-prompts 64"
    lines = [_run(1, 90.5), _run(2, 91.5), {"type": "rate_limit_event", "rate_limit_info": {"status": "allowed"},
                                            "session_id": SID, "uuid": "l1"},
             {**_run(3, 92.5), "result": "Run 3: EAGLE-3 decodes at 92.5 tok/s. The bench is worth rerunning "
                                         "because the draft may still be warming up."},
             {"type": "system", "subtype": "init", "cwd": "/root/work", "session_id": SID, "uuid": "i0"},
             {"type": "assistant", "message": {"id": "msg_1", "type": "message", "role": "assistant", "content": [
                 {"type": "tool_use", "id": "toolu_1", "name": "Bash", "input": {"command": rerun}}]},
              "session_id": SID, "uuid": "a1"},
             {"type": "user", "message": {"role": "user", "content": [
                 {"tool_use_id": "toolu_1", "type": "tool_result", "content": "ok", "is_error": False}]},
              "session_id": SID, "uuid": "u1"},
             {"type": "assistant", "message": {"id": "msg_2", "type": "message", "role": "assistant", "content": [
                 {"type": "text", "text": "Run 4 decodes at 93.5 tok/s."}]}, "session_id": SID, "uuid": "a2"},
             _run(4, 93.5), _run(5, 94.5)]
    path = tmp_path / "runs.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for span_bytes in (1, 500, 1 << 20):
        alone, with_workers = _both(monkeypatch, path, span_bytes=span_bytes)
        assert _metrics(alone) == [("throughput", v) for v in (90.5, 91.5, 92.5, 93.5, 94.5)]
        # the rerun is shown with the reason the third answer gave for it
        assert [c["why"] for c in json.loads(alone)["commands"]] == [
            "Run 3: EAGLE-3 decodes at 92.5 tok/s. The bench is worth rerunning because the draft may still be "
            "warming up."]
        assert with_workers == alone, span_bytes

"""stream-json's commands run in the folder its ``init`` line names until a ``cd`` moves the
shell (test_hardening61_stream_json_cwd.py), and a file of 16 MB and more, read by worker
processes in spans, reads them the same: the folder an ``init`` line names, and the ``cd`` that
ends it, reach the commands of the spans after theirs. (The first try kept the folder in each
worker's own read of its span: from the second span on, commands had no folder.)"""

from __future__ import annotations

import json

from tests.session.test_hardening61_stream_json_cwd import SID, _call, _result
from tests.session.test_session_parallel import _both, pytestmark  # noqa: F401 (forked workers only)


def _init(cwd: str, n: int) -> dict:
    return {"type": "system", "subtype": "init", "cwd": cwd, "session_id": SID, "tools": ["Bash"],
            "model": "claude-sonnet-4-5", "permissionMode": "bypassPermissions", "uuid": f"i{n}"}


def _said(n: int, text: str) -> dict:
    return {"type": "assistant", "message": {"id": f"msg_t{n}", "type": "message", "role": "assistant", "content": [
        {"type": "text", "text": text}]}, "parent_tool_use_id": None, "session_id": SID, "uuid": f"t{n}"}


def _end(n: int) -> dict:
    return {"type": "result", "subtype": "success", "is_error": False, "duration_ms": 9000, "num_turns": 5,
            "result": "Done.", "session_id": SID, "uuid": f"r{n}"}


def test_the_init_folder_and_a_cd_reach_the_later_spans(monkeypatch, tmp_path):
    # two runs appended to one log (`claude -p ... --output-format stream-json >> ci.jsonl`)
    lines = [
        _init("/root/work", 0),
        _call(1, "python3 checks/accept_len.py"), _result(1, "RuntimeError: accept len 1.02 < 2.5", True),
        _said(1, "The draft accepts almost nothing; the server log next."),
        _call(2, "tail -n 20 logs/sglang.log"), _result(2, "Decode batch. accept len: 1.02"),
        _call(3, "cd /opt/sglang && git log -1 --oneline"), _result(3, "abc1234 eagle3: fix draft vocab"),
        _said(2, "Now the worker's acceptance code."),
        _call(4, "grep -n accept python/sglang/srt/speculative/eagle_worker.py"), _result(4, "12: accept"),
        _end(1),
        _init("/srv/bench", 1),
        _call(5, "python3 bench_serving.py --num-prompts 64"), _result(5, "Output token throughput: 96.8 tok/s"),
        _said(3, "Throughput is back."),
        _call(6, "ls results"), _result(6, "run1.json"),
        _end(2),
    ]
    path = tmp_path / "ci.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    for span_bytes in (1, 400, 900, 1 << 20):  # a span per line, then cuts between a call and its folder
        alone, with_workers = _both(monkeypatch, path, span_bytes=span_bytes)
        assert [c["cwd"] for c in json.loads(alone)["commands"]] == [
            "/root/work", "/root/work", "/root/work", None, "/srv/bench", "/srv/bench"]
        assert with_workers == alone, span_bytes

"""A line cut by a crashed write and glued to the record the next write appended (reader.py
``_glued_record``) whose cut fell inside a character: a write cut at a byte count (a kill during
a large buffered append, a full disk) splits a multi-byte UTF-8 character ("…", "é", an emoji, CJK
text) as often as not, and the cut part then ends in a byte or two that are no UTF-8.

Before: the glued record was not looked for at all when the line was not UTF-8 as a whole: the
whole record after the cut was lost with the cut one (``broken_json: 1``), here a Codex rollout's
``function_call_output``: the crashed server launch read as a command with no exit status and no
error. Now the record after the cut is read as it is when the cut falls between characters."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

T = "019c0000-0000-7000-8000-000000000741"
LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"


def _line(second: int, kind: str, payload: dict) -> bytes:
    return json.dumps({"timestamp": f"2026-11-02T08:00:{second:02d}.000Z", "type": kind, "payload": payload},
                      ensure_ascii=False).encode("utf-8")


def _rollout(tmp_path: Path, cut_inside: str) -> Path:
    said = _line(2, "event_msg", {"type": "agent_message", "message": f"Démarrage du serveur {cut_inside} vérifions"})
    cut = said[:said.index(cut_inside.encode("utf-8")) + 1]  # the write stopped one byte into the character
    output = json.dumps({"output": "Traceback (most recent call last):\n  File \"/srv/launch.py\", line 3\n"
                                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB",
                         "metadata": {"exit_code": 1, "duration_seconds": 4.2}})
    lines = [_line(0, "session_meta", {"id": T, "cwd": "/srv", "originator": "codex_cli_rs", "cli_version": "0.60.0"}),
             _line(1, "response_item", {"type": "function_call", "name": "shell", "call_id": "c1",
                                        "arguments": json.dumps({"command": ["bash", "-lc", LAUNCH]})}),
             cut + _line(3, "response_item", {"type": "function_call_output", "call_id": "c1", "output": output})]
    path = tmp_path / f"rollout-2026-11-02T08-00-00-{T}.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


def test_the_record_after_a_cut_inside_a_character_is_read(tmp_path: Path) -> None:
    for char in ("…", "é", "\U0001f680"):
        a = analyze_path(_rollout(tmp_path, char))
        assert a.stats["broken_json"] == 1  # the cut record itself is still lost, and counted
        assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
        assert [(e.kind, e.message) for e in a.errors] == [("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB")]

"""Review of round 31's Claude Code hook feedback change (formats): a Stop hook's feedback is the
CLI's line only in the shape the CLI writes it, getStopHookMessage's ``"Stop hook feedback:\\n" +
reason`` (the line broken after the colon). A person who types ``Stop hook feedback: …`` on one line
(asking about their hook) wrote a prompt; the prefix alone made it the CLI's note and dropped it from
the prompts, in stream-json and in the CLI's own transcript alike (where the CLI's line is isMeta)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "5a0c1e2f-1111-4222-8333-444455556666"
TYPED = "Stop hook feedback: why does my verify.sh hook keep blocking the stop?"
CLI = "Stop hook feedback:\n[bash .claude/hooks/verify.sh]: the server is not up"
PROMPT = "launch the eagle3 server"


def _write(path: Path, lines: list[dict]) -> Path:
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def _stream_user(uuid: str, content, **extra) -> dict:
    return {"type": "user", "message": {"role": "user", "content": content}, "parent_tool_use_id": None,
            "session_id": SESSION, "uuid": uuid, **extra}


def _stream_assistant(uuid: str, text: str) -> dict:
    return {"type": "assistant", "message": {"id": f"msg_{uuid}", "type": "message", "role": "assistant",
                                             "model": "claude-opus-4-5", "content": [{"type": "text", "text": text}]},
            "parent_tool_use_id": None, "session_id": SESSION, "uuid": uuid}


def test_a_one_line_stop_hook_feedback_typed_by_a_person_stays_their_prompt_in_stream_json(tmp_path):
    lines = [
        {"type": "system", "subtype": "init", "cwd": "/w", "session_id": SESSION, "tools": ["Bash"],
         "model": "claude-opus-4-5", "uuid": "i1"},
        _stream_user("u1", PROMPT),
        _stream_assistant("a1", "Started."),
        _stream_user("h1", [{"type": "text", "text": CLI}], isSynthetic=True),
        _stream_assistant("a2", "It is not up yet."),
        _stream_user("u2", TYPED),
    ]
    doc = analyze_path(_write(tmp_path / "stream.jsonl", lines)).to_json()
    assert [p["text"] for p in doc["prompts"]] == [PROMPT, TYPED]


def test_a_one_line_stop_hook_feedback_typed_by_a_person_stays_their_prompt_in_a_transcript(tmp_path):
    def line(kind, uuid, parent, message, **extra):
        return {"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SESSION, "isSidechain": False,
                "userType": "external", "cwd": "/w", "version": "2.1.118",
                "timestamp": f"2026-01-07T10:00:0{len(uuid)}.000Z", "message": message, **extra}

    lines = [
        line("user", "u1", None, {"role": "user", "content": PROMPT}),
        line("assistant", "a1", "u1", {"role": "assistant", "model": "claude-opus-4-5",
                                       "content": [{"type": "text", "text": "Started."}]}),
        line("user", "h1", "a1", {"role": "user", "content": CLI}, isMeta=True),
        line("user", "u2", "h1", {"role": "user", "content": TYPED}),
    ]
    doc = analyze_path(_write(tmp_path / f"{SESSION}.jsonl", lines)).to_json()
    assert [p["text"] for p in doc["prompts"]] == [PROMPT, TYPED]

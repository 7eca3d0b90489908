"""The TypeScript Codex CLI ends a turn that failed for good with a note of its own, kept in the
rollout as a system message ``{id: "error-<ms>", role: "system", content: [{type: input_text,
text: "⚠️  Rate limit reached. ..."}]}`` (openai/codex ``codex-cli/src/utils/agent/agent-loop.ts``:
rate limit, the API's rejection of the request, context length, network error). Before: a
system note, no error; now an ``agent_error`` with no command, as the Rust CLI's ``error`` event."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

RATE = ("⚠️  Rate limit reached. Error details: Status: 429, Code: rate_limit_exceeded, Type: requests, "
        "Message: Rate limit reached for o4-mini. Please try again later.")
NETWORK = "⚠️  Network error while contacting OpenAI. Please check your connection and try again."


def _note(ms: int, text: str) -> dict:
    return {"id": f"error-{ms}", "type": "message", "role": "system", "content": [{"type": "input_text", "text": text}]}


def test_the_cli_error_notes_are_errors_of_the_session(tmp_path):
    items = [{"role": "user", "type": "message", "content": [{"type": "input_text", "text": "bench the drafter"}]},
             _note(1747212345678, RATE), _note(1747212349999, NETWORK),
             {"type": "message", "role": "system", "content": [{"type": "input_text", "text": "Switched model to o3"}]}]
    path = tmp_path / "rollout-2025-05-14-abc.json"
    path.write_text(json.dumps({"session": {"timestamp": "2025-05-14T09:12:03.412Z", "id": "abc", "instructions": ""},
                                "items": items}, indent=2))
    doc = analyze_path(path).to_json()
    assert [(e["kind"], e["message"], e["command_seq"]) for e in doc["errors"]] == [
        ("agent_error", RATE, None), ("agent_error", NETWORK, None)]

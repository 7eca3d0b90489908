"""A chat tool call whose ``arguments`` is JSON's ``null`` (the string ``"null"``: servers and
loggers write it for a call sent with no arguments) was read as a shell tool's bare command
string, so the session ran a command ``null``. It is a call with no command; a real bare
command string stays one, and nothing raises."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def test_null_arguments_are_no_command(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "is the EAGLE-3 server up on gpu01?"}]
    for n, arguments in enumerate(["null", "ssh gpu01 nvidia-smi -L", 7, None, "[]", '{"command": null}']):
        messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": f"call_{n}", "type": "function", "function": {"name": "bash", "arguments": arguments}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{n}", "content": "ok"})
    path = tmp_path / "chat.jsonl"
    path.write_text("".join(json.dumps(m) + "\n" for m in messages))
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [("ssh gpu01 nvidia-smi -L", "gpu01")]
    assert doc["agents"][0]["tool_calls"] == 6  # every call is kept and counted

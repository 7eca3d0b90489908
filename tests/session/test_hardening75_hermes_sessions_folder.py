"""``~/.hermes/sessions`` holds, for a session of Hermes Agent's gateway, both the snapshot the agent
rewrites after each turn (``session_<id>.json``: ``{"session_id", "messages": [...]}``,
NousResearch/hermes-agent ``run_agent.py`` ``_save_session_log``) and the transcript the gateway
appends to (``<id>.jsonl``: ``gateway/run.py``); a CLI session has the snapshot alone.

Before: ``spec-debug analyze ~/.hermes/sessions`` read a gateway session twice, every command and
error of it counted twice. Now the transcript is read and its snapshot passed by; a snapshot with
no transcript beside it is still read."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"


def _messages(asked: str, command: str) -> list[dict]:
    return [{"role": "user", "content": asked},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c0", "type": "function", "function": {
                "name": "terminal", "arguments": json.dumps({"command": command})}}]},
            {"role": "tool", "tool_call_id": "c0", "content": json.dumps(
                {"output": "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", "exit_code": 1,
                 "error": None})},
            {"role": "assistant", "content": "It ran out of memory."}]


def test_a_gateway_session_is_read_once_and_a_cli_session_still_is(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    gateway, cli = "20261102_080000_9f8e7d6c", "20261102_090000_1a2b3c"
    said = _messages("start the EAGLE-3 server", LAUNCH)
    (folder / f"session_{gateway}.json").write_text(json.dumps(
        {"session_id": gateway, "model": "hermes-4", "platform": "telegram", "messages": said}))
    (folder / f"{gateway}.jsonl").write_text("".join(json.dumps(m) + "\n" for m in [
        {"role": "session_meta", "tools": [], "model": "hermes-4", "platform": "telegram",
         "timestamp": "2026-11-02T08:00:00.000000"}, *said]))
    (folder / f"session_{cli}.json").write_text(json.dumps(
        {"session_id": cli, "model": "hermes-4", "platform": "cli", "messages": _messages("check the GPU", "nvidia-smi")}))
    a = analyze_path(folder)
    assert sorted(s["id"] for s in a.sessions) == [gateway, f"session_{cli}"]
    assert sorted(c.command for c in a.commands) == ["nvidia-smi", LAUNCH]

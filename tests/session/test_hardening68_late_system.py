"""An Anthropic Messages request saved whole as the SDK sent it: the Python SDK builds the body from
``create()``'s parameters in the order of their names, ``max_tokens, messages, model, ..., system,
..., tools`` (anthropics/anthropic-sdk-python ``src/anthropic/resources/messages/messages.py``,
``Messages.create``), so a proxy's copy of it has the system prompt after the whole history. Past
256 KB of messages the prompt was looked for in the head alone and the session had none."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_FLEET = "You operate the GPU fleet gpu01-gpu08 over ssh. Never reboot a node that serves traffic."


def _history(turns: int) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": "accept length dropped on gpu07"}]
    for i in range(turns):
        messages.append({"role": "assistant", "content": [
            {"type": "tool_use", "id": f"toolu_{i:03d}", "name": "bash",
             "input": {"command": f"ssh gpu07 tail -n 40 /var/log/sglang/worker{i}.log"}}]})
        messages.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"toolu_{i:03d}", "content": f"worker {i}: " + "ok " * 300}]})
    return messages


def _sdk_body(messages: list[dict], system: object = _FLEET) -> dict:
    """The keys in the order ``Messages.create`` puts them."""
    return {"max_tokens": 8192, "messages": messages, "model": "claude-sonnet-4-5", "stream": False,
            "system": system, "temperature": 0, "tools": [{"name": "bash", "input_schema": {"type": "object"}}]}


def _events(path: Path) -> list[tuple[str, str]]:
    [source] = discover(path)
    return [(ev.kind, ev.command or ev.text) for ev in iter_events(source, ReadStats(), AgentTree())]


def test_a_system_prompt_after_a_long_history_is_read_first(tmp_path: Path) -> None:
    messages = _history(300)
    path = tmp_path / "request.json"
    path.write_text(json.dumps(_sdk_body(messages)))
    assert path.stat().st_size > 256 * 1024
    events = _events(path)
    assert events[:3] == [("system", _FLEET), ("prompt", "accept length dropped on gpu07"),
                          ("tool_call", "ssh gpu07 tail -n 40 /var/log/sglang/worker0.log")]
    assert [k for k, _t in events].count("system") == 1
    assert len(events) == 1 + len(messages)


def test_a_late_system_prompt_of_text_blocks_in_a_compressed_request(tmp_path: Path) -> None:
    blocks = [{"type": "text", "text": "You operate the GPU fleet gpu01-gpu08 over ssh."},
              {"type": "text", "text": "Never reboot a node that serves traffic.",
               "cache_control": {"type": "ephemeral"}}]
    path = tmp_path / "request.json.gz"
    path.write_bytes(gzip.compress(json.dumps(_sdk_body(_history(300), blocks), indent=2).encode()))
    assert _events(path)[0] == ("system", "You operate the GPU fleet gpu01-gpu08 over ssh.\n"
                                          "Never reboot a node that serves traffic.")


def test_a_long_chat_saved_whole_without_a_system_key_has_no_system_prompt(tmp_path: Path) -> None:
    # the role "system" of an OpenAI chat's first message is no key: read once, as a message
    messages = [{"role": "system", "content": _FLEET}, *_history(300)]
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"model": "gpt-4.1", "messages": messages}))
    events = _events(path)
    assert [k for k, _t in events].count("system") == 1
    assert events[0] == ("system", _FLEET)

"""An agent's calls captured by a proxy as an HTTP Archive: mitmproxy writes ``{"log": {"version":
"1.2", "creator", "pages": [], "entries": [...]}}`` (``mitmdump --set hardump=calls.har``; mitmproxy/
mitmproxy ``mitmproxy/addons/savehar.py``), each entry the request as sent (``postData.text``) and
the answer as text (``content.text``, base64 with ``encoding`` where mostly binary). Read as a
Claude Code transcript it gave one unknown record: no prompt, no command; in a folder it was not
even looked at (``.har`` was no session file)."""

from __future__ import annotations

import base64
import json
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


C1 = _call("call_1", "ssh gpu07 nvidia-smi")
R1 = {"role": "tool", "tool_call_id": "call_1",
      "content": "Failed to initialize NVML: Driver/library version mismatch\nexit code 18"}
C2 = _call("call_2", "ssh gpu07 sudo reboot")
R2 = {"role": "tool", "tool_call_id": "call_2", "content": "Reboot scheduled for Sat 2025-12-06 10:31:00 UTC"}
DONE = {"role": "assistant", "content": "gpu07 is rebooting."}
CALLS = [([_SYSTEM, _USER], C1), ([_SYSTEM, _USER, C1, R1], C2), ([_SYSTEM, _USER, C1, R1, C2, R2], DONE)]
STARTS = [1764930080.25, 1764930084.5, 1764930091.75]


def _entry(start: float, method: str, url: str, body: object, status: int, answer: str | None,
           mime: str = "application/json", binary: bool = False) -> dict:
    """One entry as savehar.flow_entry writes it."""
    content: dict = {"size": len(answer or ""), "compression": 0, "mimeType": mime}
    if answer is not None:
        content["text"] = base64.b64encode(answer.encode()).decode() if binary else answer
        if binary:
            content["encoding"] = "base64"
    entry = {"startedDateTime": datetime.fromtimestamp(start, timezone.utc).isoformat(), "time": 812.5,
             "request": {"method": method, "url": url, "httpVersion": "HTTP/1.1", "cookies": [],
                         "headers": [{"name": "content-type", "value": "application/json"}], "queryString": [],
                         "headersSize": 210, "bodySize": 0},
             "response": {"status": status, "statusText": "OK" if status == 200 else "", "httpVersion": "HTTP/1.1",
                          "cookies": [], "headers": [{"name": "content-type", "value": mime}], "content": content,
                          "redirectURL": "", "headersSize": 180, "bodySize": len(answer or "")},
             "cache": {}, "timings": {"connect": -1.0, "ssl": -1.0, "send": 0.4, "receive": 12.5, "wait": 799.6},
             "serverIPAddress": "162.159.140.245"}
    if method == "POST":
        entry["request"]["postData"] = {"mimeType": "application/json", "text": json.dumps(body), "params": []}
    return entry


def _completion(message: dict, start: float) -> str:
    return json.dumps({"id": "chatcmpl-9", "object": "chat.completion", "created": int(start) + 1,
                       "model": "gpt-4.1", "choices": [{"index": 0, "message": message, "finish_reason": "stop"}]})


def _har(entries: list[dict]) -> str:
    return json.dumps({"log": {"version": "1.2", "creator": {"name": "mitmproxy exporthar", "version": "0.1",
                                                             "comment": "mitmproxy version 11.0.2"},
                               "pages": [], "entries": entries}}, indent=4)


def _chat_entries() -> list[dict]:
    url = "https://api.openai.com/v1/chat/completions"
    return [_entry(start, "POST", url, {"model": "gpt-4.1", "messages": messages, "stream": False}, 200,
                   _completion(answer, start))
            for (messages, answer), start in zip(CALLS, STARTS)]


def _events(path: Path) -> list[tuple[str, str]]:
    [source] = discover(path)
    return [(ev.kind, ev.command or ev.text) for ev in iter_events(source, ReadStats(), AgentTree())]


def test_a_capture_of_an_agent_loop_is_read_as_its_calls(tmp_path: Path) -> None:
    path = tmp_path / "calls.har"
    path.write_text(_har(_chat_entries()))
    doc = analyze_path(path).to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("calls", 7)]
    assert [(c["command"], c["exit_code"], c["timestamp"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18, "2025-12-05T10:21:20.250000+00:00"),
        ("ssh gpu07 sudo reboot", None, "2025-12-05T10:21:24.500000+00:00")]
    assert [p["text"] for p in doc["prompts"]] == [_USER["content"]]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_error"]


def test_other_traffic_is_left_out_and_a_streamed_anthropic_answer_is_read(tmp_path: Path) -> None:
    stream = "".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in [
        {"type": "message_start", "message": {"id": "msg_01", "type": "message", "role": "assistant", "content": [],
                                              "model": "claude-sonnet-4-5", "stop_reason": None}},
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "toolu_01", "name": "Bash", "input": {}}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "input_json_delta", "partial_json": json.dumps({"command": "ssh gpu07 uptime"})}},
        {"type": "content_block_stop", "index": 0},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 30}},
        {"type": "message_stop"}])
    request = {"max_tokens": 8192, "messages": [{"role": "user", "content": "is gpu07 up?"}],
               "model": "claude-sonnet-4-5", "stream": True, "system": "You operate the GPU fleet."}
    entries = [_entry(STARTS[0], "GET", "https://api.anthropic.com/v1/models", None, 200, '{"data": []}'),
               _entry(STARTS[0] + 1, "POST", "https://statsig.anthropic.com/v1/rgstr",
                      {"events": [{"eventName": "tengu_init"}]}, 202, '{"success": true}'),
               _entry(STARTS[1], "POST", "https://api.anthropic.com/v1/messages?beta=true", request, 200, stream,
                      mime="text/event-stream; charset=utf-8")]
    path = tmp_path / "claude.har"
    path.write_text(_har(entries))
    assert _events(path) == [("system", "You operate the GPU fleet."), ("prompt", "is gpu07 up?"),
                             ("tool_call", "ssh gpu07 uptime")]


def test_a_base64_answer_and_a_refused_call(tmp_path: Path) -> None:
    url = "https://api.openai.com/v1/chat/completions"
    entries = [_entry(STARTS[0], "POST", url, {"model": "gpt-4.1", "messages": CALLS[0][0]}, 200,
                      _completion(C1, STARTS[0]), binary=True),
               _entry(STARTS[1], "POST", url, {"model": "gpt-4.1", "messages": CALLS[1][0]}, 429,
                      json.dumps({"error": {"message": "Rate limit reached for gpt-4.1", "type": "requests"}}))]
    path = tmp_path / "calls.har"
    path.write_text(_har(entries))
    events = _events(path)
    assert ("tool_call", "ssh gpu07 nvidia-smi") in events
    assert events[-1] == ("system", "HTTP 429: Rate limit reached for gpt-4.1")


def test_a_folder_scan_reads_a_capture_beside_other_sessions(tmp_path: Path) -> None:
    (tmp_path / "calls.har").write_text(_har(_chat_entries()))
    (tmp_path / "notes.jsonl").write_text(json.dumps(_USER) + "\n")
    doc = analyze_path(tmp_path).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["calls", "notes"]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 sudo reboot"]

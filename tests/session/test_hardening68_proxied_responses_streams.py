"""Codex through a logging proxy: Codex streams every call to the Responses API (``"stream": true``),
and llm-debug keeps an answer that is no JSON as the text it was sent (``upstream_resp.text``:
SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``), here ``event: response.*`` / ``data:``
lines (openai/openai-python ``types/responses/response_stream_event.py``). Such an answer was read
as an Anthropic stream and gave nothing: the calls the model made in the last answer of the log (no
later request resends them) were lost, and with them what the agent was doing when the log ends."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_INSTRUCTIONS = "You are Codex, based on GPT-5."
_PROMPT = {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "why is gpu07 slow?"}]}


def _shell(item_id: str, call_id: str, command: str) -> dict:
    return {"id": item_id, "type": "function_call", "status": "completed", "call_id": call_id, "name": "shell",
            "arguments": json.dumps({"command": ["bash", "-lc", command], "workdir": "/srv/sglang"})}


def _stream(response_id: str, items: list[dict], created: int) -> str:
    """The events of one streamed response as the API sends them: each item added, its pieces,
    done; then ``response.completed`` with the whole output."""
    events: list[dict] = [{"type": "response.created", "response": {
        "id": response_id, "object": "response", "created_at": created, "status": "in_progress", "output": []}}]
    for n, item in enumerate(items):
        events.append({"type": "response.output_item.added", "output_index": n,
                       "item": {**item, "status": "in_progress", "arguments": ""}})
        if item["type"] == "function_call":
            events.append({"type": "response.function_call_arguments.delta", "item_id": item["id"],
                           "output_index": n, "delta": item["arguments"]})
        events.append({"type": "response.output_item.done", "output_index": n, "item": item})
    events.append({"type": "response.completed", "response": {
        "id": response_id, "object": "response", "created_at": created, "status": "completed", "output": items}})
    return "".join(f"event: {e['type']}\ndata: {json.dumps({**e, 'sequence_number': i})}\n\n"
                   for i, e in enumerate(events))


def _record(inputs: list[dict], answer: str) -> dict:
    body = {"model": "gpt-5-codex", "instructions": _INSTRUCTIONS, "input": inputs, "tools": [], "stream": True}
    return {"request": {"method": "POST", "url": "https://api.openai.com/v1/responses",
                        "headers": {"Content-Type": "application/json"}, "body": body},
            "response": {"status_code": 200, "headers": {"content-type": "text/event-stream"}, "body": answer,
                         "error": None}}


CALL_1 = _shell("fc_1", "call_1", "ssh gpu07 nvidia-smi")
OUT_1 = {"type": "function_call_output", "call_id": "call_1",  # Codex's shell output, exit status in metadata
         "output": json.dumps({"output": "Failed to initialize NVML: Driver/library version mismatch\n",
                               "metadata": {"exit_code": 18, "duration_seconds": 0.4}})}
CALL_2 = _shell("fc_2", "call_2", "ssh gpu07 sudo reboot")


def _resent(item: dict) -> dict:
    # Codex sends a call back without the id and status the API gave it (codex-rs/protocol models.rs)
    return {k: v for k, v in item.items() if k not in ("id", "status")}


def _logs(folder: Path) -> None:
    folder.mkdir(parents=True)
    calls = [([_PROMPT], [CALL_1]), ([_PROMPT, _resent(CALL_1), OUT_1], [CALL_2])]
    names = ["2025-12-05_10-21-20-123456.json", "2025-12-05_10-21-24-004211.json"]
    for n, (name, (inputs, output)) in enumerate(zip(names, calls)):
        (folder / name).write_text(json.dumps(_record(inputs, _stream(f"resp_{n}", output, 1764930080 + 4 * n)),
                                              indent=2))


def test_a_streamed_responses_answer_kept_as_text_is_read(tmp_path: Path) -> None:
    path = tmp_path / "call.json"
    path.write_text(json.dumps(_record([_PROMPT], _stream("resp_0", [CALL_1], 1764930080)), indent=2))
    [source] = discover(path)
    events = [(ev.kind, ev.command or ev.text) for ev in iter_events(source, ReadStats(), AgentTree())]
    assert events == [("system", _INSTRUCTIONS), ("prompt", "why is gpu07 slow?"),
                      ("tool_call", "ssh gpu07 nvidia-smi")]


def test_a_codex_loop_through_the_proxy_reads_each_call_once(tmp_path: Path) -> None:
    _logs(tmp_path / "logs")
    doc = analyze_path(tmp_path / "logs").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]

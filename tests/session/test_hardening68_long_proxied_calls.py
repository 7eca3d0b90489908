"""A logging proxy's record of a call past the sniff window (256 KB): llm-debug writes each call to
``logs/<time>.json`` as ``json.dump({"request": {method, url, headers, body}, "response": {...}},
indent=2)`` (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``), and a long run's request
resends a history that soon passes 256 KB. Such a file was taken for a request saved whole and read
as its ``messages`` array alone: the answer after the request (the call the model made) was lost,
and the file was left out of its folder's log, a session of its own that read the history again."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}
_LOG = "".join(f"[2025-12-05 {10 + i // 3600}:{i // 60 % 60:02d}:{i % 60:02d}] spec decode step accept_len=1.02\n"
               for i in range(6000))  # 330 KB of a server's log read back


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


C1 = _call("call_1", "ssh gpu07 cat /var/log/sglang.log")
R1 = {"role": "tool", "tool_call_id": "call_1", "content": _LOG}
C2 = _call("call_2", "ssh gpu07 nvidia-smi")
R2 = {"role": "tool", "tool_call_id": "call_2",
      "content": "Failed to initialize NVML: Driver/library version mismatch\nexit code 18"}
C3 = _call("call_3", "ssh gpu07 sudo reboot")
CALLS = [([_SYSTEM, _USER], C1), ([_SYSTEM, _USER, C1, R1], C2), ([_SYSTEM, _USER, C1, R1, C2, R2], C3)]
NAMES = ["2025-12-05_10-21-20-123456.json", "2025-12-05_10-21-24-004211.json", "2025-12-05_10-21-31-870002.json"]


def _record(messages: list, answer: dict) -> dict:
    return {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                        "headers": {"Content-Type": "application/json"},
                        "body": {"model": "gpt-4.1", "messages": messages}},
            "response": {"status_code": 200, "headers": {}, "error": None, "body": {
                "id": "chatcmpl-9", "object": "chat.completion", "created": 1764930078, "model": "gpt-4.1",
                "choices": [{"index": 0, "message": answer, "finish_reason": "tool_calls"}]}}}


def _logs(folder: Path) -> list[Path]:
    folder.mkdir(parents=True)
    paths = []
    for name, (messages, answer) in zip(NAMES, CALLS):
        path = folder / name
        path.write_text(json.dumps(_record(messages, answer), indent=2))
        paths.append(path)
    assert [p.stat().st_size > 256 * 1024 for p in paths] == [False, True, True]
    return paths


def test_a_long_call_alone_reads_the_answer_after_its_request(tmp_path: Path) -> None:
    path = _logs(tmp_path / "logs")[2]
    [source] = discover(path)
    commands = [ev.command for ev in iter_events(source, ReadStats(), AgentTree()) if ev.kind == "tool_call"]
    assert commands == ["ssh gpu07 cat /var/log/sglang.log", "ssh gpu07 nvidia-smi", "ssh gpu07 sudo reboot"]


def test_a_folder_with_long_calls_is_one_log_each_call_read_once(tmp_path: Path) -> None:
    _logs(tmp_path / "logs")
    doc = analyze_path(tmp_path / "logs").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [(c["command"], c["exit_code"], Path(c["file"]).name) for c in doc["commands"]] == [
        ("ssh gpu07 cat /var/log/sglang.log", None, NAMES[0]), ("ssh gpu07 nvidia-smi", 18, NAMES[1]),
        ("ssh gpu07 sudo reboot", None, NAMES[2])]
    assert [p["text"] for p in doc["prompts"]] == [_USER["content"]]


def _litellm_payload(messages: list, answer: dict, start: float) -> dict:
    """LiteLLM's StandardLoggingPayload, its keys in the order ``get_standard_logging_object_payload``
    gives them (BerriAI/litellm ``litellm/litellm_core_utils/litellm_logging.py``): ``call_type``
    before ``messages`` and ``response``. Its S3 logger puts it as one line."""
    return {"id": f"chatcmpl-{int(start)}", "litellm_call_id": "3f0c9a1e", "trace_id": "4b1f",
            "call_type": "acompletion", "cache_hit": None, "stream": False, "status": "success",
            "startTime": start, "endTime": start + 2.5,
            "model": "gpt-4.1", "messages": messages,
            "response": {"id": f"chatcmpl-{int(start)}", "object": "chat.completion", "created": int(start) + 2,
                         "model": "gpt-4.1",
                         "choices": [{"index": 0, "message": answer, "finish_reason": "tool_calls"}]}}


def test_a_synced_folder_of_long_litellm_payloads_is_one_log(tmp_path: Path) -> None:
    day = tmp_path / "LiteLLMAPPLogs" / "2025-12-05"
    day.mkdir(parents=True)
    starts = [1764930080.1, 1764930084.0, 1764930091.8]
    names = ["10-21-20-123456", "10-21-24-004211", "10-21-31-870002"]
    for (messages, answer), start, name in zip(CALLS, starts, names):
        payload = _litellm_payload(messages, answer, start)
        (day / f"time-{name}_chatcmpl-{int(start)}.json").write_text(json.dumps(payload))
    doc = analyze_path(day).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["2025-12-05"]
    assert [(c["command"], c["exit_code"], c["timestamp"]) for c in doc["commands"]] == [
        ("ssh gpu07 cat /var/log/sglang.log", None, "2025-12-05T10:21:22.000Z"),
        ("ssh gpu07 nvidia-smi", 18, "2025-12-05T10:21:26.000Z"),
        ("ssh gpu07 sudo reboot", None, "2025-12-05T10:21:33.000Z")]

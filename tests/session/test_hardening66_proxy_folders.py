"""A logging proxy that writes one file per call: llm-debug (SingularityDAO-dev/tamashii-terminal
``llm-debug/app.py``, ``log_request_response``) writes each call it forwards to
``logs/<%Y-%m-%d_%H-%M-%S-%f>.json`` as ``{"request": {method, url, headers, body}, "response":
{status_code, headers, body, error}}``, and each request of an agent loop resends the whole history.
`spec-debug analyze logs/` read each file as a session of its own: a run of three calls was three
sessions, its first command counted three times."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, output: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": output}


def _completion(message: dict) -> dict:
    return {"id": "chatcmpl-9", "object": "chat.completion", "created": 1764930078, "model": "gpt-4.1",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}]}


C1 = _call("call_1", "ssh gpu07 nvidia-smi")
R1 = _result("call_1", "Failed to initialize NVML: Driver/library version mismatch\nexit code 18")
C2 = _call("call_2", "ssh gpu07 sudo reboot")
R2 = _result("call_2", "Reboot scheduled for Sat 2025-12-06 10:31:00 UTC")
DONE = {"role": "assistant", "content": "gpu07 is rebooting."}
CALLS = [([_SYSTEM, _USER], C1), ([_SYSTEM, _USER, C1, R1], C2), ([_SYSTEM, _USER, C1, R1, C2, R2], DONE)]
NAMES = ["2025-12-05_10-21-20-123456.json", "2025-12-05_10-21-24-004211.json", "2025-12-05_10-21-31-870002.json"]


def _log_call(folder: Path, name: str, messages: list, answer: dict) -> Path:
    """One file as llm-debug writes it (``json.dump(log_entry, f, indent=2)``)."""
    record = {"request": {"method": "POST", "url": "https://api.openai.com/v1/chat/completions",
                          "headers": {"Content-Type": "application/json"},
                          "body": {"model": "gpt-4.1", "messages": messages}},
              "response": {"status_code": 200, "headers": {}, "body": _completion(answer), "error": None}}
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(record, indent=2))
    return path


def _logs(folder: Path) -> list[Path]:
    # written out of order: the names (the time of each call) give the order, not the scan's
    return [_log_call(folder, NAMES[i], *CALLS[i]) for i in (2, 0, 1)]


def test_a_folder_of_one_file_per_call_is_one_session_each_call_read_once(tmp_path: Path) -> None:
    _logs(tmp_path / "logs")
    doc = analyze_path(tmp_path / "logs").to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("logs", 7)]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_error"]
    assert [p["text"] for p in doc["prompts"]] == [_USER["content"]]
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (2, 1)


def test_each_event_names_the_file_of_the_call_that_brought_it(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    _logs(folder)
    doc = analyze_path(folder).to_json()
    # the first command came back in the first call's answer, the second in the second's
    assert [Path(c["file"]).name for c in doc["commands"]] == NAMES[:2]


def test_two_proxies_folders_are_a_session_each(tmp_path: Path) -> None:
    _logs(tmp_path / "gpu01" / "logs")
    _logs(tmp_path / "gpu02" / "logs")
    doc = analyze_path(tmp_path).to_json()
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [("gpu01/logs", 7), ("gpu02/logs", 7)]
    assert len(doc["commands"]) == 4


def test_one_call_file_named_alone_is_still_read_alone(tmp_path: Path) -> None:
    paths = _logs(tmp_path / "logs")
    doc = analyze_path(paths[1]).to_json()  # NAMES[0]: the first call
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [(Path(NAMES[0]).stem, 3)]


def test_a_folder_of_conversations_saved_whole_is_not_joined(tmp_path: Path) -> None:
    # files of {"messages": [...]} are conversations of their own (fine-tuning examples), no proxy's log
    for i, (messages, answer) in enumerate(CALLS):
        (tmp_path / f"sample-{i}.json").write_text(json.dumps({"messages": [*messages, answer]}, indent=2))
    doc = analyze_path(tmp_path).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["sample-0", "sample-1", "sample-2"]


def test_a_jsonl_log_beside_them_stays_a_session_of_its_own(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    _logs(folder)
    records = [{"request": {"model": "gpt-4.1", "messages": [_SYSTEM, {"role": "user", "content": "check gpu03"}]},
                "response": _completion(_call("call_9", "ssh gpu03 uptime"))}]
    (folder / "dolphin.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    doc = analyze_path(folder).to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == ["dolphin", "logs"]
    assert sorted(c["command"] for c in doc["commands"]) == [
        "ssh gpu03 uptime", "ssh gpu07 nvidia-smi", "ssh gpu07 sudo reboot"]


def _litellm_payload(messages: list, answer: dict, at: float) -> dict:
    """LiteLLM's StandardLoggingPayload (BerriAI/litellm litellm/types/utils.py), as its S3 logger
    puts one object per call."""
    return {"id": f"chatcmpl-{int(at)}", "trace_id": "4b1f", "call_type": "acompletion", "stream": False,
            "status": "success", "startTime": at, "endTime": at + 2.5, "model": "gpt-4.1",
            "messages": messages, "response": _completion(answer), "model_parameters": {"temperature": 0}}


def test_a_synced_folder_of_litellm_s3_logs_is_one_session(tmp_path: Path) -> None:
    day = tmp_path / "LiteLLMAPPLogs" / "2025-12-05"
    day.mkdir(parents=True)
    names = ["time-10-21-20-123456", "time-10-21-24-004211", "time-10-21-31-870002"]
    for (messages, answer), name, at in zip(CALLS, names, [1764930080.1, 1764930084.0, 1764930091.8]):
        (day / f"{name}_chatcmpl-{int(at)}.json").write_text(json.dumps(_litellm_payload(messages, answer, at)))
    doc = analyze_path(tmp_path / "LiteLLMAPPLogs").to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("2025-12-05", 7)]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]

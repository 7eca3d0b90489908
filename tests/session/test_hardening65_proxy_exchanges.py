"""What a logging proxy between an agent and an OpenAI-compatible API keeps: one record a call,
the request it forwarded and the answer it got. dolphin-logger (QuixiAI/dolphin-logger
``src/dolphin_logger/providers/openai.py``) appends ``{"request": <the request JSON>,
"response": <the reply's text, or the whole chat.completion when the text is empty: a tool
call>}`` to a JSONL file; llm-debug (SingularityDAO-dev/tamashii-terminal ``llm-debug/``) writes
``{"request": {method, url, headers, body}, "response": {status_code, headers, body, error}}``.
Such a file was refused as "not a session transcript": its records have no role, no messages and
no type at the top."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, output: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": output}


def _completion(message: dict) -> dict:
    return {"id": "chatcmpl-9", "object": "chat.completion", "created": 1764930078, "model": "gpt-4.1",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 15, "total_tokens": 65}}


C1 = _call("call_1", "ssh gpu07 nvidia-smi")
R1 = _result("call_1", "Failed to initialize NVML: Driver/library version mismatch\nexit code 18")
C2 = _call("call_2", "ssh gpu07 sudo reboot")
R2 = _result("call_2", "Reboot scheduled for Sat 2025-12-06 10:31:00 UTC")
ANSWER = "The driver and the kernel module disagreed; gpu07 is rebooting."


def _write(tmp_path: Path, name: str, records: list[dict]) -> Path:
    path = tmp_path / name
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return path


def test_a_dolphin_logger_log_reads_each_call_once_and_the_last_answer(tmp_path: Path) -> None:
    request = {"model": "gpt-4.1", "stream": False, "tools": [{"type": "function", "function": {"name": "bash"}}]}
    path = _write(tmp_path, "logs.jsonl", [
        {"request": {**request, "messages": [_SYSTEM, _USER]}, "response": _completion(C1)},
        {"request": {**request, "messages": [_SYSTEM, _USER, C1, R1]}, "response": _completion(C2)},
        {"request": {**request, "messages": [_SYSTEM, _USER, C1, R1, C2, R2]}, "response": ANSWER},
    ])
    doc = analyze_path(path).to_json()
    assert doc["format"] == "openai"
    assert [(c["host"], c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("gpu07", "ssh gpu07 nvidia-smi", 18), ("gpu07", "ssh gpu07 sudo reboot", None)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_error"]
    assert [p["text"] for p in doc["prompts"]] == [_USER["content"]]
    main = next(a for a in doc["agents"] if a["id"] == "main")
    assert (main["tool_calls"], main["failed_calls"]) == (2, 1)
    # system, prompt, two calls, their results and the closing answer: each message once
    assert doc["sessions"][0]["events"] == 7


def test_an_http_proxy_record_reads_the_request_body_and_the_answer_body(tmp_path: Path) -> None:
    record = {"request": {"method": "POST", "url": "https://api.example.com/v1/chat/completions",
                          "headers": {"Content-Type": "application/json"},
                          "body": {"model": "gpt-4.1-mini", "messages": [_SYSTEM, _USER, C1, R1]}},
              "response": {"status_code": 200, "headers": {}, "body": _completion(C2), "error": None}}
    path = tmp_path / "2025-12-05_10-21-20-123456.json"
    path.write_text(json.dumps(record, indent=2))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 sudo reboot"]


def test_records_with_no_request_body_are_still_no_transcript(tmp_path: Path) -> None:
    path = _write(tmp_path, "metrics.jsonl", [{"request": {"id": 1, "latency_ms": 20}, "response": {"status": 200}}])
    with pytest.raises(UsageError):
        analyze_path(path)


def test_a_proxied_anthropic_messages_call_reads_its_answer_once(tmp_path: Path) -> None:
    call = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "bash",
                                              "input": {"command": "ssh gpu07 nvidia-smi"}}]}
    result = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "GPU 0: H100"}]}
    answer = {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
              "content": call["content"], "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}
    request = {"model": "claude-sonnet-4-5", "system": "You debug GPU hosts.", "max_tokens": 4096}
    path = _write(tmp_path, "logs.jsonl", [
        {"request": {**request, "messages": [_USER]}, "response": answer},
        {"request": {**request, "messages": [_USER, call, result]}, "response": ANSWER}])
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]
    # the request's system prompt (read since test_hardening66_anthropic_system), prompt, call, result, answer
    assert doc["sessions"][0]["events"] == 5


def test_litellm_logging_payloads_read_the_answer_beside_the_messages(tmp_path: Path) -> None:
    # LiteLLM's StandardLoggingPayload (BerriAI/litellm litellm/types/utils.py): messages and response
    def payload(messages: list[dict], answer: dict) -> dict:
        return {"id": "c1", "call_type": "acompletion", "status": "success", "model": "gpt-4.1",
                "messages": messages, "response": _completion(answer), "response_cost": 4.4e-05}

    final = {"role": "assistant", "content": ANSWER}
    path = _write(tmp_path, "litellm.jsonl", [
        payload([_SYSTEM, _USER], C1), payload([_SYSTEM, _USER, C1, R1], C2),
        payload([_SYSTEM, _USER, C1, R1, C2, R2], final)])
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [
        ("ssh gpu07 nvidia-smi", 18), ("ssh gpu07 sudo reboot", None)]
    assert doc["sessions"][0]["events"] == 7


def test_a_single_logged_call_keeps_the_tool_call_it_answered_with(tmp_path: Path) -> None:
    path = tmp_path / "call.json"
    path.write_text(json.dumps({"messages": [_SYSTEM, _USER], "response": _completion(C1), "status": "success"}))
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]


def test_a_proxy_body_kept_as_text_is_read_and_a_raw_stream_is_no_answer(tmp_path: Path) -> None:
    def record(messages: list[dict], body: str) -> dict:
        return {"request": {"method": "POST", "url": "/v1/chat/completions", "headers": {},
                            "body": {"model": "gpt-4.1", "messages": messages}},
                "response": {"status_code": 200, "headers": {}, "body": body, "error": None}}

    stream = 'data: {"choices": [{"delta": {"content": "The driver"}}]}\n\ndata: [DONE]\n\n'
    path = _write(tmp_path, "proxy.jsonl", [record([_SYSTEM, _USER], json.dumps(_completion(C1))),
                                            record([_SYSTEM, _USER, C1, R1], stream)])
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]
    assert doc["sessions"][0]["events"] == 4  # system, prompt, call, result: no answer made of raw events


def test_a_call_the_api_refused_is_the_agents_error(tmp_path: Path) -> None:
    # an HTTP proxy's record of a 429 (and of a call that never got an answer), LiteLLM's
    # payload of a failed call (status "failure", error_information / error_str): the
    # session's requests to the model failed, which no message of the conversation says
    limited = {"error": {"message": "Rate limit reached for gpt-4.1 on tokens per min (TPM)", "type": "tokens"}}
    proxy = [
        {"request": {"method": "POST", "url": "/v1/chat/completions", "headers": {},
                     "body": {"model": "gpt-4.1", "messages": [_SYSTEM, _USER]}},
         "response": {"status_code": 429, "headers": {}, "body": limited, "error": None}},
        {"request": {"method": "POST", "url": "/v1/chat/completions", "headers": {},
                     "body": {"model": "gpt-4.1", "messages": [_SYSTEM, _USER]}},
         "response": {"status_code": None, "headers": {}, "body": None, "error": "ReadTimeout: timed out"}},
        {"request": {"method": "POST", "url": "/v1/chat/completions", "headers": {},
                     "body": {"model": "gpt-4.1", "messages": [_SYSTEM, _USER]}},
         "response": {"status_code": 200, "headers": {}, "body": _completion(C1), "error": None}},
    ]
    doc = analyze_path(_write(tmp_path, "proxy.jsonl", proxy)).to_json()
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("agent_error", "HTTP 429: Rate limit reached for gpt-4.1 on tokens per min (TPM)"),
        ("agent_error", "ReadTimeout: timed out")]
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi"]
    assert [p["text"] for p in doc["prompts"]] == [_USER["content"]]

    failed = {"id": "c1", "call_type": "acompletion", "status": "failure", "messages": [_SYSTEM, _USER],
              "response": {}, "error_str": "litellm.ContextWindowExceededError: prompt is too long",
              "error_information": {"error_class": "ContextWindowExceededError",
                                    "error_message": "litellm.ContextWindowExceededError: prompt is too long"}}
    doc = analyze_path(_write(tmp_path, "litellm.jsonl", [failed])).to_json()
    assert [(e["kind"], e["message"]) for e in doc["errors"]] == [
        ("agent_error", "litellm.ContextWindowExceededError: prompt is too long")]

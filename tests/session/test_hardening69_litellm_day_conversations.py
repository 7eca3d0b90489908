"""LiteLLM's bucket loggers file every call of a day under one folder, ``<YYYY-MM-DD>/`` (BerriAI/litellm
``litellm/integrations/gcs_bucket/gcs_bucket.py``, ``_get_object_name``; S3 and Azure the same), whoever
made it. Two agents working through one proxy that day were read as one session: their calls
interleaved as one log, one agent's commands and errors the other's. A conversation is told by the first
prompt each of its requests resends, and by the payload's ``trace_id`` where the client named its session
(``x-litellm-session-id``, ``x-claude-code-session-id``: ``litellm/proxy/litellm_pre_call_utils.py``,
``get_chain_id_from_headers``); without one it is each call's own uuid4."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_ASK_A = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}
_ASK_B = {"role": "user", "content": "why does the draft model OOM on gpu12?"}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function",
         "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


A1 = _call("call_a1", "ssh gpu07 nvidia-smi")
RA1 = _result("call_a1", "Failed to initialize NVML: Driver/library version mismatch\nexit code 18")
A_DONE = {"role": "assistant", "content": "gpu07 needs a reboot."}
B1 = _call("call_b1", "ssh gpu12 python3 -m sglang.launch_server --speculative-algorithm EAGLE3")
RB1 = _result("call_b1", "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\nexit code 1")
B_DONE = {"role": "assistant", "content": "Lower --mem-fraction-static."}

T0 = 1764930080.0  # 2025-12-05 10:21:20 UTC


def _payload(call_id: str, trace_id: str, messages: list, answer: dict, start: float) -> dict:
    """LiteLLM's StandardLoggingPayload (BerriAI/litellm ``litellm/types/utils.py``)."""
    return {"id": call_id, "trace_id": trace_id, "call_type": "acompletion", "stream": False, "status": "success",
            "startTime": start, "endTime": start + 2.0, "model": "gpt-4.1", "messages": messages,
            "response": {"id": f"chatcmpl-{call_id}", "object": "chat.completion", "created": int(start) + 2,
                         "model": "gpt-4.1", "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}}


def _write(day: Path, payload: dict) -> None:
    day.mkdir(parents=True, exist_ok=True)
    (day / f"{payload['response']['id']}.json").write_text(json.dumps(payload))


def _two_agents(day: Path, traces: list[str]) -> None:
    """Agent A's three calls and agent B's two, interleaved in time; ``traces`` their trace ids in order."""
    calls = [("a1", [_SYSTEM, _ASK_A], A1), ("b1", [_SYSTEM, _ASK_B], B1), ("a2", [_SYSTEM, _ASK_A, A1, RA1], A_DONE),
             ("b2", [_SYSTEM, _ASK_B, B1, RB1], B_DONE)]
    for n, ((call_id, messages, answer), trace) in enumerate(zip(calls, traces)):
        _write(day, _payload(call_id, trace, messages, answer, T0 + 5 * n))


def test_two_agents_conversations_in_one_day_folder_are_a_session_each(tmp_path: Path) -> None:
    day = tmp_path / "litellm-logs" / "2025-12-05"
    # no session named: each call's trace id is its own uuid4
    _two_agents(day, ["5d0e4c1a-01", "5d0e4c1a-02", "5d0e4c1a-03", "5d0e4c1a-04"])
    doc = analyze_path(tmp_path).to_json()
    sessions = {s["id"]: s["events"] for s in doc["sessions"]}
    assert sessions == {"2025-12-05#chatcmpl-a1": 5, "2025-12-05#chatcmpl-b1": 5}
    by_session = sorted((c["session"], c["command"], c["exit_code"]) for c in doc["commands"])
    assert by_session == [
        ("2025-12-05#chatcmpl-a1", "ssh gpu07 nvidia-smi", 18),
        ("2025-12-05#chatcmpl-b1", "ssh gpu12 python3 -m sglang.launch_server --speculative-algorithm EAGLE3", 1)]
    prompts = sorted((p["session"], p["text"]) for p in doc["prompts"])
    assert prompts == [("2025-12-05#chatcmpl-a1", _ASK_A["content"]), ("2025-12-05#chatcmpl-b1", _ASK_B["content"])]


def test_a_named_sessions_side_call_stays_in_its_conversation(tmp_path: Path) -> None:
    day = tmp_path / "2025-12-05"
    _two_agents(day, ["run-a", "run-b", "run-a", "run-b"])
    # agent A asks for a title: another first prompt, but the session it named (x-litellm-session-id)
    title = _payload("a3", "run-a", [{"role": "user", "content": "Write a 5-word title for: gpu07 accept length"}],
                     {"role": "assistant", "content": "gpu07 accept length regression"}, T0 + 30)
    _write(day, title)
    doc = analyze_path(tmp_path).to_json()
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [("2025-12-05#run-a", 7), ("2025-12-05#run-b", 5)]
    assert sorted((c["session"], c["exit_code"]) for c in doc["commands"]) == [
        ("2025-12-05#run-a", 18), ("2025-12-05#run-b", 1)]


def test_one_agents_day_is_still_one_session_named_by_its_day(tmp_path: Path) -> None:
    day = tmp_path / "2025-12-05"
    for n, (call_id, messages, answer) in enumerate([("a1", [_SYSTEM, _ASK_A], A1),
                                                     ("a2", [_SYSTEM, _ASK_A, A1, RA1], A_DONE)]):
        _write(day, _payload(call_id, f"uuid-{n}", messages, answer, T0 + 5 * n))
    doc = analyze_path(tmp_path).to_json()
    assert [(s["id"], s["events"]) for s in doc["sessions"]] == [("2025-12-05", 5)]
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]] == [("ssh gpu07 nvidia-smi", 18)]


def test_a_lone_side_call_is_no_session_of_its_own(tmp_path: Path) -> None:
    day = tmp_path / "2025-12-05"
    _two_agents(day, ["uuid-1", "uuid-2", "uuid-3", "uuid-4"])
    # agent B asks for a title with no session named: a call that shares nothing with another
    title = _payload("b3", "uuid-5", [{"role": "user", "content": "Write a 5-word title for: gpu12 draft OOM"}],
                     {"role": "assistant", "content": "gpu12 draft model OOM"}, T0 + 30)
    _write(day, title)
    doc = analyze_path(tmp_path).to_json()
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [
        ("2025-12-05#chatcmpl-a1", 5), ("2025-12-05#chatcmpl-b1", 7)]


def test_a_run_over_midnight_stays_whole_and_the_next_days_other_run_is_named_by_its_day(tmp_path: Path) -> None:
    before = 1764979195.0  # 2025-12-05 23:59:55 UTC
    _write(tmp_path / "2025-12-05", _payload("a1", "u1", [_SYSTEM, _ASK_A], A1, before))
    _write(tmp_path / "2025-12-05", _payload("b1", "u2", [_SYSTEM, _ASK_B], B1, before + 1))
    _write(tmp_path / "2025-12-05", _payload("b2", "u3", [_SYSTEM, _ASK_B, B1, RB1], B_DONE, before + 2))
    _write(tmp_path / "2025-12-06", _payload("a2", "u4", [_SYSTEM, _ASK_A, A1, RA1], A_DONE, before + 10))
    ask_c = {"role": "user", "content": "list the draft checkpoints on gpu03"}
    listed = _call("call_c1", "ssh gpu03 ls /models")
    _write(tmp_path / "2025-12-06", _payload("c1", "u5", [_SYSTEM, ask_c], listed, before + 20))
    _write(tmp_path / "2025-12-06", _payload("c2", "u6", [_SYSTEM, ask_c, listed, _result("call_c1", "eagle3-llama\n")],
                                             {"role": "assistant", "content": "One: eagle3-llama."}, before + 30))
    doc = analyze_path(tmp_path).to_json()
    assert sorted((s["id"], s["events"]) for s in doc["sessions"]) == [
        ("2025-12-05#chatcmpl-a1", 5), ("2025-12-05#chatcmpl-b1", 5), ("2025-12-06#chatcmpl-c1", 5)]
    assert sorted((c["session"], c["command"]) for c in doc["commands"]) == [
        ("2025-12-05#chatcmpl-a1", "ssh gpu07 nvidia-smi"),
        ("2025-12-05#chatcmpl-b1", "ssh gpu12 python3 -m sglang.launch_server --speculative-algorithm EAGLE3"),
        ("2025-12-06#chatcmpl-c1", "ssh gpu03 ls /models")]

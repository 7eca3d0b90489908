"""A log of the chat requests an agent loop sent (each resends the history: chat completions are
stateless, TRANSCRIPTS.md section 1e) where the loop trimmed its history once it grew: the oldest
turns dropped (or summarised into one message), the latest calls and results kept. Such a request
begins with no conversation read before, so it was read whole: each kept call and its error a
second time (a failed command run twice, a loop that never was) and the summary a prompt.

The kept calls are known by their ids: a run of the latest conversation's last messages, the
last one a tool call or result, found again in the request. Conversations of their own (lines
of fine-tuning data, an eval's tasks) share no call ids and are still read whole."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

_SYSTEM = {"role": "system", "content": "You debug EAGLE-3 speculative decoding on a GPU fleet."}
_USER = {"role": "user", "content": "accept length dropped on gpu07 after the upgrade"}
_SUMMARY = {"role": "user", "content": "Summary of earlier turns: nvidia-smi on gpu07 was fine."}


def _call(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]}


def _result(call_id: str, output: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": output}


C1 = [_call("call_1", "ssh gpu07 nvidia-smi"), _result("call_1", "GPU 0: NVIDIA H100 80GB HBM3")]
C2 = [_call("call_2", "ssh gpu07 python -c 'import sglang'"),
      _result("call_2", "Traceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
                        "ModuleNotFoundError: No module named 'sglang'\nexit code 1")]
C3 = [_call("call_3", "ssh gpu07 pip install sglang"), _result("call_3", "Successfully installed sglang-0.4.9")]


def _analyze(tmp_path: Path, requests: list[list[dict]]):
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps({"model": "gpt-4o", "messages": m}) + "\n" for m in requests))
    return analyze_path(path).to_json()


def _seen(doc) -> tuple:
    main = next(a for a in doc["agents"] if a["id"] == "main")
    return ([c["command"] for c in doc["commands"]], [e["kind"] for e in doc["errors"]],
            (main["tool_calls"], main["failed_calls"]))


def test_a_request_whose_oldest_turns_were_summarised_reads_only_its_new_call(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, [[_SYSTEM, _USER], [_SYSTEM, _USER, *C1], [_SYSTEM, _USER, *C1, *C2],
                              [_SYSTEM, _SUMMARY, *C2, *C3]])
    assert _seen(doc) == (["ssh gpu07 nvidia-smi", "ssh gpu07 python -c 'import sglang'", "ssh gpu07 pip install sglang"],
                          ["traceback"], (3, 1))


def test_a_request_keeping_the_first_prompt_and_the_last_turns_reads_only_its_new_call(tmp_path: Path) -> None:
    doc = _analyze(tmp_path, [[_SYSTEM, _USER, *C1, *C2], [_SYSTEM, _USER, *C2, *C3]])
    assert _seen(doc) == (["ssh gpu07 nvidia-smi", "ssh gpu07 python -c 'import sglang'", "ssh gpu07 pip install sglang"],
                          ["traceback"], (3, 1))
    assert [p["text"] for p in doc["prompts"]] == [_USER["content"]]


def test_conversations_of_their_own_with_one_system_prompt_are_read_whole(tmp_path: Path) -> None:
    # fine-tuning lines: the same system prompt, the same closing answer, calls of their own
    done = {"role": "assistant", "content": "Done."}
    doc = _analyze(tmp_path, [[_SYSTEM, _USER, *C1, done], [_SYSTEM, _USER, *C3, done]])
    assert [c["command"] for c in doc["commands"]] == ["ssh gpu07 nvidia-smi", "ssh gpu07 pip install sglang"]


def test_anthropic_messages_requests_trimmed_alike_read_only_their_new_call(tmp_path: Path) -> None:
    # the same loop on the Anthropic Messages API: tool_use / tool_result blocks carry the ids
    def call(i: str, command: str) -> dict:
        return {"role": "assistant", "content": [{"type": "tool_use", "id": i, "name": "bash",
                                                  "input": {"command": command}}]}

    def result(i: str, text: str) -> dict:
        return {"role": "user", "content": [{"type": "tool_result", "tool_use_id": i, "content": text}]}

    c1 = [call("toolu_1", "ssh gpu07 nvidia-smi"), result("toolu_1", "GPU 0: NVIDIA H100 80GB HBM3")]
    c2 = [call("toolu_2", "ssh gpu07 systemctl status sglang"), result("toolu_2", "active (running)")]
    c3 = [call("toolu_3", "ssh gpu07 journalctl -u sglang -n 20"), result("toolu_3", "accept len: 1.02")]
    user = {"role": "user", "content": _USER["content"]}
    summary = {"role": "user", "content": _SUMMARY["content"]}
    doc = _analyze(tmp_path, [[user, *c1, *c2], [summary, *c2, *c3]])
    assert [c["command"] for c in doc["commands"]] == [
        "ssh gpu07 nvidia-smi", "ssh gpu07 systemctl status sglang", "ssh gpu07 journalctl -u sglang -n 20"]

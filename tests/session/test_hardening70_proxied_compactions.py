"""OpenCode's compaction through a logging proxy. OpenCode (on an OpenAI-compatible provider it sends
no session name) summarizes a long history in one call, then sends each later request as the
compaction's question, ``What did we do so far?`` (sst/opencode ``packages/opencode/src/session/
message-v2.ts``, ``toModelMessages``: a compaction part), the summary as the assistant's answer, and
what came after (``Continue if you have next steps, ...`` where it compacted on its own:
``session/compaction.ts``). Parted by their first prompt, the calls before and after the compaction
were two sessions, and two runs that each compacted were joined on the constant question."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

QUESTION = "What did we do so far?"
CONTINUE = "Continue if you have next steps, or stop and ask for clarification if you are unsure how to proceed."
SYSTEM = {"role": "system", "content": "You are opencode, an interactive CLI tool that helps users with software "
                                       "engineering tasks."}


def _user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _said(text: str) -> dict:
    return {"role": "assistant", "content": text}


def _bash(call_id: str, command: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [{"id": call_id, "type": "function", "function": {
        "name": "bash", "arguments": json.dumps({"command": command, "description": "check"})}}]}


def _out(call_id: str, text: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def _run(tag: str, host: str) -> list[tuple[list, dict]]:
    """One OpenCode run's calls, (request messages, answer), that compacts after two commands."""
    ask = _user(f"the EAGLE-3 draft on {host} accepts almost nothing, find out why")
    one, two, three = (_bash(f"call_{tag}{n}", f"ssh {host} '{c}'") for n, c in
                       ((1, "nvidia-smi"), (2, "tail -n 40 sglang.log"), (3, "grep -c accept sglang.log")))
    head = [ask, one, _out(f"call_{tag}1", "NVIDIA-SMI 550.54\n"), two,
            _out(f"call_{tag}2", "accept len 1.01\n")]
    summary = _said(f"## Goal\nFind why the EAGLE-3 draft on {host} accepts almost nothing.\n\n## Done\n"
                    f"- nvidia-smi on {host}: the GPUs are fine.\n- sglang.log shows accept length 1.01 from the "
                    "first batch on.\n\n## Next\n- Count the accept lines in sglang.log.\n")
    after = [_user(QUESTION), summary, _user(CONTINUE)]
    return [
        ([ask], one),
        (head[:3], two),
        ([*head, _user(QUESTION)], summary),  # the summary call: the whole history, then the question
        (after, three),
        ([*after, three, _out(f"call_{tag}3", "0\n")], _said(f"No draft token was ever accepted on {host}.")),
    ]


def _write(logs: Path, calls: list[tuple[list, dict]]) -> None:
    logs.mkdir()
    for n, (messages, answer) in enumerate(calls):
        record = {"request": {"method": "POST", "url": "http://127.0.0.1:30000/v1/chat/completions",
                              "headers": {"content-type": "application/json", "user-agent": "opencode/1.0.134"},
                              "body": {"model": "qwen3-coder", "messages": [SYSTEM, *messages], "stream": False}},
                  "response": {"status_code": 200, "headers": {}, "error": None,
                               "body": {"id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1764930080 + n,
                                        "model": "qwen3-coder",
                                        "choices": [{"index": 0, "message": answer, "finish_reason": "stop"}]}}}
        (logs / f"2025-12-05_10-2{n // 10}-{n % 10:02d}-000000.json").write_text(json.dumps(record))


def test_a_compacted_run_is_one_session(tmp_path: Path) -> None:
    _write(logs := tmp_path / "logs", _run("a", "gpu07"))
    doc = analyze_path(logs).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["logs"]
    assert [c["command"] for c in doc["commands"]] == [
        "ssh gpu07 'nvidia-smi'", "ssh gpu07 'tail -n 40 sglang.log'", "ssh gpu07 'grep -c accept sglang.log'"]


def test_two_compacted_runs_are_two_sessions(tmp_path: Path) -> None:
    first, second = _run("a", "gpu07"), _run("b", "gpu12")
    _write(logs := tmp_path / "logs", [*first, *second])
    doc = analyze_path(logs).to_json()
    assert len(doc["sessions"]) == 2
    by_session: dict[str, list[str]] = {}
    for command in doc["commands"]:
        by_session.setdefault(command["session"], []).append(command["command"])
    assert sorted(by_session.values()) == [
        ["ssh gpu07 'nvidia-smi'", "ssh gpu07 'tail -n 40 sglang.log'", "ssh gpu07 'grep -c accept sglang.log'"],
        ["ssh gpu12 'nvidia-smi'", "ssh gpu12 'tail -n 40 sglang.log'", "ssh gpu12 'grep -c accept sglang.log'"]]

"""Claude Code through a logging proxy makes side calls beside its conversation, each with a system
prompt of its own on its small model: the topic check of each prompt (``Analyze if this message
indicates a new conversation topic ...``, the prompt its one user message, ``{"isNewTopic", "title"}``
back: its cli.js, as public proxies quote it), the session's summary (``Summarize this coding
conversation in under 50 characters``) or newer its title (``Generate a concise, sentence-case
title (3-7 words) ...``), a Bash command's prefix (``Your task is to process Bash commands that an
AI coding agent wants to run``, ``Command: <the command>`` in the user message); and its probes:
``quota`` with ``max_tokens: 1`` and ``Warmup`` (sub2api's rules that answer them itself).
Before, each was read as a turn of the session: "quota", the summary's text and the command a
prompt of the person's, the JSON and the title the assistant's words. Now they are left out, as
OpenCode's title call is; the same words in the conversation itself are read as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

_CLAUDE = {"type": "text", "text": "You are Claude Code, Anthropic's official CLI for Claude."}
_MAIN = [_CLAUDE, {"type": "text", "text": "You are an interactive CLI tool that helps users with software "
                                           "engineering tasks." + " Be careful." * 500}]
_TOPIC = [_CLAUDE, {"type": "text", "text": (
    "Analyze if this message indicates a new conversation topic. If it does, extract a 2-3 word title that "
    "captures the new topic. Format your response as a JSON object with two fields: 'isNewTopic' (boolean) "
    "and 'title' (string, or null if isNewTopic is false). Only include these fields, no other text. ONLY "
    "generate the JSON object, no other text (eg. no markdown).")}]
_TITLE = ("Generate a concise, sentence-case title (3-7 words) that captures the main topic or goal of this "
          "coding session. The title should be clear enough that the user recognizes the session in a list. "
          "Use sentence case: capitalize only the first word and proper nouns. Return JSON with a single "
          "\"title\" field.")
_SUMMARY = [{"type": "text", "text": "Summarize this coding conversation in under 50 characters.\n"
                                     "Capture the main task, key files, problems addressed, and current status."}]
_PREFIX = [_CLAUDE, {"type": "text", "text": "Your task is to process Bash commands that an AI coding agent "
                                             "wants to run.\n\nThis policy spec defines how to determine the "
                                             "prefix of a Bash command:"}]

ASK = "accept length dropped on gpu07 after the upgrade"
SMI = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                         "input": {"command": "ssh gpu07 nvidia-smi"}}]}
SMI_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Reinstall the driver on gpu07."}]}


def _text(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def _record(n: int, system, messages: list, answer: dict, model: str = "claude-sonnet-4-5",
            max_tokens: int = 32000) -> dict:
    """One call as llm-debug writes it (SingularityDAO-dev/tamashii-terminal ``llm-debug/app.py``)."""
    body = {"model": model, "max_tokens": max_tokens, "messages": messages, "stream": False,
            "metadata": {"user_id": "user_5dd0_account__session_d2e70091-3007-41a3-a916-cb8b0d3098de"}}
    if system is not None:
        body["system"] = system
    return {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages?beta=true",
                        "headers": {"anthropic-version": "2023-06-01"}, "body": body},
            "response": {"status_code": 200, "headers": {}, "error": None, "body": {
                "id": f"msg_{n:02d}", "type": "message", "role": "assistant", "model": model,
                "content": answer["content"], "stop_reason": "end_turn"}}}


HAIKU = "claude-haiku-4-5"
SIDE_CALLS = [
    (None, [{"role": "user", "content": "quota"}], _text("#"), HAIKU, 1),
    (_MAIN, [{"role": "user", "content": [{"type": "text", "text": "Warmup"}]}], _text("Ready to help."), HAIKU, 32000),
    (_TOPIC, [{"role": "user", "content": ASK}, {"role": "assistant", "content": "{"}],
     _text('"isNewTopic": true, "title": "GPU accept drop"}'), HAIKU, 512),
    (_PREFIX, [{"role": "user", "content": "<policy_spec>...</policy_spec>\n\nCommand: ssh gpu07 nvidia-smi"}],
     _text("ssh gpu07"), HAIKU, 512),
]
AFTER = [
    (_SUMMARY, [{"role": "user", "content": f"User: {ASK}\nClaude: Reinstall the driver on gpu07."}],
     _text("gpu07 driver mismatch"), HAIKU, 512),
    ([_CLAUDE, {"type": "text", "text": _TITLE}], [{"role": "user", "content": ASK}],
     _text('{"title": "Debug gpu07 accept length drop"}'), HAIKU, 512),
]
CONVERSATION = [(_MAIN, [{"role": "user", "content": ASK}], SMI, "claude-sonnet-4-5", 32000),
                (_MAIN, [{"role": "user", "content": ASK}, SMI, SMI_OUT], DONE, "claude-sonnet-4-5", 32000)]


def _write(tmp_path: Path, calls: list) -> Path:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, call in enumerate(calls):
        (logs / f"2025-12-05_10-21-{n:02d}-000000.json").write_text(json.dumps(_record(n, *call)))
    return logs


def _said(path: Path) -> list[tuple[str, str]]:
    (source,) = discover(path)
    return [(e.kind, e.text) for e in iter_events(source, ReadStats(), AgentTree()) if e.kind != "system"]


def test_side_calls_are_no_turns_of_the_conversation(tmp_path: Path) -> None:
    logs = _write(tmp_path, [*SIDE_CALLS, *CONVERSATION, *AFTER])
    assert _said(logs) == [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"),
                           ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
                           ("text", "Reinstall the driver on gpu07.")]
    a = analyze_path(logs)
    assert [p.text for p in a.prompts] == [ASK]
    assert [(c.command, c.is_error) for c in a.commands] == [("ssh gpu07 nvidia-smi", True)]


def test_the_same_words_in_the_conversation_itself_are_read(tmp_path: Path) -> None:
    # "quota" asked of the model with room to answer, and "Warmup" with a reply after it, are the person's
    quota = (_MAIN, [{"role": "user", "content": "quota"}], _text("Which quota?"), "claude-sonnet-4-5", 32000)
    warm = (_MAIN, [{"role": "user", "content": "Warmup"}, _text("Ready."), {"role": "user", "content": "go on"}],
            _text("Going."), "claude-sonnet-4-5", 32000)
    # a long system prompt (the conversation's own) that quotes a side call's words is no side call's
    quoting = [_CLAUDE, {"type": "text", "text": _MAIN[1]["text"] + " Never write: Generate a concise, "
                                                                    "sentence-case title."}]
    told = (quoting, [{"role": "user", "content": "why is gpu07 slow?"}], _text("Looking."), "claude-sonnet-4-5", 32000)
    assert _said(_write(tmp_path, [quota, warm, told])) == [
        ("prompt", "quota"), ("text", "Which quota?"), ("prompt", "Warmup"), ("text", "Ready."),
        ("prompt", "go on"), ("text", "Going."), ("prompt", "why is gpu07 slow?"), ("text", "Looking.")]


def test_a_side_call_s_answer_saved_after_it_is_left_out_too(tmp_path: Path) -> None:
    # a log of the requests ({model, system, messages}), each answer saved whole on the next line
    lines = []
    for n, (system, messages, answer, model, max_tokens) in enumerate([*SIDE_CALLS, *CONVERSATION, *AFTER]):
        body = {"model": model, "max_tokens": max_tokens, "messages": messages}
        if system is not None:
            body["system"] = system
        lines += [json.dumps(body), json.dumps({"id": f"msg_{n:02d}", "type": "message", "role": "assistant",
                                                "model": model, "content": answer["content"],
                                                "stop_reason": "end_turn"})]
    path = tmp_path / "claude-calls.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert _said(path) == [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"),
                           ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
                           ("text", "Reinstall the driver on gpu07.")]


def test_two_runs_side_calls_make_no_session_of_their_own(tmp_path: Path) -> None:
    # a proxy that keeps no metadata (no session named): the runs are parted by their first prompts;
    # each run's "quota", "Warmup" and Bash prefix calls open alike and were a session of their own
    other = "why is gpu09 slow?"

    def moved(call: tuple) -> tuple:
        system, messages, answer, model, max_tokens = call
        messages = [{**m, "content": other} if m.get("content") == ASK else m for m in messages]
        return system, messages, answer, model, max_tokens

    logs = tmp_path / "logs"
    logs.mkdir()
    calls = [*SIDE_CALLS, *CONVERSATION, *map(moved, SIDE_CALLS), *map(moved, CONVERSATION)]
    for n, call in enumerate(calls):
        record = _record(n, *call)
        del record["request"]["body"]["metadata"]
        (logs / f"2025-12-05_10-21-{n:02d}-000000.json").write_text(json.dumps(record))
    doc = analyze_path(logs).to_json()
    assert sorted(s["events"] for s in doc["sessions"]) == [5, 5]
    assert sorted(p["text"] for p in doc["prompts"]) == [ASK, other]
    assert len({p["session"] for p in doc["prompts"]}) == 2

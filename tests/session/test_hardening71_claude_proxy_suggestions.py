"""After each answer Claude Code guesses the person's next prompt (the greyed suggestion in its prompt
box): a fork resends the whole conversation on the conversation's model with one more user message,
``[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]`` and its
rules, and the model answers with the guess (``run the tests``). Through a logging proxy the question
was a prompt of the person's after every answer and the guess the assistant's words; now both are
left out, and the conversation the fork resends is read as any request's (in a log of requests
alone, the last answer is only there)."""

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
SUGGEST = ("[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]\n\nFIRST: Look "
           "at the user's recent messages and original request.\n\nYour job is to predict what THEY would type "
           "- not what you think they should do.")
ASK = "accept length dropped on gpu07 after the upgrade"
SMI = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                         "input": {"command": "ssh gpu07 nvidia-smi"}}]}
SMI_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Reinstall the driver on gpu07."}]}
NEXT = "reinstall it and rerun the bench"
BENCH = {"role": "assistant", "content": [{"type": "text", "text": "Accept length is back to 3.1."}]}
SONNET = "claude-sonnet-4-5"


def _user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _text(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


HISTORY = [_user(ASK), SMI, SMI_OUT, DONE]
CALLS = [  # (request messages, answer)
    ([_user(ASK)], SMI),
    ([_user(ASK), SMI, SMI_OUT], DONE),
    ([*HISTORY, _user(SUGGEST)], _text("reinstall it")),
    ([*HISTORY, _user(NEXT)], BENCH),
    ([*HISTORY, _user(NEXT), BENCH, _user(SUGGEST)], _text("commit this")),
]


def _said(path: Path) -> list[tuple[str, str]]:
    (source,) = discover(path)
    return [(e.kind, e.text) for e in iter_events(source, ReadStats(), AgentTree()) if e.kind != "system"]


WHOLE = [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"),
         ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
         ("text", "Reinstall the driver on gpu07."), ("prompt", NEXT), ("text", "Accept length is back to 3.1.")]


def test_a_proxy_s_records_of_the_suggestion_fork_are_no_turns(tmp_path: Path) -> None:
    logs = tmp_path / "logs"
    logs.mkdir()
    for n, (messages, answer) in enumerate(CALLS):
        record = {"request": {"method": "POST", "url": "https://api.anthropic.com/v1/messages?beta=true",
                              "headers": {}, "body": {"model": SONNET, "max_tokens": 32000, "system": _MAIN,
                                                      "messages": messages}},
                  "response": {"status_code": 200, "headers": {}, "error": None, "body": {
                      "id": f"msg_{n:02d}", "type": "message", "role": "assistant", "model": SONNET,
                      "content": answer["content"], "stop_reason": "end_turn"}}}
        (logs / f"2025-12-05_10-21-{n:02d}-000000.json").write_text(json.dumps(record))
    assert _said(logs) == WHOLE
    assert [p.text for p in analyze_path(logs).prompts] == [ASK, NEXT]


def test_a_log_of_requests_alone_keeps_the_answer_only_the_fork_resent(tmp_path: Path) -> None:
    # no answers saved: the last answer of the session is read from the fork's request, its question not
    path = tmp_path / "requests.jsonl"
    path.write_text("".join(json.dumps({"model": SONNET, "max_tokens": 32000, "system": _MAIN, "messages": m}) + "\n"
                            for m, _ in CALLS))
    assert _said(path) == WHOLE


def test_the_fork_s_answer_saved_after_it_is_left_out_too(tmp_path: Path) -> None:
    lines = []
    for n, (messages, answer) in enumerate(CALLS):
        lines += [json.dumps({"model": SONNET, "max_tokens": 32000, "system": _MAIN, "messages": messages}),
                  json.dumps({"id": f"msg_{n:02d}", "type": "message", "role": "assistant", "model": SONNET,
                              "content": answer["content"], "stop_reason": "end_turn"})]
    path = tmp_path / "calls.jsonl"
    path.write_text("\n".join(lines) + "\n")
    assert _said(path) == WHOLE


def test_the_person_s_words_about_suggestion_mode_are_their_prompt(tmp_path: Path) -> None:
    asked = "what does [SUGGESTION MODE] in the proxy log mean?"
    path = tmp_path / "requests.jsonl"
    path.write_text(json.dumps({"model": SONNET, "max_tokens": 32000, "system": _MAIN,
                                "messages": [*HISTORY, _user(asked)]}) + "\n")
    assert _said(path) == [*WHOLE[:4], ("prompt", asked)]

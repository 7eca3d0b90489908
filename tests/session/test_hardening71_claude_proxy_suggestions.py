"""After each answer Claude Code guesses the person's next prompt (the greyed suggestion in its prompt
box): a fork resends the whole conversation on the conversation's model with one more user message,
``[SUGGESTION MODE: Suggest what the user might naturally type next into Claude Code.]`` and its
rules, and the model answers with the guess (``run the tests``). Through a logging proxy the question
was a prompt of the person's after every answer and the guess the assistant's words; now both are
left out, and the conversation the fork resends is read as any request's (in a log of requests
alone, the last answer is only there)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import MAIN, said as _said, write_records, write_requests

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


WHOLE = [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"),
         ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
         ("text", "Reinstall the driver on gpu07."), ("prompt", NEXT), ("text", "Accept length is back to 3.1.")]


def test_a_proxy_s_records_of_the_suggestion_fork_are_no_turns(tmp_path: Path) -> None:
    logs = write_records(tmp_path, [(MAIN, messages, answer, SONNET, 32000) for messages, answer in CALLS])
    assert _said(logs) == WHOLE
    assert [p.text for p in analyze_path(logs).prompts] == [ASK, NEXT]


def test_a_log_of_requests_alone_keeps_the_answer_only_the_fork_resent(tmp_path: Path) -> None:
    # no answers saved: the last answer of the session is read from the fork's request, its question not
    assert _said(write_requests(tmp_path / "requests.jsonl", CALLS, SONNET)) == WHOLE


def test_the_fork_s_answer_saved_after_it_is_left_out_too(tmp_path: Path) -> None:
    assert _said(write_requests(tmp_path / "calls.jsonl", CALLS, SONNET, answers=True)) == WHOLE


def test_the_person_s_words_about_suggestion_mode_are_their_prompt(tmp_path: Path) -> None:
    asked = "what does [SUGGESTION MODE] in the proxy log mean?"
    path = write_requests(tmp_path / "requests.jsonl", [([*HISTORY, _user(asked)], None)], SONNET)
    assert _said(path) == [*WHOLE[:4], ("prompt", asked)]

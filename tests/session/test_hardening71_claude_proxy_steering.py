"""A message the person types while Claude Code works reaches the model with the next tool result:
``<system-reminder>\\nThe user sent a new message while you were working:\\n<the message>\\n\\nIMPORTANT:
After completing your current task, you MUST address the user's message above. Do not ignore
it.\\n</system-reminder>``, inside the tool_result or as a text block beside it (the session file
writes it as a ``queued_command`` attachment, read as a prompt: formats.claude_code). Read from a
logging proxy's log, the message was part of the tool's output (``git status`` said "also update
the README") or a note of the CLI's, and the person's words no prompt. Now the note is cut from the
output and the message is a prompt after the result; words that only quote the sentence are kept."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import said, write_requests
SONNET = "claude-sonnet-4-5"
ASK = "rerun the EAGLE-3 bench on gpu07"
STEER = "use --num-speculative-tokens 3 this time"
NOTE = ("<system-reminder>\nThe user sent a new message while you were working:\n{}\n\nIMPORTANT: After completing "
        "your current task, you MUST address the user's message above. Do not ignore it.\n</system-reminder>")
CALL = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                          "input": {"command": "ssh gpu07 nvidia-smi -L"}}]}
OUTPUT = "GPU 0: NVIDIA H100 80GB HBM3"
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Running with 3 speculative tokens."}]}


def _user(content) -> dict:
    return {"role": "user", "content": content}


RESULTS = {
    "inside": _user([{"type": "tool_result", "tool_use_id": "toolu_1",
                      "content": [{"type": "text", "text": OUTPUT}, {"type": "text", "text": NOTE.format(STEER)}]}]),
    "joined": _user([{"type": "tool_result", "tool_use_id": "toolu_1", "content": f"{OUTPUT}\n{NOTE.format(STEER)}"}]),
    "beside": _user([{"type": "tool_result", "tool_use_id": "toolu_1", "content": OUTPUT},
                     {"type": "text", "text": NOTE.format(STEER)}]),
}


def _said(path: Path) -> list[tuple[str, str]]:
    return said(path, notes=False)


def _requests(tmp_path: Path, calls: list[list]) -> Path:
    return write_requests(tmp_path / "requests.jsonl", [(messages, None) for messages in calls], SONNET)


@pytest.mark.parametrize("shape", sorted(RESULTS))
def test_the_message_typed_meanwhile_is_a_prompt_after_the_result(tmp_path: Path, shape: str) -> None:
    result = RESULTS[shape]
    path = _requests(tmp_path, [[_user(ASK)], [_user(ASK), CALL, result], [_user(ASK), CALL, result, DONE]])
    assert _said(path) == [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi -L"), ("tool_result", OUTPUT),
                           ("prompt", STEER), ("text", "Running with 3 speculative tokens.")]
    assert [p.text for p in analyze_path(path).prompts] == [ASK, STEER]


def test_two_messages_typed_meanwhile_are_two_prompts(tmp_path: Path) -> None:
    result = _user([{"type": "tool_result", "tool_use_id": "toolu_1",
                     "content": f"{OUTPUT}\n{NOTE.format(STEER)}\n{NOTE.format('and log acceptance per position')}"}])
    path = _requests(tmp_path, [[_user(ASK), CALL, result]])
    assert _said(path)[2:] == [("tool_result", OUTPUT), ("prompt", STEER),
                               ("prompt", "and log acceptance per position")]


def test_an_output_that_quotes_the_sentence_is_kept(tmp_path: Path) -> None:
    quoted = ('src/queue.ts:41:  "The user sent a new message while you were working:\n'
              'src/queue.ts:42:  + prompt')
    result = _user([{"type": "tool_result", "tool_use_id": "toolu_1", "content": quoted}])
    path = _requests(tmp_path, [[_user(ASK), CALL, result]])
    assert _said(path)[2:] == [("tool_result", quoted)]

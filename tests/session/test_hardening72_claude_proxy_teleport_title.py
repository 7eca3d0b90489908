"""Claude Code's title and branch call for a session it sends to the web (``--teleport``/``--remote``,
and plan mode's hand-off): on the small model with no system prompt of its own (Claude Code's identity
alone), one user message, the whole instruction with the session's description in it: ``You are
coming up with a succinct title and git branch name for a coding session based on the provided
description. ... <description>...</description>\\nPlease generate a title and branch name for this
session.``, ``{"title": ..., "branch": "claude/..."}`` back (``generateTitleAndBranch``, querySource
``teleport_generate_title``, ``src/utils/teleport.tsx`` as public copies of the CLI's source carry it).
Through a logging proxy the instruction was a prompt of the person's and the JSON the assistant's
words, in the middle of the conversation."""

from __future__ import annotations

from pathlib import Path

from tests.session.claude_proxy_log import CLAUDE, MAIN, said as _said, write_records

ASK = "accept length dropped on gpu07 after the upgrade"
SMI = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                         "input": {"command": "ssh gpu07 nvidia-smi"}}]}
SMI_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Reinstall the driver on gpu07."}]}
NEXT = "reinstall it and rerun the bench"
BENCH = {"role": "assistant", "content": [{"type": "text", "text": "Accept length is back to 3.1."}]}
WHOLE = [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"),
         ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
         ("text", "Reinstall the driver on gpu07."), ("prompt", NEXT), ("text", "Accept length is back to 3.1.")]
TELEPORT = (
    "You are coming up with a succinct title and git branch name for a coding session based on the provided "
    "description. The title should be clear, concise, and accurately reflect the content of the coding task.\n"
    "You should keep it short and simple, ideally no more than 6 words. Avoid using jargon or overly technical "
    "terms unless absolutely necessary. The title should be easy to understand for anyone reading it.\n"
    "Use sentence case for the title (capitalize only the first word and proper nouns), not Title Case.\n\n"
    "The branch name should be clear, concise, and accurately reflect the content of the coding task.\n"
    "You should keep it short and simple, ideally no more than 4 words. The branch should always start with "
    "\"claude/\" and should be all lower case, with words separated by dashes.\n\n"
    "Return a JSON object with \"title\" and \"branch\" fields.\n\n"
    "Example 1: {\"title\": \"Fix login button not working on mobile\", \"branch\": "
    "\"claude/fix-mobile-login-button\"}\n"
    "Example 2: {\"title\": \"Update README with installation instructions\", \"branch\": \"claude/update-readme\"}\n"
    "Example 3: {\"title\": \"Improve performance of data processing script\", \"branch\": "
    "\"claude/improve-data-processing\"}\n\nHere is the session description:\n<description>{description}"
    "</description>\nPlease generate a title and branch name for this session.")
OLDER = TELEPORT.replace("Return a JSON object with \"title\" and \"branch\" fields.",
                         "You should wrap the branch name in <branch> tags.")


def _user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _text(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


def _calls(side: tuple) -> list:
    return [(MAIN, [_user(ASK)], SMI, "claude-sonnet-4-5", 32000),
            (MAIN, [_user(ASK), SMI, SMI_OUT], DONE, "claude-sonnet-4-5", 32000),
            side,
            (MAIN, [_user(ASK), SMI, SMI_OUT, DONE, _user(NEXT)], BENCH, "claude-sonnet-4-5", 32000)]


def test_the_teleport_title_call_is_no_turn(tmp_path: Path) -> None:
    asked = TELEPORT.replace("{description}", "reinstall the gpu07 driver and rerun the bench")
    side = ([CLAUDE], [_user(asked)], _text('{"title": "Reinstall gpu07 driver", "branch": "claude/gpu07-driver"}'),
            "claude-haiku-4-5", 512)
    assert _said(write_records(tmp_path, _calls(side))) == WHOLE  # was the instruction a prompt, the JSON text


def test_the_older_tagged_shape_with_no_system_prompt_is_no_turn(tmp_path: Path) -> None:
    asked = OLDER.replace("{description}", "reinstall the gpu07 driver")
    side = (None, [_user(asked)], _text("<title>Reinstall gpu07 driver</title>\n<branch>claude/gpu07</branch>"),
            "claude-haiku-4-5", 512)
    assert _said(write_records(tmp_path, _calls(side))) == WHOLE


def test_the_words_typed_in_the_conversation_stay_a_prompt(tmp_path: Path) -> None:
    typed = "You are coming up with a succinct title and git branch name: is that Claude Code's prompt?"
    side = (MAIN, [_user(ASK), SMI, SMI_OUT, DONE, _user(typed)], _text("Yes."), "claude-sonnet-4-5", 32000)
    said = _said(write_records(tmp_path, _calls(side)))
    assert said == [*WHOLE[:4], ("prompt", typed), ("text", "Yes."), *WHOLE[4:]]

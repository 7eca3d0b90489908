"""Four more of Claude Code's model calls beside its conversation, as a logging proxy records them:

- ``/btw <question>``: a fork resends the conversation so far with one more user message, the
  question after ``<system-reminder>This is a side question from the user. You must answer this
  question directly in a single response. ...</system-reminder>`` (the CLI's ``runSideQuestion``,
  ``querySource: 'side_question'``; the reminder as Piebald-AI/claude-code-system-prompts lists it for
  2.1.23);
- the "while you were away" recap: the conversation's last messages and one user message, ``The user
  stepped away and is coming back. Write exactly 1-3 short sentences. ...`` (after ``Session memory
  (broader context):`` and the session's memory when it has one; ``services/awaySummary.ts``,
  ``querySource: 'away_summary'``);
- a ``"type": "prompt"`` hook's check on the small model: system ``You are evaluating a hook in Claude
  Code.`` and the hook's prompt with its input (``utils/hooks/execPromptHook.ts``, ``hook_prompt``);
- ``/rename`` with no name (and the remote bridge's names): system ``Generate a short kebab-case name
  (2-4 words) that captures the main topic of this conversation. ...``, the conversation written out
  as the user message (``generateSessionName``, ``rename_generate_name``).

Read as turns, the side question (once its reminder was set aside) was a prompt of the person's and
its answer the assistant's; the recap's instruction a prompt and the recap the assistant's words;
the hook's prompt and the conversation's text prompts, ``{"ok": true}`` the assistant's. Now they
are left out; the conversation the ``/btw`` fork resends is read as any request's."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import CLAUDE, MAIN, said as _said, write_records, write_requests

BTW = ("<system-reminder>This is a side question from the user. You must answer this question directly in a "
       "single response.\n\nIMPORTANT CONTEXT:\n- You are a separate, lightweight agent spawned to answer this "
       "one question\n- The main agent is NOT interrupted - it continues working independently in the "
       "background\n\nCRITICAL CONSTRAINTS:\n- You have NO tools available - you cannot read files, run "
       "commands, search, or take any actions\n\nSimply answer the question with the information you "
       "have.</system-reminder>\n\n")
AWAY = ("The user stepped away and is coming back. Write exactly 1-3 short sentences. Start by stating the "
        "high-level task — what they are building or debugging, not implementation details. Next: the "
        "concrete next step. Skip status reports and commit recaps.")
HOOK = [CLAUDE, {"type": "text", "text": (
    "You are evaluating a hook in Claude Code.\n\nYour response must be a JSON object matching one of the "
    "following schemas:\n1. If the condition is met, return: {\"ok\": true}\n2. If the condition is not met, "
    "return: {\"ok\": false, \"reason\": \"Reason for why it is not met\"}")}]
RENAME = [CLAUDE, {"type": "text", "text": (
    "Generate a short kebab-case name (2-4 words) that captures the main topic of this conversation. Use "
    "lowercase words separated by hyphens. Examples: \"fix-login-bug\", \"add-auth-feature\", "
    "\"refactor-api-client\", \"debug-test-failures\". Return JSON with a \"name\" field.")}]

ASK = "accept length dropped on gpu07 after the upgrade"
SMI = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                         "input": {"command": "ssh gpu07 nvidia-smi"}}]}
SMI_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "is_error": True,
                                        "content": "Failed to initialize NVML: Driver/library version mismatch"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Reinstall the driver on gpu07."}]}
NEXT = "reinstall it and rerun the bench"
BENCH = {"role": "assistant", "content": [{"type": "text", "text": "Accept length is back to 3.1."}]}
SONNET = "claude-sonnet-4-5"
HAIKU = "claude-haiku-4-5"


def _user(text: str) -> dict:
    return {"role": "user", "content": [{"type": "text", "text": text}]}


def _text(text: str) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": text}]}


HISTORY = [_user(ASK), SMI, SMI_OUT, DONE]
WHOLE = [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"),
         ("tool_result", "Failed to initialize NVML: Driver/library version mismatch"),
         ("text", "Reinstall the driver on gpu07."), ("prompt", NEXT), ("text", "Accept length is back to 3.1.")]


def _calls(side: tuple) -> list:
    """The conversation's calls, ``side`` (system, messages, answer, model, max_tokens) after its first answer."""
    return [(MAIN, [_user(ASK)], SMI, SONNET, 32000),
            (MAIN, [_user(ASK), SMI, SMI_OUT], DONE, SONNET, 32000),
            side,
            (MAIN, [*HISTORY, _user(NEXT)], BENCH, SONNET, 32000)]


def test_a_btw_side_question_is_no_prompt_of_the_person_s(tmp_path: Path) -> None:
    side = (MAIN, [*HISTORY, _user(BTW + "which driver version is on gpu07?")], _text("Probably 550."),
            SONNET, 32000)
    logs = write_records(tmp_path, _calls(side))
    assert _said(logs) == WHOLE  # was the question a prompt, "Probably 550." the assistant's
    assert [p.text for p in analyze_path(logs).prompts] == [ASK, NEXT]


def test_a_log_of_requests_alone_keeps_the_answer_only_the_btw_fork_resent(tmp_path: Path) -> None:
    calls = [([*HISTORY, _user(BTW + "which driver version is on gpu07?")], None), ([*HISTORY, _user(NEXT)], BENCH)]
    assert _said(write_requests(tmp_path / "requests.jsonl", calls, SONNET)) == WHOLE[:5]


def test_the_away_recap_is_no_turn(tmp_path: Path) -> None:
    side = ([CLAUDE], [*HISTORY, _user(AWAY)], _text("Debugging low accept length on gpu07; next reinstall "
                                                     "the driver."), HAIKU, 200)
    assert _said(write_records(tmp_path, _calls(side))) == WHOLE


def test_the_away_recap_after_the_session_s_memory_is_no_turn(tmp_path: Path) -> None:
    said = "Session memory (broader context):\n# gpu07\n- driver 550 after the upgrade\n\n" + AWAY
    side = ([CLAUDE], [*HISTORY[-2:], _user(said)], _text("Reinstall the driver on gpu07 next."), HAIKU, 200)
    assert _said(write_records(tmp_path, _calls(side))) == WHOLE


def test_a_prompt_hook_s_check_is_no_turn(tmp_path: Path) -> None:
    check = 'Did the assistant verify the fix? Input: {"hook_event_name": "Stop", "stop_hook_active": false}'
    side = (HOOK, [*HISTORY, _user(check)], _text('{"ok": true}'), HAIKU, 32000)
    assert _said(write_records(tmp_path, _calls(side))) == WHOLE


def test_the_rename_call_is_no_turn(tmp_path: Path) -> None:
    side = (RENAME, [_user(f"{ASK}\n\nReinstall the driver on gpu07.")], _text('{"name": "gpu07-driver-fix"}'),
            HAIKU, 80)
    assert _said(write_records(tmp_path, _calls(side))) == WHOLE


def test_the_person_s_own_words_stay_their_prompts(tmp_path: Path) -> None:
    # the same words typed in the conversation, without the CLI's reminder or as a question about them
    asked = ["The user stepped away and is coming back. What does that recap line mean?",
             "This is a side question from the user: is the driver pinned?"]
    calls = [([*HISTORY, _user(asked[0])], None), ([*HISTORY, _user(asked[0]), BENCH, _user(asked[1])], None)]
    said = _said(write_requests(tmp_path / "requests.jsonl", calls, SONNET))
    assert said == [*WHOLE[:4], ("prompt", asked[0]), WHOLE[5], ("prompt", asked[1])]

"""Claude Code compacts a conversation near its context's limit (or on ``/compact``) with one more
request: the history, then a user message of its own, ``Your task is to create a detailed summary of
the conversation so far, paying close attention to the user's explicit requests ...``, answered with
the summary; every request after it opens with that summary as a user message, ``This session is
being continued from a previous conversation that ran out of context. ...``, the person's next
prompt in a block after it. Through a logging proxy the instruction and the summary were prompts of
the person's (the postmortem listed three prompts for one) and the summary the assistant's words
too. Now the compaction is one ``compaction`` event where it happened, and the summary a ``summary``
event, as the session file's compact_boundary and summary lines read (formats.claude_code)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import MAIN, said as _said, write_records, write_requests

SONNET = "claude-sonnet-4-5"
ASK = "rerun the EAGLE-3 bench on gpu07"
CALL = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                          "input": {"command": "ssh gpu07 python bench.py"}}]}
OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "accept length 1.00"}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "Accept length is 1.00: the drafter never hits."}]}
COMPACT = ("Your task is to create a detailed summary of the conversation so far, paying close attention to the "
           "user's explicit requests and your previous actions.\nThis summary should be thorough in capturing "
           "technical details, code patterns, and architectural decisions.")
SUMMARY = "<analysis>\nThe bench ran.\n</analysis>\n<summary>\n1. Primary Request: rerun the EAGLE-3 bench\n</summary>"
CONTINUED = ("This session is being continued from a previous conversation that ran out of context. The "
             f"conversation is summarized below:\n{SUMMARY}")
NEXT = "now check the drafter's config"
AFTER = {"role": "user", "content": [{"type": "text", "text": CONTINUED}, {"type": "text", "text": NEXT}]}
LOOKED = {"role": "assistant", "content": [{"type": "text", "text": "The drafter's vocab map is missing."}]}
CALLS = [  # (request messages, answer)
    ([{"role": "user", "content": ASK}], CALL),
    ([{"role": "user", "content": ASK}, CALL, OUT], DONE),
    ([{"role": "user", "content": ASK}, CALL, OUT, DONE, {"role": "user", "content": COMPACT}],
     {"role": "assistant", "content": [{"type": "text", "text": SUMMARY}]}),
    ([AFTER], LOOKED),
]
READ = [("prompt", ASK), ("tool_call", "ssh gpu07 python bench.py"), ("tool_result", "accept length 1.00"),
        ("text", "Accept length is 1.00: the drafter never hits."), ("compaction", "context compacted"),
        ("summary", CONTINUED), ("prompt", NEXT), ("text", "The drafter's vocab map is missing.")]


def test_a_proxy_s_records_of_a_compaction(tmp_path: Path) -> None:
    logs = write_records(tmp_path, [(MAIN, messages, answer, SONNET, 32000) for messages, answer in CALLS])
    assert _said(logs) == READ
    assert [p.text for p in analyze_path(logs).prompts] == [ASK, NEXT]


def test_a_log_of_requests_and_answers_saved_after_them(tmp_path: Path) -> None:
    assert _said(write_requests(tmp_path / "calls.jsonl", CALLS, SONNET, answers=True)) == READ


def test_the_person_asking_for_a_summary_is_their_prompt(tmp_path: Path) -> None:
    # their own words, not the CLI's instruction: a turn of the conversation
    asked = "summarize the conversation so far for the incident channel"
    path = write_requests(tmp_path / "requests.jsonl",
                          [([{"role": "user", "content": ASK}, CALL, OUT, DONE, {"role": "user", "content": asked}],
                            None)], SONNET)
    assert _said(path) == [*READ[:4], ("prompt", asked)]

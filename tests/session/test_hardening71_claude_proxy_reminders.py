"""Claude Code sends its context ahead of the person's first prompt, in the same user message: a
``<system-reminder>`` text block (the folder's tree and git status on claude-cli/0.2.107, as a
proxy recorded its request #2: RavenStorm-bit/claude-code-api-logger ``full-requests-clean.md``;
CLAUDE.md and the date on newer CLIs), then the prompt. Read through a logging proxy, the session's
first prompt was the reminder (and the prompt after it), and a reminder the CLI sends beside the
results of a turn was a prompt of the person's. Now the prompt is what follows the reminders, as the
session files read it (formats.claude_code), and a reminder alone is the CLI's note."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.claude_proxy_log import said, write_requests
SONNET = "claude-3-7-sonnet-20250219"
CONTEXT = ("<system-reminder>\nAs you answer the user's questions, you can use the following context:\n<context "
           "name=\"directoryStructure\">Below is a snapshot of this project's file structure at the start of the "
           "conversation.\n\n- /root/bench/\n  - serve.py\n</context>\n<context name=\"gitStatus\">Current branch: "
           "main\n</context>\n      \n      IMPORTANT: this context may or may not be relevant to your tasks.\n"
           "</system-reminder>")
TODO = "<system-reminder>\nYour todo list is empty. DO NOT mention this to the user.\n</system-reminder>"
ASK = "why is accept length 1.0 on gpu07?"
FIRST = {"role": "user", "content": [{"type": "text", "text": CONTEXT},
                                     {"type": "text", "text": ASK, "cache_control": {"type": "ephemeral"}}]}
SMI = {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                         "input": {"command": "ssh gpu07 nvidia-smi"}}]}
SMI_OUT = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "GPU 0: H100"},
                                       {"type": "text", "text": TODO}]}
DONE = {"role": "assistant", "content": [{"type": "text", "text": "The drafter is not loaded."}]}


def _said(path: Path) -> list[tuple[str, str]]:
    return said(path, notes=True)


def _requests(tmp_path: Path, calls: list[list]) -> Path:
    return write_requests(tmp_path / "requests.jsonl", [(messages, None) for messages in calls], SONNET)


def test_the_first_prompt_is_the_person_s_words_after_the_cli_s_context(tmp_path: Path) -> None:
    path = _requests(tmp_path, [[FIRST], [FIRST, SMI, SMI_OUT], [FIRST, SMI, SMI_OUT, DONE]])
    said = [(kind, text) for kind, text in _said(path) if kind != "system" or "system-reminder" in text]
    assert said == [("prompt", ASK), ("tool_call", "ssh gpu07 nvidia-smi"), ("tool_result", "GPU 0: H100"),
                    ("system", TODO), ("text", "The drafter is not loaded.")]
    assert [p.text for p in analyze_path(path).prompts] == [ASK]


def test_a_prompt_sent_as_one_string_after_the_reminder(tmp_path: Path) -> None:
    joined = {"role": "user", "content": f"{CONTEXT}\n{ASK}"}
    alone = {"role": "user", "content": TODO}
    path = _requests(tmp_path, [[joined, DONE, alone]])
    assert [(k, t) for k, t in _said(path) if k != "system" or "system-reminder" in t] == [
        ("prompt", ASK), ("text", "The drafter is not loaded."), ("system", TODO)]


def test_a_prompt_that_only_quotes_the_tag_later_is_read_whole(tmp_path: Path) -> None:
    quoting = "what does <system-reminder> mean in the proxy log?"
    path = _requests(tmp_path, [[{"role": "user", "content": [{"type": "text", "text": quoting}]}]])
    assert [(k, t) for k, t in _said(path) if k != "system"] == [("prompt", quoting)]


IDE = ("<system-reminder>\nThe user opened the file /home/me/bench/serve.py in the IDE. This may or may not be "
       "related to the current task.\n</system-reminder>")


def test_a_reminder_after_the_prompt_is_not_part_of_it(tmp_path: Path) -> None:
    # the CLI's notes sent after the prompt in the same message (blocks, or one string)
    blocks = {"role": "user", "content": [{"type": "text", "text": CONTEXT}, {"type": "text", "text": ASK},
                                          {"type": "text", "text": IDE}]}
    joined = {"role": "user", "content": f"{ASK}\n\n{IDE}"}
    for n, first in enumerate((blocks, joined)):
        folder = tmp_path / str(n)
        folder.mkdir()
        path = _requests(folder, [[first, DONE]])
        assert [(k, t) for k, t in _said(path) if k != "system"] == [("prompt", ASK),
                                                                     ("text", "The drafter is not loaded.")]

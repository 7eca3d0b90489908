"""Aider's ``/ask X`` (and ``/code``, ``/architect``, ``/context``, ``/ok``) hands X to a coder of that
chat mode, whose ``run(with_message)`` writes X to the history again as an input of its own
(Aider-AI/aider ``aider/commands.py`` ``_generic_chat_command``; ``aider/coders/base_coder.py``
``self.io.user_input(with_message)``), so a real ``.aider.chat.history.md`` reads
``#### /ask can we make the terminal automatically scroll down?`` then ``#### can we make the
terminal automatically scroll down?`` (a committed history, seen through the library's search).
Before: the question was listed as two prompts. Now it is one, its words. The history below is
written in that shape (the questions mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

HEAD = """
# aider chat started at 2025-06-02 10:14:05

> /home/me/.local/bin/aider --model sonnet  
> Aider v0.84.0  
> Model: anthropic/claude-sonnet-4-20250514 with diff edit format  
> Git repo: .git with 30 files  

"""


def _prompts(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(HEAD + body, encoding="utf-8")
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_an_ask_is_one_prompt(tmp_path: Path) -> None:
    assert _prompts(tmp_path, """#### /ask why is accept length only 1.2 with the eagle3 drafter?  

#### why is accept length only 1.2 with the eagle3 drafter?  

The draft vocab mapping may be wrong.

> Tokens: 5.2k sent, 803 received. Cost: $0.03 message, $0.12 session.  

#### check the d2t table  

Looks fine.
""") == ["why is accept length only 1.2 with the eagle3 drafter?", "check the d2t table"]


def test_a_question_of_two_lines_and_ok(tmp_path: Path) -> None:
    assert _prompts(tmp_path, """#### /architect move the vocab map load  
#### into the drafter's loader  

#### move the vocab map load  
#### into the drafter's loader  

Plan: load d2t in load_drafter().

#### /ok  

#### Ok, please go ahead and make those changes.  

Done.
""") == ["move the vocab map load\ninto the drafter's loader", "Ok, please go ahead and make those changes."]


def test_a_mode_switch_and_a_new_question_stay_two(tmp_path: Path) -> None:
    """``/ask`` alone switches the mode (no words resent); a next question of other words is its own."""
    assert _prompts(tmp_path, """#### /ask  
> Aider v0.84.0  
> Model: anthropic/claude-sonnet-4-20250514 with ask edit format  

#### /code add a retry  

#### add jitter too  

Done.
""") == ["/ask", "/code add a retry", "add jitter too"]

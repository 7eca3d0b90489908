"""Aider chat history (``.aider.chat.history.md``) read as Aider writes it (Aider-AI/aider
``aider/io.py``): ``user_input`` writes every line of an input with the ``#### `` prefix, lines
joined by ``"  \\n#### "``; ``ai_output`` writes the reply after a blank line; tool messages are
``> `` lines. The reply used to be read as the end of the prompt, and each line of a multi-line
input as a prompt of its own."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def _io_history() -> str:
    """The history as ``InputOutput`` appends it: the start banner, ``user_input`` for a
    two-line input, ``ai_output`` for the reply, ``confirm_ask`` and ``tool_output`` as ``> ``,
    then a second input."""
    out = "\n# aider chat started at 2026-03-02 09:00:12\n\n"
    out += "> /home/me/.local/bin/aider --model sonnet  \n> Aider v0.86.1  \n"
    out += "\n#### the EAGLE-3 draft never loads on gpu01  \n#### check the server log first  \n"
    out += "\nThe draft checkpoint may not match the target; I'll read the server log.\n\n" \
           "```bash\nssh gpu01 'tail -n 50 /var/log/sglang.log'\n```\n\n"
    out += "> Run shell command? (Y)es/(N)o/(D)on't ask again [Yes]: y  \n" \
           "> Running ssh gpu01 'tail -n 50 /var/log/sglang.log'  \n"
    out += "\n#### /clear  \n"
    out += "\n#### why is accept length 1.0?  \n"
    out += "\nThe draft's head is not being used at all.\n\n"
    return out


def test_aider_prompts_are_the_inputs_and_the_reply_is_the_assistants(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(_io_history(), encoding="utf-8")
    a = analyze_path(path)
    assert [p.text for p in a.prompts] == [
        "the EAGLE-3 draft never loads on gpu01\ncheck the server log first", "/clear", "why is accept length 1.0?"]
    assert [c.command for c in a.commands] == ["ssh gpu01 'tail -n 50 /var/log/sglang.log'"]

"""Aider writes each line of a command's output into ``.aider.chat.history.md`` as ``> `` + the
line stripped + two spaces (a Markdown line break: Aider-AI/aider ``aider/io.py``,
``append_chat_history``), so a Python traceback there is flush left and every line ends in two
spaces, as a real history shows it (a ``/run python ARC-problem.py`` ending ``> UnicodeDecodeError:
'utf-8' codec can't decode byte 0x98 ...  ``, frames ``> File "/home/cath/chessencryption/
ARC-problem.py", line 63, in <module>  ``). An exception with a message was read; one with none
(``> AssertionError  ``: an ``assert`` that failed) was "traceback without an exception line", its
name lost to the two spaces. Now it is the exception. The history below is written in that shape
(the script and its lines mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

HISTORY = "\n".join([
    "",
    "# aider chat started at 2024-10-05 11:02:13",
    "",
    "> Aider v0.59.1  ",
    "> Model: openrouter/liquid/lfm-40b with architect edit format  ",
    "",
    "#### /run python check_draft.py  ",
    "> Add the output to the chat?",
    "(Y)es/(n)o/message with instructions:  ",
    "> loading draft weights...  ",
    ">  ",
    "> Traceback (most recent call last):  ",
    '> File "/home/cath/eagle3/check_draft.py", line 41, in <module>  ',
    "> main()  ",
    '> File "/home/cath/eagle3/check_draft.py", line 37, in main  ',
    "> assert draft_vocab == target_vocab  ",
    "> ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^  ",
    "> AssertionError  ",
    "",
    "#### why do the vocabularies differ?  ",
    "",
    "The draft was trained with a 32000-token map.",
    "",
])


def test_a_bare_exception_with_aiders_line_break_is_read(tmp_path: Path) -> None:
    path = tmp_path / ".aider.chat.history.md"
    path.write_text(HISTORY, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("python check_draft.py", True)]
    assert [(e["kind"], e["exception"], e["message"], e["file"], e["line"]) for e in doc["errors"]] == [
        ("traceback", "AssertionError", "", "/home/cath/eagle3/check_draft.py", 37)]

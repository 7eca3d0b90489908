"""The reasoning kept before a command is the last 320 characters of the agent's text; where no
sentence starts in their first half it starts at a word, inside a sentence. A capitalised word
there ("SGLang expects them to be absolute token ids ...", of "because the speculators loader in
SGLang expects ...") read as the start of a sentence: the analysis' `why` and the distilled
step's why began mid-sentence with no mark, and a window that began at a space kept it
(" checkpoint was exported ..."). Now such a start is marked "..." (ASCII, so that every kept
why stays Python's one-byte form), and distill's why starts at the next whole sentence; a
window that opens right after a sentence's end is not marked."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.reasoning import why_text
from tests.session.incident_story import _Writer

# exactly the 320 characters why_text keeps: the window opens at "SGLang"
TAIL = ("SGLang expects them to be absolute token ids and the vocab size recorded in the config would then disagree "
        "with the tensor shapes on disk, which is exactly what the loader complained about in the last run when it "
        "refused the draft checkpoints outright and printed nothing else. Let me look at the config on the host now.")
TEXT = "That did not work: the draft checkpoint was exported with offsets, because the speculators loader in " + TAIL


def test_a_window_at_a_capitalised_word_inside_a_sentence_is_marked() -> None:
    assert len(TAIL) == 320
    assert why_text(TEXT) == "..." + TAIL
    assert why_text(TEXT).isascii()
    # a text that is not single-spaced (a newline in it) is normalised first: the same
    assert why_text(TEXT.replace("loader in", "loader\nin")) == "..." + TAIL
    # a window that begins at a space: no space kept, marked
    assert why_text("x" + TEXT[:-1]) == "..." + TAIL[:-1]


def test_a_window_right_after_a_sentence_end_is_not_marked() -> None:
    assert why_text("It failed. " + TAIL) == TAIL
    assert why_text("It failed.\n" + TAIL) == TAIL
    # the window opens at the space after the stop: no space kept, not marked
    assert why_text("It failed. " + TAIL[:-1]) == TAIL[:-1]
    # a question's end is a sentence's end too
    assert why_text("Did it fail? " + TAIL) == TAIL


def test_the_step_why_starts_at_a_whole_sentence(tmp_path: Path) -> None:
    m = _Writer("9a1b0000-0000-4000-8000-00000000e753", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 accepts almost nothing.")
    m.bash("ssh gpu01 'python3 /root/check.py'", "Error: draft_vocab_size 32000 mismatch", exit_code=1)
    m.bash("ssh gpu01 cat /models/e3/config.json", '{"draft_vocab_size": 32000}', exit_code=0, text=TEXT)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    assert analysis.commands[1].why == "..." + TAIL
    (step,) = [s for s in distill_playbook(analysis)["steps"] if s["run"] == "cat {{ config_json }}"]
    assert step["why"].startswith("Let me look at the config on the host now."), step["why"]
    assert "SGLang expects" not in step["why"]

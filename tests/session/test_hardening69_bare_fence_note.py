"""A Markdown note's code block opened with no note before it (right after a heading, or after
the output of a block before). Its opening "```" was read as a note of the heading's message: a
text event "```" at the heading's seq (0 under the note's title), where the block only showed a
run, and a block of text (a config shown) was more of the heading's message rather than a note of
its own. An unclosed "```" at the end of the file was a "```" note too. Now a block is a note of
its own seq, and one whose lines were a run's leaves no note."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import text_log
from spec_debug.session.formats.common import Cursor

BENCH = "python bench_speculative.py --port 30000"


def _events(path: Path) -> list:
    return list(text_log.read(path, Cursor(session="notes", agent="main", file=str(path)), ReadStats()))


def test_a_block_that_only_shows_a_run_leaves_no_fence_note(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text(f"# Acceptance on gpu01\n\n```\n$ {BENCH}\naccept length: 1.02\n```\n\n## Next\n\n```\n")
    events = _events(path)
    assert [(e.seq, e.kind, e.text) for e in events if e.kind in ("text", "system")] == [
        (0, "system", "Acceptance on gpu01"), (2, "system", "Next")]
    [call] = [e for e in events if e.kind == "tool_call"]
    assert (call.seq, call.command) == (1, BENCH)


def test_a_block_of_text_after_a_heading_is_a_note_of_its_own(tmp_path: Path) -> None:
    config = '{"architectures": ["LlamaForCausalLMEagle3"], "draft_vocab_size": 32000}'
    path = tmp_path / "notes.md"
    path.write_text(f"# Draft config on gpu01\n\n```json\n{config}\n```\n\n```\n$ {BENCH}\naccept length: 1.02\n```\n")
    events = _events(path)
    heading, note = [e for e in events if e.kind in ("text", "system")]
    assert (heading.seq, heading.kind, note.seq, note.kind) == (0, "system", 1, "text")
    assert note.text.startswith("```json\n" + config + "\n```")
    keys = [(e.seq, e.block) for e in events]
    assert len(keys) == len(set(keys)), keys
    assert [(c.seq, c.command) for c in analyze_path(path).commands] == [(2, BENCH)]

"""A long typescript line of terminal cursor moves reads in memory bounded by the line.

`\\x1b[1000C` is 7 bytes that stand for 1,000 cursor moves; each was expanded into 1,000 marks
before the line was redrawn, so a 32 MB line of them (the reader's line limit) grew to gigabytes.
A long line's edits are now taken once each."""

from __future__ import annotations

import tracemalloc

from spec_debug.session.formats.text_log import _displayed


def test_a_long_line_of_cursor_moves_is_not_expanded():
    line = "\x1b[1000C" * 30_000 + "nvidia-smi"  # 210 KB
    tracemalloc.start()
    try:
        [(_, shown, _)] = list(_displayed(iter([(1, line, None)])))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert shown.endswith("nvidia-smi")
    assert peak < 10 * len(line), peak  # expanded, the marks alone were 30,000,000 characters


def test_a_short_edited_line_still_shows_as_the_terminal_did():
    # readline's redraw after a typo: the prompt, the text, then the cursor back and a fix
    [(_, shown, _)] = list(_displayed(iter([(1, "$ nvidia-smo\x1b[1D\x1b[Ki", None)])))
    assert shown == "$ nvidia-smi"

"""`spec-debug demo` (no --step): each error was said twice in the same words, on its step's
progress line ("demo-gpu01         SD101 Speculation capped at one drafted token per round") and
again in the closing list ("  SD101 Speculation capped ..."), and its fix nowhere on the
terminal. The closing list now gives each error's fix under it (the full account; the progress
line is the short reference), as `demo --step` gives it at the step, where the closing list
stays the short reference."""

from __future__ import annotations

import io
import sys
from pathlib import Path

from rich.console import Console

from spec_debug.demo import demo_command

SD101_FIX = ("    what to do: Serve with 3 steps: --speculative-num-steps 3 --speculative-eagle-topk 1 "
             "--speculative-num-draft-tokens 4")


def _said(tmp_path: Path, **kwargs) -> list[str]:
    out = io.StringIO()
    code = demo_command(False, tmp_path / "runs", Console(file=out, width=100, color_system=None), **kwargs)
    assert code == 1
    return out.getvalue().splitlines()


def test_the_closing_list_gives_the_fix_the_progress_lines_do_not(tmp_path: Path):
    lines = _said(tmp_path)
    closing = lines[lines.index("  SD101 Speculation capped at one drafted token per round"):]
    assert closing[1] == SD101_FIX, closing
    assert closing[2] == "  SD201 Served aux layers differ from the trained ones", closing
    assert closing[3].startswith("    what to do: Set eagle_config.eagle_aux_hidden_state_layer_ids = [-1, 1, 3] "), closing
    assert closing[5] == ("    what to do: Fix the root causes reported above (SD101, SD201), then re-measure "
                          "against the baseline; until then serve without speculation."), closing
    assert closing[6].startswith("FAILED: 3 error(s) · report: "), closing
    # each fix said once: the progress lines name the errors only
    assert sum("what to do:" in line for line in lines) == 3, lines


def test_demo_step_keeps_the_fix_at_the_step_and_the_short_list(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO("r\n" + "s\n" * 7))
    lines = _said(tmp_path, step=True)
    assert lines.count(SD101_FIX) == 1, lines
    end = lines.index("  SD101 Speculation capped at one drafted token per round")
    assert lines[end + 1].startswith("FAILED: 1 error(s) · "), lines

"""The TypeScript Codex CLI rewrites its rollout (``{"session": {...}, "items": [...]}``) whole
after each turn; a crash while it writes can cut the file inside its session header. That is one
broken record (the header and the items never written), but it was counted twice: the header that
did not decode, and the items array that was not there."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ROLLOUT = Path(__file__).parent / "data_h26_formats" / "rollout-2025-05-14-5f1a2b3c-7d4e-4a1b-9c2d-0e1f2a3b4c5d.json"


def test_a_rollout_cut_in_its_header_is_one_broken_record(tmp_path):
    text = ROLLOUT.read_text()
    cut = tmp_path / ROLLOUT.name
    cut.write_text(text[:text.index('"instructions"') + 20])
    (session,) = analyze_path(cut).to_json()["sessions"]
    assert session["format"] == "codex"
    assert session["broken_json"] == 1

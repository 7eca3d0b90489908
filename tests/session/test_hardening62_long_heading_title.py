"""analyze: a Markdown heading longer than 100 characters titles its phase cut after a word.

A notes file's "## ..." heading starts a phase titled by it; a heading over 100 characters was
cut at the 100th character, inside a word and with no mark of the cut ("... baseline on gpu01
after th — Checking the GPUs on gpu01"). It is now cut after a whole word, with "…", as a
prompt's title is.
"""

from __future__ import annotations

from spec_debug.session import analyze_path

LONG = ("Investigating why EAGLE-3 speculative decoding is slower than the no-spec baseline on gpu01 "
        "after the upgrade")
SHORT = "Checking the draft model's hidden-state layer configuration against SGLang's capture defaults"


def test_titles(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text(f"# {LONG}\n\nI ran the benchmark.\n\n```\n$ ssh gpu01 nvidia-smi\nNVIDIA-SMI 550.54\n```\n\n"
                    f"## {SHORT}\n\n```\n$ ssh gpu01 cat /models/e3/config.json\n"
                    '{"eagle_aux_hidden_state_layer_ids": [1, 29, 57]}\n```\n', encoding="utf-8")
    a = analyze_path(path)
    assert len(LONG) > 100 and len(SHORT) <= 100
    assert [s.title.split(" — ")[0] for s in a.segments] == [
        "Investigating why EAGLE-3 speculative decoding is slower than the no-spec baseline on gpu01 after…", SHORT]

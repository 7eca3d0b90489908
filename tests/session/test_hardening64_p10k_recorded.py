"""A real typescript of zsh 5.9 with powerlevel10k's lean style (data_hardening64/SOURCE.md): each
prompt's first row starts with the folder segment's icon (U+F115, a Nerd Font glyph: ``\\uf115
/tmp/textlogs-scratch``), not with the folder, so it was no prompt row: it stayed the last line
of the output before it, the status it shows (``✘ INT`` after a process killed by SIGINT) was
not read, nor the host its context segment shows (``root@vm``)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening64"


def test_a_recorded_lean_prompt_s_rows_status_and_host() -> None:
    a = analyze_path(DATA / "p10k_lean_zsh59.typescript")
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("zsh -i", None, None),
        ("echo hi", "vm", None),
        ("ls /models/eagle3 | head -1", "vm", None),  # "✔ 2|0": the pipeline's 0, no status to set
        ("sh -c 'kill -INT $$'", "vm", 130),  # "✘ INT"
        ("exit", "vm", None),
    ]
    [killed] = a.errors
    assert (killed.kind, killed.exception, killed.command_seq) == ("signal", "SIGINT", a.commands[3].seq)

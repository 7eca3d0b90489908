"""A real typescript of zsh 5.9 with powerlevel10k's one-row layout (data_hardening64/SOURCE.md):
zsh draws the right prompt as it prompts, a move right, the segments (``✘ 1 root@vm \\uf017
14:50:55``: the status of the command before, the context, the time), a move back, and the
command is typed after the left prompt. The right prompt was left out of the command (rightly),
and with it the status (``test -f`` that found no file: 1) and the host of the context segment;
it is now put at the row's end, as a screen capture shows it, where the status and the host are
read (a right prompt with neither stays left out)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.text_log import _shown

DATA = Path(__file__).parent / "data_hardening64"


def test_a_recorded_one_row_prompt_s_right_segments() -> None:
    a = analyze_path(DATA / "p10k_lean_one_row_zsh59.typescript")
    assert [(c.command, c.host, c.user, c.exit_code) for c in a.commands] == [
        ("zsh -i", None, None, None),
        ("test -f /models/eagle3/config.json", "vm", "root", 1),
        ("echo hi", "vm", "root", None),
        ("exit", "vm", "root", None),
    ]


def test_a_right_prompt_with_no_status_or_context_stays_left_out() -> None:
    # zsh 5.9's RPROMPT='[%?] %*' as a typescript holds it (tests/session/test_hardening51_formats_right_prompt.py)
    line = "me@gpu02 ~ % \x1b[K\x1b[64C[0] 17:37:30\x1b[76Dnvidia-smi -L"
    assert _shown(line) == "me@gpu02 ~ % nvidia-smi -L"

"""oh-my-zsh's default theme (robbyrussell) and powerlevel10k's lean style show that the command
before failed only by the colour of the prompt's arrow: a bold red ``➜`` (``\\x1b[01;31m``) or a
``❯`` in colour 196, against green after success (ohmyzsh/ohmyzsh ``themes/robbyrussell.zsh-theme``;
romkatv/powerlevel10k ``config/p10k-lean.zsh``: ``POWERLEVEL9K_STATUS_ERROR=false``). A typescript
keeps the colours, but the text read loses them: a launch that exited 3 read as a command that
went well. Real recordings (data_hardening65/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"
LAUNCH = ("python3 -c 'import sys; print(\"loading draft\"); sys.exit(3)' --model-path /models/llama-3.1-8b-instruct "
          "--speculative-draft-model-path /models/eagle3")


@pytest.mark.parametrize("name", ["omz_robbyrussell_failed_zsh59", "p10k_lean_failed_zsh59"])
def test_a_red_prompt_arrow_marks_the_command_before_as_failed(name: str) -> None:
    a = analyze_path(DATA / f"{name}.typescript")
    # the status itself is not shown: failed, with no exit code; green sets none (as "✔" sets none)
    assert [(c.command, c.host, c.exit_code, c.is_error) for c in a.commands] == [
        ("zsh -i", None, None, False),
        (LAUNCH, None if name.startswith("omz") else "vm", None, True),
        ("echo done", None if name.startswith("omz") else "vm", None, False),
        ("exit", None if name.startswith("omz") else "vm", None, False),
    ]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [("tool_error", "loading draft", a.commands[1].seq)]


def test_a_red_arrow_in_a_plain_text_log_is_no_colour(tmp_path: Path) -> None:
    # a copy of the terminal as text (no colours): nothing is inferred
    path = tmp_path / "pane.log"
    path.write_text("➜  rec python3 -c 'import sys; sys.exit(3)'\n➜  rec echo done\ndone\n", encoding="utf-8")
    assert [(c.command, c.is_error) for c in analyze_path(path).commands] == [
        ("python3 -c 'import sys; sys.exit(3)'", False), ("echo done", False)]

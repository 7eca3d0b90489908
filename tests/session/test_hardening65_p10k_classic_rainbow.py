"""powerlevel10k's classic and rainbow styles (romkatv/powerlevel10k ``config/p10k-classic.zsh``,
``config/p10k-rainbow.zsh`` at 604f19a9): segments on coloured backgrounds between powerline
separators, on two rows. As shipped, the rows are framed: the first ``╭─ \\uf115 /srv \\ue0b0 ...
\\ue0b2 ✘ INT \\ue0b3 root@vm ─╮``, the command typed after ``╰─`` on the second
(``POWERLEVEL9K_MULTILINE_FIRST_PROMPT_PREFIX='%242F╭─'``, ``..._LAST_PROMPT_PREFIX='%242F╰─'``).
Without the frame the wizard puts ``❯`` on the second row (``internal/wizard.zsh``: ``if ((
num_lines == 2 && ! left_frame )); then uncomment prompt_char``).

Before: a framed recording read no command at all (every prompt and command was output of
``zsh -i``); one without the frame read each first row as a command of its own
(``\\uf115 /srv \\ue0b0``, shown on ``vm``), and the commands after ``❯`` with no host.
The recordings are real (data_hardening65/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"
COMMANDS = [
    ("zsh -i", None, None),
    ("echo hi", "vm", None),
    ("ls /models/eagle3 | head -1", "vm", None),  # "2|0 ✔": the pipeline's 0, no status to set
    ("sh -c 'kill -INT $$'", "vm", 130),  # "INT ✘" on the next prompt
    ("exit", "vm", None),
]


@pytest.mark.parametrize("name", ["p10k_classic_zsh59", "p10k_rainbow_zsh59"])
def test_a_framed_two_row_prompt_s_commands_status_and_host(name: str) -> None:
    a = analyze_path(DATA / f"{name}.typescript")
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == COMMANDS
    killed = [e for e in a.errors if e.kind == "signal"]
    assert [(e.exception, e.command_seq) for e in killed] == [("SIGINT", a.commands[3].seq)]


def test_without_the_frame_the_first_row_is_no_command() -> None:
    a = analyze_path(DATA / "p10k_classic_no_frame_zsh59.typescript")
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == COMMANDS


def test_a_framed_prompt_in_a_screen_capture(tmp_path: Path) -> None:
    # the same rows as a terminal shows them (tmux capture-pane): the right frame "─╯" after the
    # command, at the right edge; a "╰─" with nothing typed ends the capture
    gap = " " * 40
    rows = [
        "╭─ \uf115 /srv/sglang \ue0b1 \uf126 main \ue0b0" + gap + "\ue0b2 \u2714 \ue0b3 root@gpu01 ─╮",
        "╰─ python3 -m sglang.launch_server --model-path /models/llama" + gap + "─╯",
        "Traceback (most recent call last):",
        "ValueError: draft model not found",
        "",
        "╭─ \uf115 /srv/sglang \ue0b1 \uf126 main \ue0b0" + gap + "\ue0b2 1 \u2718 \ue0b3 root@gpu01 ─╮",
        "╰─ ls /models" + gap + "─╯",
        "llama",
        "",
        "╭─ \uf115 /srv/sglang \ue0b1 \uf126 main \ue0b0" + gap + "\ue0b2 \u2714 \ue0b3 root@gpu01 ─╮",
        "╰─" + gap + "─╯",
    ]
    path = tmp_path / "pane.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("python3 -m sglang.launch_server --model-path /models/llama", "gpu01", 1),
        ("ls /models", "gpu01", None),
    ]


def test_a_rounded_box_in_output_is_no_prompt(tmp_path: Path) -> None:
    # rich's panels draw "╭─" / "╰─" corners too: a box with no command under it stays output,
    # an empty one too
    rows = [
        "root@gpu01:~# python3 report.py",
        "╭─ Summary ─────────────╮",
        "│ accept length 1.02    │",
        "╰─ done ────────────────╯",
        "╭─ Warnings ────────────╮",
        "╰─ none ────────────────╯",
        "root@gpu01:~# echo ok",
        "ok",
    ]
    path = tmp_path / "box.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert [c.command for c in analyze_path(path).commands] == ["python3 report.py", "echo ok"]


def test_an_empty_powerline_prompt_is_no_command(tmp_path: Path) -> None:
    # agnoster (oh-my-zsh themes/agnoster.zsh-theme): Enter on an empty prompt leaves the row of
    # segments with nothing after the last separator; it was read as a command "~/sglang \ue0b0"
    rows = [
        " root@gpu01 \ue0b0 ~/sglang \ue0b0 python3 bench.py",
        "Traceback (most recent call last):",
        "ValueError: boom",
        " root@gpu01 \ue0b0 ~/sglang \ue0b0",
        " root@gpu01 \ue0b0 ~/sglang \ue0b0 ls",
        "a.txt",
    ]
    path = tmp_path / "agnoster.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    assert [(c.command, c.host) for c in analyze_path(path).commands] == [
        ("python3 bench.py", "gpu01"), ("ls", "gpu01")]

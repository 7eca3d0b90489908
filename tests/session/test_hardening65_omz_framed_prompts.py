"""oh-my-zsh's framed two-row themes: bira (``╭─root@gpu01 ~/sglang ‹main›``, then ``╰─# cmd``;
``RPS1`` the status of the command before when it failed, ``3 ↵``: ohmyzsh/ohmyzsh
``themes/bira.zsh-theme`` at 830a5bcf), mira (``╰─$ cmd``), gnzh (``╰─➤ cmd``). Before, a
recording of such a shell read no command at all, as powerlevel10k's framed styles did
(test_hardening65_p10k_classic_rainbow). The recording is real (data_hardening65/SOURCE.md)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_hardening65"


def test_a_recorded_bira_prompt_s_commands_host_and_status() -> None:
    a = analyze_path(DATA / "omz_bira_zsh59.typescript")
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("zsh -i", None, None),
        ("echo hi", "vm", None),
        ("ls /models/eagle3 | head -1", "vm", None),
        ("sh -c 'exit 3'", "vm", 3),  # "3 ↵" on the next prompt
        ("exit", "vm", None),
    ]


def test_framed_theme_prompts_in_a_screen_capture(tmp_path: Path) -> None:
    gap = " " * 30
    rows = [
        "╭─root@gpu01 ~/sglang ‹main›",
        "╰─# python3 -m sglang.launch_server --model-path /models/llama",
        "ValueError: draft model not found",
        "╭─root@gpu01 ~/sglang ‹main›",
        "╰─# nvidia-smi -L" + gap + "1 ↵",  # bira: the launch failed
        "GPU 0: NVIDIA H100 80GB HBM3",
        "╭─me@gpu02 ~",  # gnzh's second row
        "╰─➤ echo 'a   b'",
        "a   b",
        "╭─me@gpu02 ~",  # mira's
        "╰─$ exit",
    ]
    path = tmp_path / "pane.log"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host, c.exit_code) for c in a.commands] == [
        ("python3 -m sglang.launch_server --model-path /models/llama", "gpu01", 1),
        ("nvidia-smi -L", "gpu01", None),
        ("echo 'a   b'", "gpu02", None),
        ("exit", "gpu02", None),
    ]

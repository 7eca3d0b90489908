"""A screen capture of zsh with powerlevel10k's one-row prompt: the folder, git and ``❯`` on the
left, the command after them, and at the right edge of the same row the right segments drawn
with the prompt, before the command ran: the status of the command before when it failed
(``✘ 1``; ``1 ✘`` in the styles whose icons go after the content), the context ``root@gpu01``
over ssh, the time (romkatv/powerlevel10k ``config/p10k-lean.zsh``, RIGHT_PROMPT_ELEMENTS
status ... context ... time; ``internal/p10k.zsh`` ``prompt_status``). The right part was cut off
the command (as any right prompt) and dropped: the status was not read, nor the host. Laid out
as tmux capture-pane -p prints a 100-column pane."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

WIDTH = 100


def _row(left: str, right: str) -> str:
    return left + " " * (WIDTH - 1 - len(left) - len(right)) + right


@pytest.mark.parametrize("failed", ["\u2718 1", "1 \u2718"], ids=["icon-before", "icon-after"])
def test_the_right_segments_give_the_status_before_and_the_host(tmp_path: Path, failed: str) -> None:
    path = tmp_path / "pane.log"
    path.write_text("\n".join([
        _row("~/sglang main \u276f test -f /models/eagle3/config.json", "root@gpu01 10:42:01"),
        _row("~/sglang main \u276f nvidia-smi -L", f"{failed} root@gpu01 10:42:05"),
        "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f3c2b1a-0d9e-4c7b-8a6f-1e2d3c4b5a69)",
        _row("~/sglang main \u276f echo ok", "root@gpu01 10:42:09"),
        "ok",
    ]) + "\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.host, c.user, c.exit_code, c.is_error) for c in a.commands] == [
        # it printed nothing, its status says no such file (a test's answer, no failure)
        ("test -f /models/eagle3/config.json", "gpu01", "root", 1, False),
        ("nvidia-smi -L", "gpu01", "root", None, False),
        ("echo ok", "gpu01", "root", None, False),
    ]


def test_a_right_prompt_with_neither_changes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "pane.log"
    path.write_text("\n".join([
        _row("~/sglang main \u276f ls /models", "took 3s 10:42:01"),
        "eagle3",
        _row("~/sglang main \u276f echo ok", "10:42:05"),
        "ok",
    ]) + "\n", encoding="utf-8")
    assert [(c.command, c.host, c.exit_code) for c in analyze_path(path).commands] == [
        ("ls /models", None, None), ("echo ok", None, None)]

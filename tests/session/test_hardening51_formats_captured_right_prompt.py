"""A screen capture of zsh with a right prompt (RPROMPT: a theme's clock and last status; tmux
capture-pane, or a copy of the terminal) shows it at the right edge of each prompt row, the gap
blank: ``root@gpu02 ~ # ls /models          [0] 18:07:49``. Such a row ends a column short of the
pane, so it was taken for a row cut at the pane's width: each command took the right prompt
and its first output line into its words (``ssh -V  ... [0] 18:07:49OpenSSH_9.2p1 ...``, host
``0``), and the failure after it was no failure. The rows are tmux 3.3a's capture-pane of zsh
5.9, 100 columns wide, with ``RPROMPT='[%?] %*'``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def _row(prompt: str, command: str, right: str, width: int = 100) -> str:
    shown = f"{prompt}{command}"
    return shown + " " * (width - 1 - len(shown) - len(right)) + right


def test_a_right_prompt_in_a_capture_is_no_part_of_the_command(tmp_path: Path) -> None:
    prompt = "root@gpu02 /root # "
    pane = "\n".join([
        _row(prompt, "echo hello", "[0] 18:07:48"), "hello",
        _row(prompt, "ssh -V", "[0] 18:07:49"), "OpenSSH_9.2p1 Debian-2+deb12u10, OpenSSL 3.0.19 27 Jan 2026",
        _row(prompt, "ls /models/eagle3", "[0] 18:07:49"),
        "ls: cannot access '/models/eagle3': No such file or directory",
        _row(prompt, 'echo "a          b"', "[2] 18:07:50"), "a          b",
        _row(prompt, "", "[0] 18:07:51"), ""])
    path = tmp_path / "pane.log"
    path.write_text(pane)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["is_error"]) for c in doc["commands"]] == [
        ("echo hello", "gpu02", False), ("ssh -V", "gpu02", False), ("ls /models/eagle3", "gpu02", True),
        ('echo "a          b"', "gpu02", False)]  # a gap inside quotes is the command's own
    assert [e["command_seq"] for e in doc["errors"]] == [doc["commands"][2]["seq"]]

"""zsh's line editor sends ``\\x1b=`` (keypad in application mode, terminfo smkx) as it starts
reading a line and ``\\x1b>`` (rmkx) when it runs it, so a ``script(1)`` typescript of any zsh
session holds them around each typed command; ``tput sgr0`` in a prompt ends with ``\\x1b(B``.
Only CSI/OSC and ESC + a capital were taken out, so every command of a zsh typescript read
``\\x1b=nvidia-smi -L\\x1b>``: no program, no host from it, and ``ls`` of a missing path no
failure. The bytes below are a zsh 5.9 session recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ZSH_PROMPT = (b"\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m" + b" " * 79 + b"\r \r\r\x1b[0m\x1b[27m\x1b[24m\x1b[J"
              b"root@gpu02 /root/sglang # \x1b[K\x1b[?1h\x1b=\x1b[?2004h")
TYPESCRIPT = (
    b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="zsh -i" <not executed on terminal>]\n'
    + ZSH_PROMPT + b"n\x08nvidia-smo\x08 \x08\x08 \x08mi -L\x1b[?1l\x1b>\x1b[?2004l\r\r\n"
    b"zsh: command not found: nvidia-smi\r\n"
    + ZSH_PROMPT + b"l\x08ls /models/eagle3\x1b[?1l\x1b>\x1b[?2004l\r\r\n"
    b"ls: cannot access '/models/eagle3': No such file or directory\r\n"
    + ZSH_PROMPT + b"e\x08exit\x1b[?1l\x1b>\x1b[?2004l\r\r\n\n"
    b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="2"]\n')


def test_the_commands_of_a_zsh_typescript_are_what_was_typed(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    typed = [(c["command"], c["host"], c["is_error"]) for c in doc["commands"] if c["command"] != "zsh -i"]
    assert typed == [("nvidia-smi -L", "gpu02", True), ("ls /models/eagle3", "gpu02", True), ("exit", "gpu02", False)]
    assert [e["message"] for e in doc["errors"]] == [
        "zsh: command not found: nvidia-smi", "ls: cannot access '/models/eagle3': No such file or directory"]


def test_a_prompt_coloured_with_tput_and_a_reset_leave_nothing_behind(tmp_path: Path) -> None:
    # PS1="\[$(tput bold)\]\u@\h:\w\\$ \[$(tput sgr0)\]": tput sgr0 is "\x1b(B\x1b[m" (xterm's terminfo)
    path = tmp_path / "gpu01.log"
    path.write_bytes(b"\x1b[1mroot@gpu01:~# \x1b(B\x1b[mnvidia-smi -L\r\nGPU 0: NVIDIA H100 80GB HBM3\r\n"
                     b"\x1b[1mroot@gpu01:~# \x1b(B\x1b[mreset\r\n\x1bc\x1b7\x1b8"
                     b"\x1b[1mroot@gpu01:~# \x1b(B\x1b[mls\r\nx\r\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"]) for c in doc["commands"]] == [
        ("nvidia-smi -L", "gpu01"), ("reset", "gpu01"), ("ls", "gpu01")]

"""bash before 5.1 (Ubuntu 20.04's 5.0, RHEL 8's 4.4) writes no bracketed-paste mark before its
prompt, but Debian's and Ubuntu's default ``.bashrc`` sets the window title first
(``\\[\\e]0;\\u@\\h: \\w\\a\\]`` in PS1 for an xterm). After output with no final newline (a
``curl -s`` health check's JSON) that prompt follows on the same line of a typescript: the next
command was lost and its output was the health check's. The bytes are bash with bracketed paste
off, in a util-linux script 2.38.1 typescript."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

PROMPT = b"\x1b]0;root@gpu04: ~\x07\x1b[01;32mroot@gpu04\x1b[00m:\x1b[01;34m~\x1b[00m# "
TYPESCRIPT = (
    b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="bash -i" <not executed on terminal>]\n'
    + PROMPT + b"curl -s localhost:30000/health\r\n"
    + b'{"status":"ok"}' + PROMPT + b"nvidia-smi -L\r\n"
    + b"bash: nvidia-smi: command not found\r\n"
    + PROMPT + b"exit\r\nexit\r\n"
    + b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="127"]\n')


def test_a_prompt_after_output_with_no_newline_starts_the_next_command(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    commands = [c for c in doc["commands"] if c["command"] != "bash -i"]
    assert [(c["command"], c["host"], c["is_error"]) for c in commands] == [
        ("curl -s localhost:30000/health", "gpu04", False), ("nvidia-smi -L", "gpu04", True), ("exit", "gpu04", False)]
    assert [e["command_seq"] for e in doc["errors"]] == [commands[1]["seq"]]


def test_a_title_mid_line_with_no_prompt_after_it_is_output(tmp_path: Path) -> None:
    # a program setting the title (tmux, vim) mid-output starts no command
    path = tmp_path / "typescript"
    path.write_bytes(b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="bash -i" <not executed on terminal>]\n'
                     + PROMPT + b"python3 bench.py\r\nthroughput: 812.4 tok/s\x1b]0;bench done\x07 accept length 3.1\r\n")
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]] == ["bash -i", "python3 bench.py"]

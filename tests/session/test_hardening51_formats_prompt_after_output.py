"""Output that ends with no newline (``curl -s localhost:30000/health`` prints its JSON so) is
followed on the same line by the next prompt. bash 5.1 and later write ``\\x1b[?2004h`` (bracketed
paste on) before each prompt; no prompt was looked for mid-line, so in a typescript the next
command was lost, its output (a "command not found") was the health check's, and a failed
curl's message read ``... port 30000root@gpu01:~# exit``. The bytes are bash 5.2 in a util-linux
script 2.38.1 typescript."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TYPESCRIPT = (
    b'Script started on 2025-10-01 10:00:00+00:00 [COMMAND="bash -i" <not executed on terminal>]\n'
    b"\x1b[?2004hroot@gpu01:~# curl -s localhost:30000/health\r\n"
    b'\x1b[?2004l\r{"status":"ok"}\x1b[?2004hroot@gpu01:~# nvidia-smi -L\r\n'
    b"\x1b[?2004l\rbash: nvidia-smi: command not found\r\n"
    b"\x1b[?2004hroot@gpu01:~# curl -sS localhost:30001/health\r\n"
    b"\x1b[?2004l\rcurl: (7) Failed to connect to localhost port 30001 after 0 ms: Couldn't connect to server"
    b"\x1b[?2004hroot@gpu01:~# exit\r\n"
    b"\x1b[?2004l\rexit\r\n"
    b'Script done on 2025-10-01 10:00:09+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_a_prompt_after_output_with_no_newline_starts_the_next_command(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    commands = [c for c in doc["commands"] if c["command"] != "bash -i"]
    assert [(c["command"], c["is_error"]) for c in commands] == [
        ("curl -s localhost:30000/health", False), ("nvidia-smi -L", True),
        ("curl -sS localhost:30001/health", True), ("exit", False)]
    assert [(e["message"], e["command_seq"]) for e in doc["errors"]] == [
        ("bash: nvidia-smi: command not found", commands[1]["seq"]),
        ("curl: (7) Failed to connect to localhost port 30001 after 0 ms: Couldn't connect to server",
         commands[2]["seq"])]

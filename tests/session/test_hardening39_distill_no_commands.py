"""`spec-debug distill` on a file that holds no command (an empty file, random bytes, a chat with
no tool call) says so in one line with what was read, instead of "no command in the session led to
a finding or a change of approach", which sent the reader to look for findings."""

from __future__ import annotations

import json
import subprocess
import sys


def _distill(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "spec_debug", "distill", str(path), "-o", "-"],
                          capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)


def test_an_empty_or_binary_file_is_said_to_hold_no_command(tmp_path):
    empty = tmp_path / "empty.jsonl"
    empty.write_bytes(b"")
    noise = tmp_path / "noise.jsonl"
    noise.write_bytes(bytes(range(256)) * 4)  # random bytes, a few of them newlines
    for path, read in ((empty, "(0 events read)"), (noise, " binary)")):
        out = _distill(path)
        assert out.returncode == 2 and out.stdout == "", out
        first = out.stderr.splitlines()[0]
        assert first.startswith("error: nothing to distill: the session holds no command (") and read in first, first
        assert "Traceback" not in out.stderr


def test_a_chat_without_tool_calls_is_said_to_hold_no_command(tmp_path):
    chat = tmp_path / "chat.json"
    chat.write_text(json.dumps([{"role": "user", "content": "Why is EAGLE-3 slow on gpu01?"},
                                {"role": "assistant", "content": "Check the accept length in the server log."}]),
                    encoding="utf-8")
    out = _distill(chat)
    assert out.returncode == 2
    assert out.stderr.startswith("error: nothing to distill: the session holds no command (2 events read)"), out.stderr

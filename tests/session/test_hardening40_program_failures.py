"""A program that says, under its own name, that it failed, where no exit status is recorded.

Before: in an OpenAI chat (a "tool" message has no exit status) or a terminal log, `cat /tmp/x`
answered "cat: /tmp/x: No such file or directory", `git pull` "fatal: not a git repository" and
`pip install` "ERROR: Could not find a version ...": each a command that succeeded, no error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _chat(tmp_path: Path, command: str, output: str) -> Path:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([
        {"role": "user", "content": "why does the eval not start?"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "call_1", "type": "function", "function": {
            "name": "bash", "arguments": json.dumps({"command": command})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": output},
    ]), encoding="utf-8")
    return path


FAILED = [
    ("cat /root/work/eval.yaml", "cat: /root/work/eval.yaml: No such file or directory"),
    ("ls /models/eagle3", "ls: cannot access '/models/eagle3': No such file or directory"),
    ("cd /root/work && mkdir ckpt", "mkdir: cannot create directory 'ckpt': File exists"),
    ("git -C /root/sglang pull", "fatal: not a git repository (or any of the parent directories): .git"),
    ("pip install sglang==9.9", "Collecting sglang==9.9\nERROR: Could not find a version that satisfies the "
                                "requirement sglang==9.9\nERROR: No matching distribution found for sglang==9.9"),
    ("make -C csrc", "make: *** No rule to make target 'all'.  Stop."),
]


@pytest.mark.parametrize("command,output", FAILED)
def test_the_programs_own_failure_line_fails_the_command(tmp_path: Path, command: str, output: str) -> None:
    a = analyze_path(_chat(tmp_path, command, output))
    (c,) = a.commands
    assert (c.is_error, c.exit_code) == (True, None)
    (e,) = a.errors
    assert e.command_seq == c.seq and e.message in output.splitlines()


CLEAN = [
    # another program's words in what the command printed
    ("cat /root/work/server.log", "ERROR: pip install failed earlier\nmkdir: cannot create directory 'x': File exists"),
    ("tail -f server.log", "tail: server.log: file truncated\nready"),
    ("pip install sglang", "Collecting sglang\nSuccessfully installed sglang-0.5.6\n"
                           "ERROR: pip's dependency resolver does not currently take into account all the packages "
                           "that are installed. This behaviour is the source of the following dependency conflicts."),
    ("ls /models", "cannot_access.txt\nls: notes.md"),
]


@pytest.mark.parametrize("command,output", CLEAN)
def test_words_that_are_not_the_programs_failure(tmp_path: Path, command: str, output: str) -> None:
    a = analyze_path(_chat(tmp_path, command, output))
    assert [c.is_error for c in a.commands] == [False]
    assert a.errors == []


def test_a_terminal_log_reads_it_too(tmp_path: Path) -> None:
    log = tmp_path / "session.log"
    log.write_text("ubuntu@gpu01:~/sglang$ cat eval.yaml\n"
                   "cat: eval.yaml: No such file or directory\n"
                   "ubuntu@gpu01:~/sglang$ git pull\n"
                   "Already up to date.\n", encoding="utf-8")
    a = analyze_path(log)
    assert [(c.command, c.is_error) for c in a.commands] == [("cat eval.yaml", True), ("git pull", False)]
    (e,) = a.errors
    assert (e.message, e.host) == ("cat: eval.yaml: No such file or directory", "gpu01")

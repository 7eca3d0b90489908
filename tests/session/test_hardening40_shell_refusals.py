"""A shell that could not run the command, where the transcript records no exit status.

Before: an OpenAI chat "tool" message (no exit status field) or a terminal log holding only
``bash: ./run.sh: No such file or directory`` or ``bash: nvcc: command not found`` was a command
that succeeded (no error, ``is_error`` false), while Python's own "can't open file" was an error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _chat(tmp_path: Path, results: list[tuple[str, str]]) -> Path:
    messages: list[dict] = [{"role": "user", "content": "run the acceptance eval on the H100"}]
    for n, (command, output) in enumerate(results):
        messages.append({"role": "assistant", "content": None, "tool_calls": [{
            "id": f"call_{n}", "type": "function",
            "function": {"name": "bash", "arguments": json.dumps({"command": command})}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{n}", "content": output})
    path = tmp_path / "chat.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    return path


REFUSED = [
    ("./run_eval.sh --n 100", "bash: ./run_eval.sh: No such file or directory"),
    ("nvcc --version", "bash: nvcc: command not found"),
    ("./bench.sh", "bash: ./bench.sh: Permission denied"),
    ("./serve.sh", "bash: ./serve.sh: /bin/bash^M: bad interpreter: No such file or directory"),
    ("cd /data/eagle3 && ls", "bash: cd: /data/eagle3: No such file or directory"),
    ("sh -c 'sglang-bench'", "sh: 1: sglang-bench: not found"),
    ("nvcc --version", "zsh: command not found: nvcc"),
    ("nvcc --version", "Command 'nvcc' not found, but can be installed with:\n\nsudo apt install nvidia-cuda-toolkit"),
    ("pip list | grep sglang; sglang-bench", "sglang 0.5.6\nbash: sglang-bench: command not found"),
]


@pytest.mark.parametrize("command,output", REFUSED)
def test_an_openai_chat_command_the_shell_refused_is_a_failure(tmp_path: Path, command: str, output: str) -> None:
    a = analyze_path(_chat(tmp_path, [(command, output)]))
    (c,) = a.commands
    assert (c.command, c.is_error, c.exit_code) == (command, True, None)
    (e,) = a.errors
    assert e.command_seq == c.seq
    assert e.message in output.splitlines()


CLEAN = [
    ("ls logs", "error.log\nrun_eval.sh\nserver.log"),
    ("cat notes.md", "setup\nbash: nvcc: command not found\nfixed by installing the toolkit"),
    ("grep -c found build.log", "3"),
]


@pytest.mark.parametrize("command,output", CLEAN)
def test_an_output_that_only_mentions_such_words_is_no_failure(tmp_path: Path, command: str, output: str) -> None:
    a = analyze_path(_chat(tmp_path, [(command, output)]))
    (c,) = a.commands
    assert c.is_error is False
    assert a.errors == []


def test_a_terminal_log_reads_the_shells_refusal_as_the_failure(tmp_path: Path) -> None:
    log = tmp_path / "session.log"
    log.write_text("ubuntu@gpu01:~/sglang$ ./run_eval.sh --n 100\r\n"
                   "bash: ./run_eval.sh: No such file or directory\r\n"
                   "ubuntu@gpu01:~/sglang$ ls\r\n"
                   "error.log  scripts  server.log\r\n"
                   "ubuntu@gpu01:~/sglang$ bash scripts/run_eval.sh --n 100\r\n"
                   "accept length 3.1\r\n", encoding="utf-8")
    a = analyze_path(log)
    assert [(c.command, c.host, c.is_error) for c in a.commands] == [
        ("./run_eval.sh --n 100", "gpu01", True),
        ("ls", "gpu01", False),
        ("bash scripts/run_eval.sh --n 100", "gpu01", False),
    ]
    (e,) = a.errors
    assert (e.message, e.command_seq) == ("bash: ./run_eval.sh: No such file or directory", a.commands[0].seq)

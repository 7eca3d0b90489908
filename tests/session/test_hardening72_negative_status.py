"""A negative exit status is Python's subprocess saying a signal killed the command.

``subprocess.run(["python3", "killed.py"]).returncode`` was -9 for a loader that died of SIGKILL
(a real run, CPython 3.11.7, recorded in hardening 72, failures5): "A negative value -N
indicates that the child was terminated by signal N (POSIX only)" (CPython
Doc/library/subprocess.rst, Popen.returncode). Agent loops of one's own built on subprocess hand
that status to the model ("[exit code: -9]", {"output": ..., "returncode": -9}). It was an
``exit_code`` failure named by the output's first line, how the load began; a status of 137
(128 + 9, the shell's form of the same death) was already a SIGKILL named by the last line.
"""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

LOADED = ("Loading safetensors checkpoint shards: 1/8\nLoading safetensors checkpoint shards: 2/8\n"
          "Loading safetensors checkpoint shards: 3/8\n")


def test_minus_nine_is_sigkill():
    # before: ("exit_code", None, "Loading safetensors checkpoint shards: 1/8")
    errors = extract_errors(LOADED, -9, True)
    assert [(e.kind, e.exception, e.message) for e in errors] == [
        ("signal", "SIGKILL", "Loading safetensors checkpoint shards: 3/8")]


def test_minus_eleven_is_sigsegv_and_minus_fifteen_sigterm():
    assert [e.exception for e in extract_errors(LOADED, -11, True)] == ["SIGSEGV"]
    assert [e.exception for e in extract_errors(LOADED, -15, True)] == ["SIGTERM"]


def test_a_signal_with_no_name_here_stays_an_exit_status():
    errors = extract_errors(LOADED, -1, True)
    assert [(e.kind, e.message) for e in errors] == [("exit_code", "Loading safetensors checkpoint shards: 1/8")]


def test_the_session_error(tmp_path: Path):
    messages = [
        {"role": "user", "content": "Load the EAGLE3 target on this box."},
        {"role": "assistant", "content": "Loading it.",
         "tool_calls": [{"id": "a", "type": "function",
                         "function": {"name": "bash", "arguments": json.dumps({"command": "python3 killed.py"})}}]},
        {"role": "tool", "tool_call_id": "a", "content": json.dumps({"output": LOADED, "returncode": -9})},
    ]
    path = tmp_path / "load.json"
    path.write_text(json.dumps({"messages": messages}), encoding="utf-8")
    analysis = analyze_path(path)
    assert [(e.kind, e.exception, e.message) for e in analysis.errors] == [
        ("signal", "SIGKILL", "Loading safetensors checkpoint shards: 3/8")]
    assert [c.exit_code for c in analysis.commands] == [-9]


def test_a_bare_negative_status_is_said_as_it_was():
    assert [(e.kind, e.exception, e.message) for e in extract_errors("", -9, True)] == [
        ("signal", "SIGKILL", "exit code -9")]

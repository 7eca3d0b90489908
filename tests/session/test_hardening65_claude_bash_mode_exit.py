"""A command the person ran with ``!`` (bash mode): newer Claude Code CLIs write its exit status
after the output, ``<bash-stdout>…</bash-stdout><bash-stderr>…</bash-stderr><bash-exit-code>N
</bash-exit-code>`` (the CLI's bundle as a protocol spec quotes it, and the replays several
independent stream-json bridges test against). Where it is written, it is how the command ended;
without it the output decides as before."""

from __future__ import annotations

import json

from spec_debug.session.analysis import analyze_path

SID = "b2020800-0000-4000-8000-0000000000a3"


def _user(n: int, text: str) -> dict:
    return {"type": "user", "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None, "sessionId": SID,
            "timestamp": f"2026-09-09T19:00:{n:02d}.000Z", "isSidechain": False, "cwd": "/home/user/w",
            "userType": "external", "version": "2.1.240", "origin": {"kind": "human"},
            "message": {"role": "user", "content": text}}


def _analyze(tmp_path, lines: list[dict]) -> dict:
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return analyze_path(path).to_json()


def test_a_bang_command_that_exited_non_zero_with_output_failed(tmp_path):
    doc = _analyze(tmp_path, [
        _user(0, "why is the EAGLE-3 bench on gpu01 slow?"),
        _user(1, "<bash-input>ssh gpu01 'python bench.py'</bash-input>"),
        _user(2, "<bash-stdout>starting bench\n</bash-stdout><bash-stderr>ssh: connect to host gpu01 port 22: "
                 "Connection refused</bash-stderr><bash-exit-code>255</bash-exit-code>"),
    ])
    assert [(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (1, "gpu01", 255, True, 2)]
    assert [(e["seq"], e["host"]) for e in doc["errors"]] == [(2, "gpu01")]


def test_a_bang_command_that_exited_0_with_only_a_warning_on_stderr_did_not_fail(tmp_path):
    doc = _analyze(tmp_path, [
        _user(0, "is gpu02 up?"),
        _user(1, "<bash-input>ssh gpu02 nvidia-smi -L</bash-input>"),
        _user(2, "<bash-stdout></bash-stdout><bash-stderr>Warning: Permanently added 'gpu02' (ED25519) to the list "
                 "of known hosts.</bash-stderr><bash-exit-code>0</bash-exit-code>"),
    ])
    assert [(c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [("gpu02", 0, False)]
    assert doc["errors"] == []


def test_without_the_exit_code_the_output_still_decides(tmp_path):
    doc = _analyze(tmp_path, [
        _user(0, "is gpu02 up?"),
        _user(1, "<bash-input>ssh gpu02 nvidia-smi -L</bash-input>"),
        _user(2, "<bash-stdout></bash-stdout><bash-stderr>ssh: Could not resolve hostname gpu02</bash-stderr>"),
    ])
    assert [(c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [("gpu02", None, True)]

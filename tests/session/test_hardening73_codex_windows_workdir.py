"""The native Windows Codex CLI writes its turn's folder as a Windows path (``turn_context`` ``cwd``
``C:\\Users\\dev\\sglang``), and the model names a command's ``workdir`` the same way. Codex runs a
``workdir`` with a drive (or a UNC share) where it says and joins a relative one to the turn's folder
(openai/codex ``codex-rs/core`` ``TurnContext::resolve_path``: ``Path::is_absolute``, ``cwd.join``).
Read as POSIX paths, every absolute ``workdir`` was joined to the folder: a command's ``cwd`` read
``C:\\Users\\dev\\sglang/C:\\Users\\dev\\sglang\\python``, a folder that does not exist, and a
relative one ``C:\\Users\\dev\\sglang/benchmark``. Now it is the folder Codex ran the command in."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

T = "019b0000-0000-7000-8000-000000000173"
CWD = "C:\\Users\\dev\\sglang"


def _rl(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-08-18T05:00:{n:02d}.000Z", "type": kind, "payload": payload}


def _call(n: int, call_id: str, command: str, workdir: str | None) -> dict:
    args = {"command": command, "timeout_ms": 120000}
    if workdir is not None:
        args["workdir"] = workdir
    return _rl(n, "response_item", {"type": "function_call", "name": "shell_command", "call_id": call_id,
                                    "arguments": json.dumps(args)})


def _output(n: int, call_id: str, code: int, text: str) -> dict:
    return _rl(n, "response_item", {"type": "function_call_output", "call_id": call_id,
                                    "output": f"Exit code: {code}\nWall time: 1.2 seconds\nOutput:\n{text}"})


def test_windows_workdirs_are_the_folders_codex_ran_in(tmp_path: Path) -> None:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": CWD, "originator": "codex_cli_rs", "cli_version": "0.128.0",
                                "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": CWD}),
        _rl(2, "response_item", {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "why does the EAGLE-3 test fail?"}]}),
        _call(3, "c1", "python -m pytest test/srt/test_eagle_infer.py -x", CWD + "\\python"),
        _output(4, "c1", 1, "FAILED test/srt/test_eagle_infer.py::TestEAGLEEngine::test_correctness"),
        _call(5, "c2", "python bench_speculative.py", "benchmark"),
        _output(6, "c2", 0, "accept length: 3.1"),
        _call(7, "c3", "dir", "\\\\wsl$\\Ubuntu\\home\\dev"),
        _output(8, "c3", 0, ""),
        _call(9, "c4", "git status", None),
        _output(10, "c4", 0, "On branch main"),
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    # was C:\Users\dev\sglang/C:\Users\dev\sglang\python, C:\Users\dev\sglang/benchmark, C:\Users\dev\sglang/\\wsl$...
    assert [(c["command"], c["cwd"], c["exit_code"]) for c in doc["commands"]] == [
        ("python -m pytest test/srt/test_eagle_infer.py -x", "C:\\Users\\dev\\sglang\\python", 1),
        ("python bench_speculative.py", "C:\\Users\\dev\\sglang\\benchmark", 0),
        ("dir", "\\\\wsl$\\Ubuntu\\home\\dev", 0),
        ("git status", CWD, 0),
    ]


def test_posix_workdirs_are_unchanged(tmp_path: Path) -> None:
    lines = [
        _rl(0, "session_meta", {"id": T, "cwd": "/srv/sglang", "originator": "codex_cli_rs",
                                "cli_version": "0.128.0", "source": "cli"}),
        _rl(1, "turn_context", {"turn_id": "t1", "model": "gpt-5.2-codex", "cwd": "/srv/sglang"}),
        _call(2, "c1", "ls", "python/../benchmark"),
        _output(3, "c1", 0, ""),
        _call(4, "c2", "ls", "/opt/models"),
        _output(5, "c2", 0, ""),
    ]
    path = tmp_path / f"rollout-2026-08-18T05-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    doc = analyze_path(path).to_json()
    assert [c["cwd"] for c in doc["commands"]] == ["/srv/sglang/benchmark", "/opt/models"]

"""A Pi coding-agent session names its folder once, in its header (``{"type": "session",
"version": 3, "cwd": "/home/user/Codebase/ass-bench"}``, as in a real session of pi 1.0.2,
Syakyr/ass-bench ``session.jsonl``, commit c9fd02cab5a01277306a0a0bc354cbf78e45f33c), and each
bash call is a new shell spawned in that folder, whatever an earlier call's ``cd`` did (pi-mono
``packages/coding-agent/src/core/tools/bash.ts``: ``spawn(shell, [...args, command], {cwd})``).
Before: the commands had no folder (cwd None), so distill ran ``python3 checks/accept_len.py``
from wherever the playbook runs, where there is no checks/. Now they carry the header's folder, as
Claude Code's and Codex's do. The lines are written in that file's shape (names and outputs mine)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

FOLDER = "/home/user/eagle3-bench"


def _pi_session(tmp_path: Path, calls: list[tuple[str, str, bool]]) -> Path:
    lines: list[dict] = [
        {"type": "session", "version": 3, "id": "01a119e9-504e-72e5-b4ad-39af023cb3d6",
         "timestamp": "2026-10-08T05:08:03.279Z", "cwd": FOLDER},
        {"type": "model_change", "id": "4c0a04c5", "parentId": None, "timestamp": "2026-10-08T05:08:03.478Z",
         "provider": "local", "modelId": "qwen"},
        {"type": "message", "id": "u1", "parentId": "4c0a04c5", "timestamp": "2026-10-08T05:08:07.440Z",
         "message": {"role": "user", "content": [{"type": "text", "text": "EAGLE-3 on gpu01 accepts almost nothing."}],
                     "timestamp": 1791436087438}},
    ]
    for n, (command, output, failed) in enumerate(calls):
        lines.append({"type": "message", "id": f"a{n}", "parentId": "u1", "timestamp": f"2026-10-08T05:09:{n:02d}.000Z",
                      "message": {"role": "assistant", "api": "openai-completions", "stopReason": "toolUse",
                                  "content": [{"type": "toolCall", "id": f"call_{n}", "name": "bash",
                                               "arguments": {"command": command}}]}})
        lines.append({"type": "message", "id": f"r{n}", "parentId": f"a{n}", "timestamp": f"2026-10-08T05:09:{n:02d}.500Z",
                      "message": {"role": "toolResult", "toolCallId": f"call_{n}", "toolName": "bash",
                                  "content": [{"type": "text", "text": output}], "isError": failed,
                                  "timestamp": 1791436140000 + n}})
    path = tmp_path / "2026-10-08T05-08-03-279Z_01a119e9-504e-72e5-b4ad-39af023cb3d6.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_commands_run_in_the_sessions_folder(tmp_path: Path) -> None:
    session = _pi_session(tmp_path, [
        ("cd /tmp && ls", "x.log\n", False),
        ("python3 checks/accept_len.py", "Traceback (most recent call last):\n  File \"checks/accept_len.py\", "
                                         "line 3, in <module>\nRuntimeError: accept len 1.02 < 2.5\n\n"
                                         "Command exited with code 1", True),
        ("ssh gpu01 nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3\n", False),
    ])
    analysis = analyze_path(session)
    # the `cd /tmp` was that call's own shell's; the next call starts in the session's folder again;
    # the ssh ran in the remote home, not here
    assert [(c.command, c.cwd) for c in analysis.commands] == [
        ("cd /tmp && ls", FOLDER), ("python3 checks/accept_len.py", FOLDER), ("ssh gpu01 nvidia-smi -L", None)]


def test_distill_runs_the_check_from_the_sessions_folder(tmp_path: Path) -> None:
    session = _pi_session(tmp_path, [
        ("python3 checks/accept_len.py", "Traceback (most recent call last):\n  File \"checks/accept_len.py\", "
                                         "line 3, in <module>\nRuntimeError: accept len 1.02 < 2.5\n\n"
                                         "Command exited with code 3", True),
        ("tail -n 20 logs/sglang.log", "Decode batch. accept len: 1.02\n", False),
    ])
    doc = distill_playbook(analyze_path(session))
    assert [s["run"] for s in doc["steps"]] == ["cd {{ workdir }} && python3 checks/accept_len.py",
                                                "cd {{ workdir }} && tail -n 20 logs/sglang.log"]
    assert doc["vars"]["workdir"] == FOLDER

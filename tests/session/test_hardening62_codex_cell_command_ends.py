"""Codex code mode (codex-cli 0.153.4): the model's tool is ``exec``, a JavaScript cell whose
``await tools.exec_command({cmd: "ssh gpu01 nvidia-smi -L", ...})`` runs the command, and which
prints only ``text(r.output)``. The cell's output says "Script completed" and what the command
printed, no status. The command's status is in the ``item_completed`` event Codex writes between
the cell's call and its output: ``{"type": "CommandExecution", "id": "exec-<uuid>", "command":
["/bin/zsh", "-lc", "..."], "cwd": "file:///...", "status": "completed", "exit_code": 0, ...}``,
as in a real rollout, hariharasudhan-quest/ai-analyzer-codex-code ``codex_session.jsonl`` (commit
87f654fcd64899e77d997bc250d6744a793d060e). That end names the command's own item id, not the
cell's call, and was dropped whole (so that no call is counted twice). Before: an ssh that exited
255 with "Connection refused" read as a clean command, no error. Now the cell's result takes the
first non-zero exit of its commands' ends. The lines are written in that file's shape (the
commands and outputs mine)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

THREAD = "01a0853e-a76d-79a0-9386-9cf66d19e2e1"
TURN = "01a0853f-16de-73a0-91a6-7b3536f9d65e"
REFUSED = "ssh: connect to host gpu01 port 22: Connection refused\n"


def _line(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-09-09T08:18:{n:02d}.000Z", "ordinal": n, "type": kind, "payload": payload}


def _cell(call_id: str, command: str) -> dict:
    source = ("const r = await tools.exec_command({cmd:" + json.dumps(command)
              + ",\"workdir\":\"/Users/me/proj\",\"yield_time_ms\":10000});\ntext(r.output);\n")
    return {"type": "custom_tool_call", "id": f"ctc_{call_id}", "status": "completed", "call_id": call_id,
            "name": "exec", "input": source}


def _item_end(command: str, code: int, output: str) -> dict:
    return {"type": "item_completed", "thread_id": THREAD, "turn_id": TURN,
            "item": {"type": "CommandExecution", "id": f"exec-{len(command):08d}-9ed6-4619-afa2-5ad480f79b26", "process_id": "60679",
                     "command": ["/bin/zsh", "-lc", command], "cwd": "file:///Users/me/proj",
                     "source": "unified_exec_startup", "status": "completed" if code == 0 else "failed",
                     "stdout": output, "stderr": "", "aggregated_output": output, "exit_code": code,
                     "duration": {"secs": 0, "nanos": 93659625}},
            "started_at_ms": 1788941936280, "completed_at_ms": 1788941936374}


def _exec_end(command: str, code: int, output: str) -> dict:
    return {"type": "exec_command_end", "call_id": f"exec-{len(command):08d}-9ed6-4619-afa2-5ad480f79b26", "turn_id": TURN,
            "command": ["/bin/zsh", "-lc", command], "cwd": "/Users/me/proj", "source": "unified_exec_startup",
            "aggregated_output": output, "exit_code": code, "status": "completed" if code == 0 else "failed"}


def _cell_output(call_id: str, printed: str) -> dict:
    return {"type": "custom_tool_call_output", "id": f"ctco_{call_id}", "call_id": call_id,
            "output": [{"type": "input_text", "text": "Script completed\nWall time 0.4 seconds\nOutput:\n"},
                       {"type": "input_text", "text": printed}]}


def _rollout(tmp_path: Path, end) -> Path:
    lines = [
        _line(0, "session_meta", {"session_id": THREAD, "id": THREAD, "timestamp": "2026-09-09T08:17:51.043Z",
                                  "cwd": "/Users/me/proj", "originator": "codex-tui", "cli_version": "0.153.4",
                                  "source": "cli", "model_provider": "openai"}),
        _line(1, "turn_context", {"turn_id": TURN, "cwd": "/Users/me/proj", "model": "gpt-5.5"}),
        _line(2, "response_item", {"type": "message", "role": "user",
                                   "content": [{"type": "input_text", "text": "Is the server on gpu01 up?"}]}),
        _line(3, "response_item", _cell("call_A", "ssh gpu01 nvidia-smi -L")),
        _line(4, "event_msg", end("ssh gpu01 nvidia-smi -L", 255, REFUSED)),
        _line(5, "response_item", _cell_output("call_A", REFUSED)),
        _line(6, "response_item", _cell("call_B", "python3 checks/accept_len.py")),
        _line(7, "event_msg", end("python3 checks/accept_len.py", 0, "accept len 3.1\n")),
        _line(8, "response_item", _cell_output("call_B", "accept len 3.1\n")),
    ]
    path = tmp_path / f"rollout-2026-09-09T08-17-51-{THREAD}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def _read(path: Path) -> tuple[list, list]:
    doc = analyze_path(path).to_json()
    return ([(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]],
            [(e["kind"], e["message"]) for e in doc["errors"]])


def test_item_completed_gives_the_cells_command_its_status(tmp_path: Path) -> None:
    commands, errors = _read(_rollout(tmp_path, _item_end))
    assert commands == [("ssh gpu01 nvidia-smi -L", 255, True), ("python3 checks/accept_len.py", None, False)]
    assert errors == [("connection", REFUSED.strip())]


def test_exec_command_end_gives_the_cells_command_its_status(tmp_path: Path) -> None:
    commands, errors = _read(_rollout(tmp_path, _exec_end))
    assert commands == [("ssh gpu01 nvidia-smi -L", 255, True), ("python3 checks/accept_len.py", None, False)]
    assert errors == [("connection", REFUSED.strip())]


def test_an_end_of_another_command_is_not_the_cells(tmp_path: Path) -> None:
    """An end whose command the cell does not hold (one the person ran with !) says nothing of it."""
    def other(command: str, code: int, output: str) -> dict:
        return _item_end("make clean", 2, "make: *** No rule to make target 'clean'.  Stop.\n")
    commands, errors = _read(_rollout(tmp_path, other))
    assert commands == [("ssh gpu01 nvidia-smi -L", None, False), ("python3 checks/accept_len.py", None, False)]
    assert errors == []

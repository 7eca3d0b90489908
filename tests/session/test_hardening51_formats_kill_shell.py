"""Claude Code 2.0.x stops a background shell with ``KillShell {shell_id}``. A shell that had
already ended cannot be killed, and the tool says so as an error: ``Shell a089a8 is not
running, so cannot be killed (status: completed)`` (the result published session exports show,
e.g. link-assistant/hive-mind pull request #842). The stop was no failure of the session, and the
status is the only word on how the background command ended when no poll read its end: it was
a failed KillShell call with a tool error, and a server that had crashed stayed "no exit status"."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "5e510000-0000-4000-8000-000000000051"
LAUNCH = "ssh gpu01 python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 --port 30000"


def _session(tmp_path: Path, kill_result: str, *, kill_error: bool) -> Path:
    lines: list[dict] = []

    def line(role: str, content, **extra) -> None:
        n = len(lines) + 1
        lines.append({"type": role, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "sessionId": SESSION, "timestamp": f"2025-10-01T10:00:{n:02d}.000Z", "isSidechain": False,
                      "cwd": "/root", "version": "2.0.14", "message": {"role": role, "content": content}, **extra})

    def call(call_id: str, name: str, args: dict) -> None:
        line("assistant", [{"type": "tool_use", "id": call_id, "name": name, "input": args}])

    def result(call_id: str, text: str, is_error: bool = False, cli_copy=None) -> None:
        line("user", [{"type": "tool_result", "tool_use_id": call_id, "content": text, "is_error": is_error}],
             toolUseResult=cli_copy if cli_copy is not None else text)

    line("user", "start the EAGLE-3 server on gpu01 and check it comes up")
    call("toolu_1", "Bash", {"command": LAUNCH, "run_in_background": True, "description": "Launch server"})
    result("toolu_1", "Command running in background with ID: 8845ab")
    call("toolu_2", "BashOutput", {"bash_id": "8845ab"})
    result("toolu_2", "<status>running</status>\n\n<stdout>\nLoading weights\n</stdout>\n\n"
                      "<timestamp>2025-10-01T10:00:05.000Z</timestamp>")
    call("toolu_3", "KillShell", {"shell_id": "8845ab"})
    result("toolu_3", kill_result, kill_error, f"Error: {kill_result}" if kill_error else None)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def test_a_kill_of_a_server_that_had_crashed_says_the_server_failed(tmp_path: Path) -> None:
    path = _session(tmp_path, "Shell 8845ab is not running, so cannot be killed (status: failed)", kill_error=True)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, None, True)]
    assert doc["agents"][0]["failed_calls"] == 1  # the launch, not the stop
    assert [e["command_seq"] for e in doc["errors"]] == [doc["commands"][0]["seq"]]


def test_a_kill_of_a_shell_that_had_completed_is_no_failure(tmp_path: Path) -> None:
    path = _session(tmp_path, "Shell 8845ab is not running, so cannot be killed (status: completed)", kill_error=True)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [(LAUNCH, False)]
    assert (doc["agents"][0]["failed_calls"], doc["errors"]) == (0, [])


def test_a_kill_that_stopped_the_server_is_a_stop(tmp_path: Path) -> None:
    said = json.dumps({"message": f"Successfully killed shell: 8845ab ({LAUNCH})", "shell_id": "8845ab"})
    doc = analyze_path(_session(tmp_path, said, kill_error=False)).to_json()
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(None, False)]
    assert (doc["agents"][0]["failed_calls"], doc["errors"]) == (0, [])

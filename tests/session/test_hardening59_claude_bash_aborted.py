"""A Claude Code Bash command stopped before it ended (the person's Esc, or a message sent while it
ran) comes back with ``is_error: true``, ``toolUseResult.interrupted: true`` and its output
followed by ``<error>Command was aborted before completion</error>`` (the CLI's BashTool
``mapToolResultToToolResultBlockParam``: ``is_error: interrupted``, stdout, stderr, then that tag).
It read as a failed call whose error was the output's first line: a ``tail -f`` of the server's
log stopped three times was a loop of "the same failing command", its error a log line. Now it is
an interrupt (steering, as ``[Request interrupted by user for tool use]`` is), the readings it
showed kept; a command that timed out still reads as a timeout."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "c3d4e5f6-0000-4000-8000-00000000f595"
TAG = "<error>Command was aborted before completion</error>"
DECODE = ("[2026-03-30 08:00:01] Decode batch, #running-req: 4, #token: 100, token usage: 0.01, accept len: 2.10, "
          "accept rate: 0.50, cuda graph: True, gen throughput (token/s): 140.1, #queue-req: 0")


def _session(path: Path, outputs: list[str]) -> Path:
    env = {"sessionId": SID, "cwd": "/work", "version": "2.0.30", "isSidechain": False, "userType": "external"}
    rows = [{**env, "type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-03-30T08:00:00.000Z",
             "message": {"role": "user", "content": "watch the server's log"}}]
    for i, out in enumerate(outputs):
        rows.append({**env, "type": "assistant", "uuid": f"a{i}", "parentUuid": rows[-1]["uuid"],
                     "timestamp": f"2026-03-30T08:0{i + 1}:00.000Z", "message": {
                         "id": f"m{i}", "role": "assistant", "content": [
                             {"type": "tool_use", "id": f"t{i}", "name": "Bash",
                              "input": {"command": "ssh gpu01 tail -f /var/log/sglang.log"}}]}})
        rows.append({**env, "type": "user", "uuid": f"r{i}", "parentUuid": f"a{i}",
                     "timestamp": f"2026-03-30T08:0{i + 1}:30.000Z",
                     "toolUseResult": {"stdout": out.split("\n")[0], "stderr": "", "interrupted": True,
                                       "isImage": False},
                     "message": {"role": "user", "content": [
                         {"type": "tool_result", "tool_use_id": f"t{i}", "content": out, "is_error": True}]}})
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_a_stopped_bash_command_is_an_interrupt_not_a_failure(tmp_path: Path) -> None:
    doc = analyze_path(_session(tmp_path / f"{SID}.jsonl", [f"{DECODE}\n{TAG}"] * 3)).to_json()
    assert [c["is_error"] for c in doc["commands"]] == [False] * 3  # was True, a tool_error each
    assert doc["errors"] == [] and doc["loops"] == []  # was a loop of "the same failing command"
    assert doc["stats"]["interrupts"] == 3
    assert 2.1 in [m["value"] for m in doc["metrics"] if m["name"] == "accept_length"]


def test_a_timed_out_command_is_still_a_timeout(tmp_path: Path) -> None:
    doc = analyze_path(_session(tmp_path / f"{SID}.jsonl",
                                [f"{DECODE}\nCommand timed out after 2m 0.0s\n{TAG}"])).to_json()
    assert [e["kind"] for e in doc["errors"]] == ["timeout"]

"""What a poll of a background command shows while it runs is that command's output, on its host.

Claude Code starts a server with ``run_in_background`` (``ssh gpu01 'python -m
sglang.launch_server ...'``) and reads its log as it runs with ``TaskOutput`` (CLI 2.1.x,
``<status>running</status>`` ``<output>...``) or ``BashOutput`` (2.0.x, ``<stdout>...``). The
poll's readings (the Decode batch lines' throughput and accept length) were the poll call's,
which runs no command: no host, so the postmortem's impact rows put gpu01's server readings on
no host. Codex's polls of a running command already give the command's host.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "dddd0000-0000-4000-8000-000000000038"
LAUNCH = ("ssh gpu01 'python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/eagle3 --port 30000'")
DECODE = ("[2026-03-01 10:00:00 TP0] Decode batch, #running-req: 4, #token: 5120, token usage: 0.05, accept len: "
          "{acc}, accept rate: 0.07, cuda graph: True, gen throughput (token/s): {tput}, #queue-req: 0")


def _line(n: int, role: str, content, **extra) -> dict:
    message = {"role": role, "content": content}
    if role == "assistant":
        message.update(id=f"msg{n}", type="message", model="claude-opus-4-5")
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": SID,
            "version": "2.1.20", "type": role, "uuid": f"x{n}", "timestamp": f"2026-03-01T10:00:{n:02d}.000Z",
            "message": message, **extra}


def _poll_result(tool: str, tput: float, acc: float) -> str:
    log = DECODE.format(tput=tput, acc=acc)
    if tool == "TaskOutput":
        return (f"<retrieval_status>success</retrieval_status>\n\n<task_id>b7x2k1</task_id>\n\n<task_type>local_bash"
                f"</task_type>\n\n<status>running</status>\n\n<output>\n{log}\n</output>")
    return f"<status>running</status>\n\n<stdout>\n{log}\n</stdout>\n\n<timestamp>2026-03-01T10:00:09.000Z</timestamp>"


def _session(tmp_path: Path, tool: str) -> Path:
    ask = {"TaskOutput": {"task_id": "b7x2k1", "block": False, "timeout": 30000}, "BashOutput": {"bash_id": "b7x2k1"}}
    lines = [
        _line(1, "user", "launch eagle3 on gpu01 and check its speed"),
        _line(2, "assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                                "input": {"command": LAUNCH, "run_in_background": True}}]),
        _line(3, "user", [{"type": "tool_result", "tool_use_id": "t1", "is_error": False,
                           "content": "Command running in background with ID: b7x2k1"}]),
    ]
    for k, (tput, acc) in enumerate(((210.5, 1.21), (220.5, 1.25))):
        lines.append(_line(4 + 2 * k, "assistant", [{"type": "tool_use", "id": f"p{k}", "name": tool,
                                                     "input": ask[tool]}]))
        lines.append(_line(5 + 2 * k, "user", [{"type": "tool_result", "tool_use_id": f"p{k}",
                                                "content": _poll_result(tool, tput, acc)}]))
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


@pytest.mark.parametrize("tool", ["TaskOutput", "BashOutput"])
def test_a_running_commands_polled_readings_are_on_its_host(tmp_path, tool):
    a = analyze_path(_session(tmp_path, tool))
    readings = sorted((m.name, m.value, m.host) for m in a.metrics if m.name in ("throughput", "accept_length"))
    assert readings == [("accept_length", 1.21, "gpu01"), ("accept_length", 1.25, "gpu01"),
                        ("throughput", 210.5, "gpu01"), ("throughput", 220.5, "gpu01")]
    # the launch is still running: no exit status was read for it
    (launch,) = [c for c in a.commands if c.category == "launch_server"]
    assert (launch.host, launch.exit_code, launch.is_error) == ("gpu01", None, False)

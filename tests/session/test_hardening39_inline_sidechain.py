"""analyze: a Claude Code 1.0.x sub-agent, written inline in the session file, hangs under the
Task call that spawned it, and what it measured is one reading, not two.

CLI 1.0.x wrote a Task's sub-agent lines into the session file (``isSidechain: true``) between the
Task call and its result, with no ``agentId`` on them nor on the result. Before, the sub-agent
(named ``sidechain-<call>``) had no ``spawned_by``, no description, and its report, the Task's
result, counted every reading it restated a second time, on the main agent and on no host.
"""

from __future__ import annotations

import json
import uuid

from spec_debug.session import analyze_path

SESSION = "dddd0000-0000-4000-8000-000000000039"
DECODE = ("[2025-07-01 09:00:00 TP0] Decode batch, #running-req: 2, #token: 100, token usage: 0.00, "
          "accept len: 1.10, accept rate: 0.05, gen throughput (token/s): 60.00, #queue-req: 0")


class _Session:
    """Lines as Claude Code 1.0.43 wrote them: a uuid chain, no agentId anywhere."""

    def __init__(self) -> None:
        self.lines: list[dict] = []
        self.clock = 0

    def add(self, kind: str, message: dict, parent: str | None, sidechain: bool = False, **extra) -> str:
        self.clock += 5
        uid = str(uuid.UUID(int=len(self.lines) + 1))
        self.lines.append({"parentUuid": parent, "isSidechain": sidechain, "userType": "external",
                           "cwd": "/home/me", "sessionId": SESSION, "version": "1.0.43", "type": kind,
                           "message": message, "uuid": uid,
                           "timestamp": f"2025-07-01T09:{self.clock // 60:02d}:{self.clock % 60:02d}.000Z", **extra})
        return uid

    def call(self, call_id: str, name: str, tool_input: dict, parent: str | None, sidechain: bool = False) -> str:
        return self.add("assistant", {"role": "assistant", "model": "claude-sonnet-4-20250514", "id": f"msg_{call_id}",
                                      "type": "message", "content": [{"type": "tool_use", "id": call_id, "name": name,
                                                                      "input": tool_input}],
                                      "usage": {"input_tokens": 1, "output_tokens": 1}}, parent, sidechain)

    def result(self, call_id: str, content, parent: str | None, sidechain: bool = False, **extra) -> str:
        return self.add("user", {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call_id,
                                                              "content": content}]}, parent, sidechain, **extra)

    def say(self, text: str, parent: str | None, sidechain: bool = False) -> str:
        return self.add("assistant", {"role": "assistant", "model": "claude-sonnet-4-20250514", "id": f"msg_{len(self.lines)}",
                                      "type": "message", "content": [{"type": "text", "text": text}],
                                      "usage": {"input_tokens": 1, "output_tokens": 1}}, parent, sidechain)


def _analyze(tmp_path):
    s = _Session()
    p = s.add("user", {"role": "user", "content": "EAGLE-3 on gpu31 is slower than without it"}, None)
    p = s.call("toolu_task1", "Task", {"description": "Read the server log",
                                       "prompt": "ssh gpu31 and read the SGLang log"}, p)
    q = s.add("user", {"role": "user", "content": "ssh gpu31 and read the SGLang log"}, None, sidechain=True)
    q = s.call("toolu_side1", "Bash", {"command": "ssh gpu31 tail -2 /tmp/sglang.log"}, q, sidechain=True)
    q = s.result("toolu_side1", DECODE, q, sidechain=True)
    s.say("The log shows a mean accept len of 1.10.", q, sidechain=True)
    report = "The log shows a mean accept len of 1.10."
    p = s.result("toolu_task1", [{"type": "text", "text": report}], p,
                 toolUseResult={"content": [{"type": "text", "text": report}], "totalDurationMs": 5000,
                                "totalTokens": 900, "totalToolUseCount": 1})
    p = s.call("toolu_main2", "Bash", {"command": "ssh gpu31 nvidia-smi --query-gpu=name --format=csv"}, p)
    s.result("toolu_main2", "name\nNVIDIA H100 80GB HBM3", p)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in s.lines), encoding="utf-8")
    return analyze_path(path)


def test_the_inline_sub_agent_hangs_under_its_task_call(tmp_path):
    analysis = _analyze(tmp_path)
    [sub] = [a for a in analysis.agents if a["id"] != "main"]
    assert (sub["parent"], sub["spawned_by"], sub["description"]) == ("main", "toolu_task1", "Read the server log")
    assert sub["status"] == "completed"
    assert analysis.stats["missing_files"] == 0


def test_the_report_restates_the_sub_agents_reading_and_adds_none(tmp_path):
    analysis = _analyze(tmp_path)
    [sub] = [a["id"] for a in analysis.agents if a["id"] != "main"]
    accept = [(m.agent, m.host, m.source) for m in analysis.metrics if m.name == "accept_length"]
    assert ("main", None, "output") not in accept  # the Task result's copy
    assert accept[0] == (sub, "gpu31", "output")

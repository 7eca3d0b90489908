"""Codex's multi-agent tools answer a call that did nothing in words, with ``success: false`` that the
rollout does not keep (openai/codex ``codex-rs/core/src/tools/handlers/multi_agents_common.rs``
``collab_spawn_error`` / ``collab_agent_error``; ``multi_agents/spawn.rs``): ``collab spawn failed:
agent thread limit reached (max 6)``, ``Agent depth limit reached. Solve the task yourself.``, ``agent
with id <id> not found`` / ``is closed``, ``collab tool failed: …``, ``collab manager unavailable``,
``Unknown model `x` for spawn_agent. …``. Each read as a call that came back fine: a sub-agent that
never started was a spawn that worked. Now they are failed calls; a spawn that started one, or a
sub-agent's report that merely quotes such words, is not."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

THREAD = "019b0000-0000-7000-8000-000000000002"


def _rollout(path: Path, name: str, args: dict, output: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "019b0000-0000-7000-8000-000000000001", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.98.0"}}]
    items = [{"type": "function_call", "name": name, "call_id": "c1", "arguments": json.dumps(args)},
             {"type": "function_call_output", "call_id": "c1", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


SPAWN = {"message": "profile the draft model on gpu01", "agent_type": "worker"}


@pytest.mark.parametrize(("name", "args", "output"), [
    ("spawn_agent", SPAWN, "collab spawn failed: agent thread limit reached (max 6)"),
    ("spawn_agent", SPAWN, "Agent depth limit reached. Solve the task yourself."),
    ("spawn_agent", {**SPAWN, "model": "gpt-9"},
     "Unknown model `gpt-9` for spawn_agent. Available models: gpt-5.2-codex, gpt-5.1-codex-mini"),
    ("spawn_agent", SPAWN, "collab manager unavailable"),
    ("wait", {"ids": [THREAD]}, f"agent with id {THREAD} not found"),
    ("send_input", {"id": THREAD, "message": "also check gpu02"}, f"agent with id {THREAD} is closed"),
    ("close_agent", {"id": THREAD}, "collab tool failed: thread manager dropped"),
])
def test_a_collab_call_that_did_nothing_is_a_failed_call(tmp_path: Path, name: str, args: dict, output: str) -> None:
    analysis = analyze_path(_rollout(tmp_path / "rollout.jsonl", name, args, output))
    (main,) = analysis.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 1)  # was (1, 0)
    assert [e["message"] for e in analysis.to_json()["errors"]] == [output]


@pytest.mark.parametrize("output", [
    json.dumps({"agent_id": THREAD, "nickname": "Curie"}),
    "Unknown model `gpt-9` in the config: the bench used the default",
    "agent with id 7 not found in the scheduler log, so the worker restarted and the run finished fine",
])
def test_other_answers_stay_results(tmp_path: Path, output: str) -> None:
    analysis = analyze_path(_rollout(tmp_path / "rollout.jsonl", "spawn_agent", SPAWN, output))
    (main,) = analysis.agents
    assert (main["tool_calls"], main["failed_calls"]) == (1, 0)

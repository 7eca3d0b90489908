"""A Claude Code session folder whose trunk is gone (the CLI's cleanup deletes ``<id>.jsonl`` after
cleanupPeriodDays and keeps ``<id>/subagents/``, anthropics/claude-code issues #55407, #47717)
holding nested agents: CLI 2.1.x writes every agent flat in ``subagents/``, and a nested one's only
link to the agent that started it is its sidecar's ``toolUseId`` (TRANSCRIPTS.md section 1a,
daaain/claude-code-log PR #218).

Before, each agent file was read as a session of its own: the nested agent hung under no one (its
``parent`` "main", no ``spawned_by``), a separate session, and the failure it hit never reached
the agent that started it. Now an agent another agent of the folder started is read under it, in
its session; the folder's top agents are still a session each (hardening27)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "74740000-0000-4000-8000-000000000074"


def _line(agent: str, n: int, kind: str, content) -> str:
    return json.dumps({
        "type": kind, "uuid": f"{agent}-{n}", "parentUuid": f"{agent}-{n - 1}" if n else None,
        "isSidechain": True, "sessionId": SESSION, "agentId": agent, "userType": "external", "cwd": "/srv/eagle",
        "version": "2.1.173", "timestamp": f"2026-06-15T10:00:{n:02d}.000Z",
        "message": {"role": kind, "content": content}})


def _agent(folder: Path, agent: str, spawned_by: str, lines: list[str], packed: bool = False) -> None:
    text = "\n".join(lines) + "\n"
    meta = json.dumps({"agentType": "general-purpose", "description": f"agent {agent}", "toolUseId": spawned_by})
    if packed:  # `gzip -r` over the project folder
        (folder / f"agent-{agent}.jsonl.gz").write_bytes(gzip.compress(text.encode()))
        (folder / f"agent-{agent}.meta.json.gz").write_bytes(gzip.compress(meta.encode()))
    else:
        (folder / f"agent-{agent}.jsonl").write_text(text)
        (folder / f"agent-{agent}.meta.json").write_text(meta)


def _spawner(agent: str, prompt: str, call: str, child_prompt: str, report: str) -> list[str]:
    return [
        _line(agent, 0, "user", prompt),
        _line(agent, 1, "assistant", [{"type": "tool_use", "id": call, "name": "Agent", "input": {
            "description": "gpu check", "prompt": child_prompt, "subagent_type": "general-purpose"}}]),
        _line(agent, 2, "user", [{"type": "tool_result", "tool_use_id": call,
                                  "content": [{"type": "text", "text": report}]}]),
    ]


def _worker(agent: str, prompt: str, command: str, code: int, output: str) -> list[str]:
    return [
        _line(agent, 0, "user", prompt),
        _line(agent, 1, "assistant", [{"type": "tool_use", "id": f"toolu_{agent}_sh", "name": "Bash",
                                       "input": {"command": command}}]),
        _line(agent, 2, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{agent}_sh", "is_error": True,
                                  "content": f"Exit code {code}\n{output}"}]),
    ]


def _project(tmp_path: Path, packed: bool = False) -> Path:
    folder = tmp_path / "-srv-eagle" / SESSION / "subagents"
    folder.mkdir(parents=True)
    # the trunk started a1 (its call is gone with the trunk); a1 started a2, a2 started a3
    _agent(folder, "a1b2c3d4e5f60001", "toolu_01Trunk",
           _spawner("a1b2c3d4e5f60001", "check the drafter host", "toolu_01Nest", "check the GPUs", "GPU 3 is gone"),
           packed)
    _agent(folder, "a1b2c3d4e5f60002", "toolu_01Nest",
           _spawner("a1b2c3d4e5f60002", "check the GPUs", "toolu_01Deep", "run nvidia-smi", "nvidia-smi failed"),
           packed)
    _agent(folder, "a1b2c3d4e5f60003", "toolu_01Deep",
           _worker("a1b2c3d4e5f60003", "run nvidia-smi", "nvidia-smi", 9, "NVIDIA-SMI has failed"), packed)
    # another agent of the trunk's, started by a call of the trunk too
    _agent(folder, "a1b2c3d4e5f60009", "toolu_01Other",
           _worker("a1b2c3d4e5f60009", "read the server log", "grep -c error /var/log/sglang.log", 2,
                   "grep: /var/log/sglang.log: No such file or directory"), packed)
    return tmp_path / "-srv-eagle"


def _tree(doc: dict) -> list[tuple]:
    return sorted((a["session"], a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"])


# a top agent of the folder is a root: no trunk was read, so no "main" is in agents[] (was
# "parent": "main", hardening74 agent_file_alone_root)
EXPECTED_TREE = [
    ("agent-a1b2c3d4e5f60001", "a1b2c3d4e5f60001", None, None, "completed"),
    ("agent-a1b2c3d4e5f60001", "a1b2c3d4e5f60002", "a1b2c3d4e5f60001", "toolu_01Nest", "completed"),
    ("agent-a1b2c3d4e5f60001", "a1b2c3d4e5f60003", "a1b2c3d4e5f60002", "toolu_01Deep", "failed"),
    ("agent-a1b2c3d4e5f60009", "a1b2c3d4e5f60009", None, None, "failed"),
]
EXPECTED_COMMANDS = [
    ("agent-a1b2c3d4e5f60001", "a1b2c3d4e5f60003", "nvidia-smi", 9),
    ("agent-a1b2c3d4e5f60009", "a1b2c3d4e5f60009", "grep -c error /var/log/sglang.log", 2),
]


def _commands(doc: dict) -> list[tuple]:
    return [(c["session"], c["agent"], c["command"], c["exit_code"]) for c in doc["commands"]]


def test_a_scan_reads_a_nested_agent_under_the_agent_that_started_it(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path)).to_json()
    assert [s["id"] for s in doc["sessions"]] == ["agent-a1b2c3d4e5f60001", "agent-a1b2c3d4e5f60009"]
    assert _tree(doc) == EXPECTED_TREE
    assert _commands(doc) == EXPECTED_COMMANDS


def test_naming_the_session_folder_reads_it_the_same_way(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path) / SESSION).to_json()
    assert _tree(doc) == EXPECTED_TREE
    assert _commands(doc) == EXPECTED_COMMANDS


def test_a_gzipped_folder_links_its_nested_agents_too(tmp_path: Path) -> None:
    doc = analyze_path(_project(tmp_path, packed=True)).to_json()
    assert _tree(doc) == EXPECTED_TREE
    assert _commands(doc) == EXPECTED_COMMANDS


def test_a_sub_agent_file_named_alone_brings_the_agents_it_started(tmp_path: Path) -> None:
    named = _project(tmp_path) / SESSION / "subagents" / "agent-a1b2c3d4e5f60002.jsonl"
    doc = analyze_path(named).to_json()
    assert _tree(doc) == [
        ("agent-a1b2c3d4e5f60002", "a1b2c3d4e5f60002", None, None, "completed"),
        ("agent-a1b2c3d4e5f60002", "a1b2c3d4e5f60003", "a1b2c3d4e5f60002", "toolu_01Deep", "failed"),
    ]
    assert _commands(doc) == [("agent-a1b2c3d4e5f60002", "a1b2c3d4e5f60003", "nvidia-smi", 9)]


def test_a_call_replayed_in_another_agent_file_reads_its_agent_once(tmp_path: Path) -> None:
    # A file that replays the lines of another holds its calls too: the nested agent is read
    # once, under the first file that holds its call, never in two sessions.
    project = _project(tmp_path)
    folder = project / SESSION / "subagents"
    replay = folder / "agent-a1b2c3d4e5f60009.jsonl"
    replay.write_text(replay.read_text() + _spawner("a1b2c3d4e5f60009", "x", "toolu_01Nest", "check the GPUs",
                                                     "GPU 3 is gone")[1] + "\n")
    doc = analyze_path(project).to_json()
    assert sorted(_commands(doc)) == sorted(EXPECTED_COMMANDS)
    assert sorted(a["id"] for a in doc["agents"]) == [
        "a1b2c3d4e5f60001", "a1b2c3d4e5f60002", "a1b2c3d4e5f60003", "a1b2c3d4e5f60009"]


def _then_runs(agent: str, command: str, code: int, output: str) -> list[str]:
    return [
        _line(agent, 3, "assistant", [{"type": "tool_use", "id": f"toolu_{agent}_sh", "name": "Bash",
                                       "input": {"command": command}}]),
        _line(agent, 4, "user", [{"type": "tool_result", "tool_use_id": f"toolu_{agent}_sh", "is_error": True,
                                  "content": f"Exit code {code}\n{output}"}]),
    ]


def test_agents_that_each_hold_the_others_call_are_both_read(tmp_path: Path) -> None:
    folder = tmp_path / "-srv-eagle" / SESSION / "subagents"
    folder.mkdir(parents=True)
    _agent(folder, "b1", "toolu_01B2", _spawner("b1", "check the GPUs", "toolu_01B1", "run nvidia-smi", "done")
           + _then_runs("b1", "nvidia-smi", 9, "NVIDIA-SMI has failed"))
    _agent(folder, "b2", "toolu_01B1", _spawner("b2", "run nvidia-smi", "toolu_01B2", "check the GPUs", "done")
           + _then_runs("b2", "dmesg", 1, "dmesg: read kernel buffer failed"))
    doc = analyze_path(tmp_path).to_json()
    assert sorted((c["agent"], c["command"]) for c in doc["commands"]) == [("b1", "nvidia-smi"), ("b2", "dmesg")]
    assert len(doc["sessions"]) == 1

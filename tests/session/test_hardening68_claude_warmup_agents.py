"""The sub-agents Claude Code starts by itself to warm the prompt cache are no agents of the session.

When a session starts the CLI sends each agent type the prompt "Warmup" (anthropics/claude-code
issue #17457, "3 parallel warmup agents spawning per session", each an ``agent-<id>.jsonl`` whose
line is ``isSidechain`` with "Warmup"; issue #47922 shows the opener as a text block;
anthropics/claude-agent-sdk-python issue #445: "The warmup requests are used by the CLI to
pre-populate the prompt cache"). A real CLI 2.0.76 recording published in the fasthooks 0.1.4
sdist (``specs/data/sample_agent_sidechain.jsonl``, "Warmup pattern", next to its
``sample_main_transcript.jsonl``), read as a project folder, gave a root agent beside the trunk,
its "Warmup" a prompt of the person's and a phase of the session. Like the compaction agents, such
a file is skipped; an agent a call spawned is kept whatever its prompt."""

from __future__ import annotations

import json
from pathlib import Path

from test_hardening65_claude_background_agent_end import SID, _call, _line, _result

from spec_debug.session.analysis import analyze_path

WARM, WORKER = "af1ff21", "a5d899d"


def _write(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def _warmup(content) -> list[dict]:
    """A warmup's two lines, as the CLI 2.0.76 recording has them (ids and text ours)."""
    return [_line(0, "user", WARM, version="2.0.76", message={"role": "user", "content": content}),
            _line(0, "assistant", WARM, version="2.0.76", message={
                "model": "claude-haiku-4-5-20251001", "id": "msg_w", "type": "message", "role": "assistant",
                "content": [{"type": "text", "text": "I'm ready to help you explore the codebase."}],
                "stop_reason": "end_turn", "usage": {"input_tokens": 728, "output_tokens": 60}})]


TRUNK = [
    _line(1, "user", version="2.0.76", message={"role": "user", "content": "can you run a command ls -la"}),
    _call(2, "toolu_L", "Bash", {"command": "ls -la", "description": "List files"}),
    _result(3, "toolu_L", "total 76", {"stdout": "total 76", "stderr": "", "interrupted": False, "isImage": False}),
]


def _doc(project: Path) -> tuple[list[tuple], list[tuple]]:
    doc = analyze_path(project).to_json()
    return ([(a["id"], a["parent"], a["spawned_by"]) for a in doc["agents"]],
            [(p["agent"], p["text"]) for p in doc["prompts"]])


def test_a_warmup_beside_the_trunk_is_no_agent(tmp_path):
    project = tmp_path / "-workspace"
    _write(project / f"{SID}.jsonl", TRUNK)
    _write(project / f"agent-{WARM}.jsonl", _warmup("Warmup"))
    assert _doc(project) == ([("main", None, None)], [("main", "can you run a command ls -la")])


def test_a_warmup_in_the_session_folder_is_no_agent(tmp_path):
    project = tmp_path / "-workspace"
    _write(project / f"{SID}.jsonl", TRUNK)
    _write(project / SID / "subagents" / f"agent-{WARM}.jsonl", _warmup([{"type": "text", "text": "Warmup"}]))
    assert _doc(project)[0] == [("main", None, None)]
    # the session folder read alone, its trunk not beside it
    (project / f"{SID}.jsonl").unlink()
    _write(project / SID / "subagents" / f"agent-{WORKER}.jsonl",
           [_line(4, "user", WORKER, message={"role": "user", "content": "count the files"})])
    agents, prompts = _doc(project / SID)
    assert [a[0] for a in agents if a[0] != "main"] == [WORKER]
    assert prompts == [(WORKER, "count the files")]


def test_an_agent_a_call_spawned_is_kept_whatever_its_prompt(tmp_path):
    project = tmp_path / "-workspace"
    trunk = TRUNK + [_call(5, "toolu_W", "Task", {"description": "warm", "prompt": "Warmup",
                                                  "subagent_type": "Explore"}),
                     _result(6, "toolu_W", "ready", {"status": "completed", "agentId": WARM,
                                                     "content": [{"type": "text", "text": "ready"}]})]
    _write(project / f"{SID}.jsonl", trunk)
    _write(project / SID / "subagents" / f"agent-{WARM}.jsonl", _warmup("Warmup"))
    (project / SID / "subagents" / f"agent-{WARM}.meta.json").write_text(json.dumps(
        {"agentType": "Explore", "description": "warm", "toolUseId": "toolu_W"}))
    assert _doc(project)[0] == [("main", None, None), (WARM, "main", "toolu_W")]

"""A Claude Code project folder archived with ``gzip -r`` (every ``.jsonl`` of it a ``.jsonl.gz``,
which the analyzer reads): the first prompt of each sub-agent file was read from the compressed
bytes, so none was found. The CLI's own warmup agents (a file opening with "Warmup", no spawning
call) were kept as root agents of the session, and a sub-agent linked to its call by its prompt
alone (its call interrupted, so the result names no agent; no ``.meta.json``) was a root agent
too, its status guessed ("failed") instead of the stop by hand. Read decompressed, the session
reads as it does uncompressed."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "aaaa7373-0000-4000-8000-000000000031"
PROMPT = "run nvidia-smi on gpu01 and report the driver version"
SMI = "ssh gpu01 nvidia-smi"
INTERRUPTED = "[Request interrupted by user for tool use]"


def _line(n: int, kind: str, content, agent: str | None = None, **extra) -> dict:
    line = {"parentUuid": None, "isSidechain": agent is not None, "userType": "external", "cwd": "/w",
            "sessionId": SID, "version": "2.1.30", "type": kind, "uuid": f"{agent or 'u'}-{n}",
            "timestamp": f"2026-03-01T10:00:{n:02d}.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}
    if agent is not None:
        line["agentId"] = agent
    return line


def _files() -> dict[str, list[dict]]:
    trunk = [_line(0, "user", "why is the draft acceptance 0 on gpu01?"),
             _line(1, "assistant", [{"type": "tool_use", "id": "toolu_task", "name": "Task", "input": {
                 "description": "check the driver", "prompt": PROMPT, "subagent_type": "general-purpose"}}]),
             _line(5, "user", [{"type": "tool_result", "tool_use_id": "toolu_task", "content": INTERRUPTED,
                                "is_error": True}], toolUseResult="Error: " + INTERRUPTED),
             _line(6, "user", [{"type": "text", "text": INTERRUPTED}])]
    agent = [_line(2, "user", PROMPT, "a7f3c2e1"),
             _line(3, "assistant", [{"type": "tool_use", "id": "toolu_smi", "name": "Bash",
                                     "input": {"command": SMI}}], "a7f3c2e1"),
             _line(4, "user", [{"type": "tool_result", "tool_use_id": "toolu_smi", "is_error": True,
                                "content": "Exit code 9\nNVIDIA-SMI has failed because it couldn't communicate "
                                           "with the NVIDIA driver."}], "a7f3c2e1")]
    warmup = [_line(0, "user", "Warmup", "w0arm1e2"),
              _line(1, "assistant", [{"type": "text", "text": "I'm ready to help."}], "w0arm1e2")]
    return {f"{SID}.jsonl": trunk, f"{SID}/subagents/agent-a7f3c2e1.jsonl": agent,
            f"{SID}/subagents/agent-w0arm1e2.jsonl": warmup}


def _project(tmp_path: Path, packed: bool) -> Path:
    project = tmp_path / "-w"
    for name, lines in _files().items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        text = "".join(json.dumps(line) + "\n" for line in lines).encode()
        if packed:
            Path(f"{path}.gz").write_bytes(gzip.compress(text))
        else:
            path.write_bytes(text)
    return project


@pytest.mark.parametrize("packed", [False, True], ids=["plain", "gzipped"])
def test_a_gzipped_project_reads_as_the_plain_one(tmp_path: Path, packed: bool) -> None:
    doc = analyze_path(_project(tmp_path, packed)).to_json()
    # gzipped was: main, a7f3c2e1 (parent None, spawned_by None, "failed"), w0arm1e2 (parent None)
    assert [(a["id"], a["parent"], a["spawned_by"], a["status"]) for a in doc["agents"]] == [
        ("main", None, None, "completed"), ("a7f3c2e1", "main", "toolu_task", "interrupted")]
    # the warmup's "Warmup" is no prompt (gzipped, it was one of a root agent's)
    assert [(p["agent"], p["text"]) for p in doc["prompts"]] == [
        ("main", "why is the draft acceptance 0 on gpu01?"), ("a7f3c2e1", PROMPT)]
    assert [(c["agent"], c["command"], c["exit_code"]) for c in doc["commands"]] == [("a7f3c2e1", SMI, 9)]
    assert doc["stats"]["events"] == 7

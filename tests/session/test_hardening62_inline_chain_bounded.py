"""CLI 1.0.x inline sub-agent lines are linked by their uuid chain (claude_code.link_records);
the chain it remembers is bounded, so a huge file of such lines is read in bounded memory, and
lines past the bound still join the agent of the line they answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.formats import claude_code


def _line(**fields) -> str:
    base = {"sessionId": "s1", "cwd": "/w", "version": "1.0.51", "timestamp": "2025-07-01T10:00:00Z"}
    base.update(fields)
    return json.dumps(base) + "\n"


def test_chain_past_its_bound_still_links_and_stays_bounded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(claude_code, "_CHAIN_KEPT", 8)
    lines = [
        _line(type="user", uuid="m0", parentUuid=None, isSidechain=False,
              message={"role": "user", "content": "check the GPU"}),
        _line(type="assistant", uuid="m1", parentUuid="m0", isSidechain=False,
              message={"role": "assistant", "content": [
                  {"type": "tool_use", "id": "t1", "name": "Task",
                   "input": {"description": "Check GPU", "prompt": "Run nvidia-smi on gpu01"}}]}),
        _line(type="user", uuid="s0", parentUuid=None, isSidechain=True,
              message={"role": "user", "content": "Run nvidia-smi on gpu01"}),
    ]
    previous = "s0"
    for i in range(1, 40):  # 39 more lines of the sub-agent, each answering the one before
        uuid = f"s{i}"
        lines.append(_line(type="assistant", uuid=uuid, parentUuid=previous, isSidechain=True,
                           message={"role": "assistant", "content": [{"type": "text", "text": f"step {i}"}]}))
        previous = uuid
    path = tmp_path / "session.jsonl"
    path.write_text("".join(lines))
    analysis = analyze_path(path)
    sub = [a for a in analysis.agents if a["parent"] is not None]
    assert len(sub) == 1, analysis.agents
    assert sub[0]["events"] == 40  # every sidechain line on the one sub-agent, past the bound too

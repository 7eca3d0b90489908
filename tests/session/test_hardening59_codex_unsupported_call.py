"""A Codex model that calls a tool its CLI does not have (``container.exec``, the shell tool of
early CLIs, asked of a newer one) is answered ``unsupported call: container.exec`` (a custom tool:
``unsupported custom tool call: …``), and nothing runs (openai/codex ``codex-rs/core/src/tools/
registry.rs`` ``unsupported_tool_call_message``, sent back as the call's output). The command it
named read as one that ran fine; now the call failed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _rollout(path: Path, name: str, output: str) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b2", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/work",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    items = [{"type": "function_call", "name": name, "call_id": "c1",
              "arguments": json.dumps({"command": ["bash", "-lc", "nvidia-smi"]})},
             {"type": "function_call_output", "call_id": "c1", "output": output}]
    for n, payload in enumerate(items, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item", "payload": payload})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


@pytest.mark.parametrize("output", ["unsupported call: container.exec",
                                    "unsupported custom tool call: container.exec"])
def test_a_call_of_a_tool_codex_lacks_failed(tmp_path: Path, output: str) -> None:
    doc = analyze_path(_rollout(tmp_path / "rollout.jsonl", "container.exec", output)).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [("nvidia-smi", True)]  # was False
    assert [e["message"] for e in doc["errors"]] == [output]

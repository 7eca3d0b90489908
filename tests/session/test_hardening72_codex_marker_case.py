"""Codex's own reader of its history takes the markers of the parts it writes into user messages in
any case, start and end (openai/codex ``codex-rs/core/src/context/`` ``ContextualUserFragmentMarkers::
matches_text``: ``eq_ignore_ascii_case`` on the start marker and on the end marker). A part
``<Environment_Context>…</Environment_Context>`` or ``<SKILL>…</SKILL>`` was read as a prompt the
person typed. It is now Codex's context; a marker in another case with no closing tag at the part's
end, as the person may type one, stays a prompt."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path


def _rollout(path: Path, texts: list[list[str]]) -> Path:
    lines = [{"timestamp": "2026-01-02T03:04:05.000Z", "type": "session_meta",
              "payload": {"id": "0199a1b3", "timestamp": "2026-01-02T03:04:05.000Z", "cwd": "/srv",
                          "originator": "codex_cli_rs", "cli_version": "0.63.0"}}]
    for n, parts in enumerate(texts, 1):
        lines.append({"timestamp": f"2026-01-02T03:05:{n:02d}.000Z", "type": "response_item",
                      "payload": {"type": "message", "role": "user",
                                  "content": [{"type": "input_text", "text": t} for t in parts]}})
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n")
    return path


def _prompts(path: Path) -> list[str]:
    return [p["text"] for p in analyze_path(path).to_json()["prompts"]]


def test_markers_in_another_case_are_codexs_context(tmp_path: Path) -> None:
    path = _rollout(tmp_path / "rollout-2026-01-02T03-04-05-0199a1b3.jsonl", [
        ["<Environment_Context>\n  <cwd>/srv</cwd>\n</Environment_Context>\n", "why is the acceptance length 1.0?"],
        ["<SKILL>\n<name>bench</name>\n<path>/skills/bench/SKILL.md</path>\nRun tools/bench.sh\n</SKILL>"],
    ])
    assert _prompts(path) == ["why is the acceptance length 1.0?"]


def test_a_marker_without_its_closing_tag_stays_a_prompt(tmp_path: Path) -> None:
    path = _rollout(tmp_path / "rollout-2026-01-02T03-04-05-0199a1b3.jsonl", [
        ["<Environment_Context> is empty in my rollouts, why?"],
    ])
    assert _prompts(path) == ["<Environment_Context> is empty in my rollouts, why?"]

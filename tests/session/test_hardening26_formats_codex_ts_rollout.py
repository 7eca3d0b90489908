"""The TypeScript Codex CLI (spring and summer 2025, before the Rust CLI's ``{timestamp, type,
payload}`` lines) saved a session as one JSON document, ``{"session": {timestamp, id,
instructions}, "items": [Responses API items]}``, indented by ``JSON.stringify(..., null, 2)``, to
``~/.codex/sessions/rollout-<date>-<id>.json`` (openai/codex ``codex-cli/src/utils/storage/
save-rollout.ts``). Its ``shell`` calls' outputs are ``{"output", "metadata": {"exit_code",
"duration_seconds"}}`` strings. Before: read as a Claude Code file of one record, with no
command, no host and no error (``0 tool calls``)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h26_formats"
ROLLOUT = DATA / "rollout-2025-05-14-5f1a2b3c-7d4e-4a1b-9c2d-0e1f2a3b4c5d.json"
SSH = "ssh gpu-node-3 nvidia-smi"


def _commands(doc: dict) -> dict:
    return {c["command"]: (c["exit_code"], c["is_error"], c["host"]) for c in doc["commands"]}


def test_a_typescript_codex_rollout_is_read_as_codex_with_its_commands():
    doc = analyze_path(ROLLOUT).to_json()
    (session,) = doc["sessions"]
    assert session["format"] == "codex"
    assert session["first_timestamp"] == "2025-05-14T09:12:03.412Z"  # the session header's time
    assert session["broken_json"] == session["unknown_types"] == 0
    got = _commands(doc)
    assert got[SSH] == (255, True, "gpu-node-3")
    assert got["git status --short"] == (0, False, None)
    assert [e["kind"] for e in doc["errors"]] == ["connection"]
    assert doc["prompts"][0]["text"].startswith("vllm on gpu-node-3 stopped accepting drafts")


def test_a_rollout_written_on_one_line_is_read_alike(tmp_path):
    # A fork that drops the indentation writes the same document on one line.
    one_line = tmp_path / ROLLOUT.name
    one_line.write_text(json.dumps(json.loads(ROLLOUT.read_text())))
    doc = analyze_path(one_line).to_json()
    assert doc["sessions"][0]["format"] == "codex"
    assert _commands(doc)[SSH] == (255, True, "gpu-node-3")


def test_a_rollout_cut_while_written_keeps_the_items_before_the_cut(tmp_path):
    # The CLI rewrites the whole file after each turn: a crash mid-write leaves it cut.
    text = ROLLOUT.read_text()
    cut = tmp_path / ROLLOUT.name
    cut.write_text(text[:text.index("call_Vf7k")])
    doc = analyze_path(cut).to_json()
    (session,) = doc["sessions"]
    assert session["format"] == "codex"
    assert session["broken_json"] == 1
    assert _commands(doc) == {SSH: (255, True, "gpu-node-3")}

"""OpenCode's Markdown transcript (/export), the shape of the sessions people share publicly:
a title, ``**Session ID:** ses_…``, ``## User`` / ``## Assistant (Build · model · 8.4s)`` turns,
``_Thinking:_`` paragraphs, ``**Tool: bash**`` with ``**Input:**`` JSON and an ``**Output:**`` or
``**Error:**`` block. Read as a plain Markdown log it had no prompt and no command."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

FENCE = "```"


def _tool(name: str, args: dict, label: str | None, output: str = "") -> str:
    text = f"**Tool: {name}**\n\n**Input:**\n{FENCE}json\n{json.dumps(args, indent=2)}\n{FENCE}\n"
    if label:
        text += f"\n**{label}:**\n{FENCE}\n{output}\n{FENCE}\n"
    return text + "\n"


SERVE = "python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm EAGLE3 " \
        "--speculative-draft-model-path /models/eagle3 --speculative-num-steps 1"
TIMEOUT_NOTE = ("<shell_metadata>\nshell tool terminated command after exceeding timeout 120000 ms. If this command "
                "is expected to take longer and is not waiting for interactive input, retry with a larger timeout "
                "value in milliseconds.\n</shell_metadata>")


def _export(path: Path) -> Path:
    text = "\n".join([
        "# Sửa lỗi eagle3 chậm hơn baseline",
        "",
        "**Session ID:** ses_1ba7b4103ffeaQWMZNyAooW5jU",
        "**Created:** 5/20/2026, 8:13:08 PM",
        "**Updated:** 5/20/2026, 10:50:15 PM",
        "",
        "---",
        "",
        "## User",
        "",
        "The EAGLE-3 draft serves at 54.8 tok/s against a 90 tok/s baseline on gpu01. Why?",
        "",
        "---",
        "",
        "## Assistant (Build · Claude Sonnet 4.5 · 8.4s)",
        "",
        "<think></think>",
        "",
        "_Thinking:_",
        "",
        "Let me look at how the server was started.",
        "",
        _tool("bash", {"command": "ssh gpu01 'ps aux | grep sglang'", "description": "Server flags"}, "Output",
              f"root 4242 {SERVE}"),
        _tool("bash", {"command": f"ssh gpu01 '{SERVE}'", "description": "Restart", "timeout": 120000}, "Output",
              "Loading safetensors checkpoint shards: 100%\n\n" + TIMEOUT_NOTE),
        _tool("edit", {"filePath": "/root/test_draft.py", "oldString": "a", "newString": "a"}, "Error",
              "No changes to apply: oldString and newString are identical."),
        "---",
        "",
        "## Assistant (Build · Claude Sonnet 4.5 · 3.1s)",
        "",
        "<think></think>The server drafts one token per round. Restart it with more steps:",
        "",
        f"{FENCE}bash",
        "python3 -m sglang.launch_server --speculative-num-steps 3",
        FENCE,
        "",
        _tool("bash", {"command": "ssh gpu01 nvidia-smi", "description": "GPU state"}, None),
    ])
    path.write_text(text, encoding="utf-8")
    return path


def test_an_opencode_export_gives_its_prompt_commands_and_failures(tmp_path):
    doc = analyze_path(_export(tmp_path / "session-ses_1ba7.md")).to_json()
    assert doc["stats"]["tool_calls"] == 4
    assert [(c["command"], c["host"], c["is_error"]) for c in doc["commands"]] == [
        ("ssh gpu01 'ps aux | grep sglang'", "gpu01", False),
        (f"ssh gpu01 '{SERVE}'", "gpu01", True),
        ("ssh gpu01 nvidia-smi", "gpu01", False),
    ]
    assert [(e["kind"], e["message"][:40]) for e in doc["errors"]] == [
        ("timeout", "shell tool terminated command after exce"),
        ("tool_error", "No changes to apply: oldString and newSt")]
    assert "SD101" in {f["code"] for f in doc["findings"]}
    assert {(m["name"], m["value"]) for m in doc["metrics"]} >= {("throughput", 54.8)}
    (session,) = doc["sessions"]
    assert session["first_timestamp"] == "2026-05-20T20:13:08"


def test_the_answers_example_block_is_no_call(tmp_path):
    """A shell block in the answer's prose is an example; only **Tool:** blocks are calls."""
    commands = [c["command"] for c in analyze_path(_export(tmp_path / "s.md")).to_json()["commands"]]
    assert "python3 -m sglang.launch_server --speculative-num-steps 3" not in commands


def test_detection_needs_opencode_s_session_line(tmp_path):
    export = _export(tmp_path / "a.md")
    (source,) = discover(export)
    assert source.format == "text" and source.specstory
    plain = tmp_path / "notes.md"
    plain.write_text("# Notes\n\n**Session:** tuesday\n\n## User\n\nhello\n", encoding="utf-8")
    (source,) = discover(plain)
    assert source.format == "text" and not source.specstory

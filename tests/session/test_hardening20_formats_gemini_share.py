"""The Markdown Gemini CLI's ``/chat share FILE.md`` writes is read as that export: its ``**Tool
Command**`` and ``**Tool Response**`` JSON blocks are the calls and their results (a shell call's
report gives its exit code, the crash in it is an error), and a shell block in the model's text
is its proposal, not a command. Before, it was read as a Markdown log: the proposal was the one
command, the call that ran none, the CUDA error in its output not seen. The export's shape:
google-gemini/gemini-cli ``packages/cli/src/ui/utils/historyExportUtils.ts``
``serializeHistoryToMarkdown`` (``## USER 🧑‍💻`` / ``## MODEL ✨``, parts joined, ``---``
between turns); the shell report as ``tests/data/transcripts_hardening19`` has it."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

REPORT = ("Command: ssh gpu01 tail -n 5 /tmp/sglang.log\nDirectory: (root)\n"
          "Output: RuntimeError: CUDA error: out of memory\nError: (none)\nExit Code: 1")


def _turn(role: str, parts: list[dict]) -> str:
    text = "".join(p["text"] if "text" in p else
                   "**Tool Command**:\n```json\n" + json.dumps(p["functionCall"], indent=2) + "\n```"
                   if "functionCall" in p else
                   "**Tool Response**:\n```json\n" + json.dumps(p["functionResponse"], indent=2) + "\n```"
                   for p in parts)
    return f"## {role.upper()} {'🧑‍💻' if role == 'user' else '✨'}\n\n{text}"


def _export(tmp_path: Path, setup_lines: int = 0) -> Path:
    setup = "This is the Gemini CLI. We are setting up the context for our chat.\n" + \
        "".join(f"  - dir{i}/\n" for i in range(setup_lines))
    history = [
        ("user", [{"text": setup}]) if setup_lines else None,
        ("user", [{"text": "why does sglang on gpu01 crash?"}]),
        ("model", [{"text": "Let me read the log.\n\n```bash\nssh gpu01 nvidia-smi\n```\nwould help too.\n"},
                   {"functionCall": {"name": "run_shell_command",
                                     "args": {"command": "ssh gpu01 tail -n 5 /tmp/sglang.log"}}}]),
        ("user", [{"functionResponse": {"name": "run_shell_command", "response": {"output": REPORT}}}]),
        ("model", [{"text": "The server ran out of GPU memory."}]),
    ]
    path = tmp_path / "gemini-share.md"
    path.write_text("\n\n---\n\n".join(_turn(r, p) for r, p in filter(None, history)), encoding="utf-8")
    return path




def test_a_shared_chat_has_its_call_exit_code_and_error(tmp_path):
    a = analyze_path(_export(tmp_path))
    assert [(c.host, c.exit_code, c.command) for c in a.commands] == [
        ("gpu01", 1, "ssh gpu01 tail -n 5 /tmp/sglang.log")]
    assert any(e.kind == "cuda_oom" for e in a.errors)
    assert [p.text for p in a.prompts] == ["why does sglang on gpu01 crash?"]


def test_a_long_setup_turn_first_still_reads_as_the_export(tmp_path):
    a = analyze_path(_export(tmp_path, setup_lines=300))
    assert [c.command for c in a.commands] == ["ssh gpu01 tail -n 5 /tmp/sglang.log"]

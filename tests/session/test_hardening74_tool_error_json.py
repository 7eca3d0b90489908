"""A tool other than the shell that failed and said so in the JSON it returned: Hermes Agent's
tools answer ``{"error": "<why>"}`` (NousResearch/hermes-agent ``tools/registry.py``,
``tool_error``; ``read_file`` of a path it cannot read, ``process`` without a session id), and
tools written to its plugin interface, like many tools of one's own, ``{"success": false, "error":
"<why>"}``. Its session files keep that JSON as the ``role: tool`` content.

Before: such a result read as a success: the draft's config that could not be read left no error
in the postmortem. Now the call failed, and its error is the reason the tool gave. A result that
only holds an ``error`` key beside a successful output (``"error": null``), and the shell's JSON
(its exit code decides), are unchanged."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

MISSING = "File not found: /models/eagle3-draft/config.json"


def _session(tmp_path: Path, calls: list[tuple[str, dict, object]]) -> Path:
    messages = [{"role": "user", "content": "why does the EAGLE-3 draft not load?"}]
    for i, (tool, arguments, result) in enumerate(calls):
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {"name": tool, "arguments": json.dumps(arguments)}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps(result, ensure_ascii=False)})
    messages.append({"role": "assistant", "content": "The draft's config is missing."})
    path = tmp_path / "session_20261102_080000_d4e5f6.json"
    path.write_text(json.dumps({"session_id": "20261102_080000_d4e5f6", "messages": messages}))
    return path


def test_a_tool_that_answered_an_error_failed(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        ("read_file", {"path": "/models/eagle3-draft/config.json"}, {"error": MISSING}),
        ("structkit_generate", {"template": "x"}, {"success": False, "error": "template 'x' not found"}),
        ("read_file", {"path": "/models/eagle3-draft/README.md"},
         {"content": "1|# draft", "total_lines": 1, "error": None}),
    ]))
    assert [e.message for e in a.errors] == [MISSING, "template 'x' not found"]
    assert a.stats["errors"] == 2


def test_the_shell_json_is_read_by_its_exit_code(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        ("terminal", {"command": "ls /models"}, {"output": "eagle3-draft\n", "exit_code": 0, "error": None}),
    ]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [("ls /models", 0, False)]
    assert a.errors == []


def test_a_shell_printing_an_api_error_is_its_output(tmp_path: Path) -> None:
    # curl's output is the server's JSON: the shell said nothing of its own exit status
    body = {"error": "The model `eagle3` does not exist."}
    a = analyze_path(_session(tmp_path, [("bash", {"command": "curl -s localhost:30000/v1/models"}, body)]))
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(None, False)]

"""analyze: Claude Code's refusal of a call (``<tool_use_error>...</tool_use_error>``) reads as its
words, not as its markup's first line.

Before: "<tool_use_error>File does not exist. Did you mean config.yaml?</tool_use_error>" was the
error message as it stood, tags and all, and "InputValidationError: Bash failed due to the
following issue:" stopped there, before the line that says which issue.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer


def _refused(m: _Writer, name: str, tool_input: dict, output: str) -> None:
    """A call and the CLI's refusal of it, as Claude Code writes them (is_error, the markup)."""
    tool_id = f"toolu_main_{m.n + 1:05d}"
    m.assistant({"type": "tool_use", "id": tool_id, "name": name, "input": tool_input})
    env = m._env("user")
    env["message"] = {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": tool_id, "content": output, "is_error": True}]}
    env["toolUseResult"] = "Error: " + output.removeprefix("<tool_use_error>").removesuffix("</tool_use_error>")
    m._add(env)


def test_the_refusals_words_are_the_message(tmp_path):
    m = _Writer("9a1b0000-0000-4000-8000-00000000c039", None, datetime(2026, 3, 6, 9, 0, tzinfo=timezone.utc))
    m.prompt("Check the draft's config on this machine.")
    _refused(m, "Read", {"file_path": "/models/draft/config.json"},
             "<tool_use_error>File does not exist. Did you mean config.yaml?</tool_use_error>")
    _refused(m, "Edit", {"file_path": "/models/draft/run.sh", "old_string": "--speculative-num-steps 1",
                         "new_string": "--speculative-num-steps 3"},
             "<tool_use_error>String to replace not found in file.\nString: --speculative-num-steps 1</tool_use_error>")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    assert [(e.kind, e.message) for e in analyze_path(path).errors] == [
        ("tool_error", "File does not exist. Did you mean config.yaml?"),
        ("tool_error", "String to replace not found in file. String: --speculative-num-steps 1")]


def test_a_validation_error_says_which_issue_and_a_denial_stays_one():
    said = extract_errors("<tool_use_error>InputValidationError: Bash failed due to the following issue:\n"
                          "The required parameter `command` is missing</tool_use_error>", None, True)
    assert [(e.kind, e.message) for e in said] == [
        ("tool_error", "InputValidationError: Bash failed due to the following issue: "
                       "The required parameter `command` is missing")]
    denied = extract_errors("<tool_use_error>Permission for this command was denied by the user</tool_use_error>",
                            None, True)
    assert [e.kind for e in denied] == ["denied"]

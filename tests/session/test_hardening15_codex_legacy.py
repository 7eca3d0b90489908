"""A Codex rollout of September 2025 (no envelope; shell output as plain text), in the shape of a
real one (AcidicSoil/codex-session-viewer ``docs/example.jsonl``, 1,370 lines, no license: the
sample in tests/session/data_h15/ is written anew):

- a command the sandbox stopped, or that failed inside it, comes back as ``failed in sandbox
  LinuxSeccomp with execution error: sandbox denied exec error, exit code: N, stdout: …, stderr: …``
  (openai/codex ``codex-rs/core/src/error.rs``): it was a command with no exit code and no error;
- a failed MCP call comes back as ``tool call error: …`` (``codex-rs/core/src/mcp_tool_call.rs``):
  it was a call that worked.
"""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ROLLOUT = Path(__file__).parent / "data_h15" / "rollout-2025-09-10T18-58-38-legacy-sandbox.jsonl"


def test_a_command_that_failed_in_the_sandbox_keeps_its_exit_code() -> None:
    a = analyze_path(ROLLOUT)
    assert a.format == "codex"
    pytest_run, ls = a.commands
    assert pytest_run.command == "python -m pytest -q tests/test_eagle3.py"
    assert (pytest_run.exit_code, pytest_run.is_error) == (1, True)
    assert (ls.exit_code, ls.is_error) == (0, False)
    assert pytest_run.seq in {e.command_seq for e in a.errors}


def test_a_failed_mcp_call_is_a_failed_call() -> None:
    a = analyze_path(ROLLOUT)
    (main,) = a.agents
    assert (main["tool_calls"], main["failed_calls"]) == (3, 2)
    assert a.stats["errors"] == 2

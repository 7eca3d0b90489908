"""Claude Code's ``/export`` draws a failed call's result as "Error: ..." (``⎿  Error: Exit code 1``),
so a Bash result drawn without it is a command that exited 0 (the CLI's Bash tool sets
``is_error`` on a non-zero exit; the export is the screen's drawing of it, as
formats/claude_export.py reads it). Before: the export is analysed as a text log, every status
unknown, so `curl -s localhost:30000/health || true` that printed curl's refusal and exited 0 was a
failed command with a connection error. Now a Bash result without "Error" is the 0 it was; a
background shell's poll (BashOutput: never an error, its status in its text) stays unknown."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

EXPORT = """> is the draft server up on :30000?

⏺ Bash(curl -s localhost:30000/health || true)
  ⎿  curl: (7) Failed to connect to localhost port 30000 after 0 ms: Couldn't connect to server

⏺ Bash(python3 -m sglang.launch_server --port 30000 > srv.log 2>&1)
  ⎿  Error: Exit code 1
     Traceback (most recent call last):
     RuntimeError: CUDA error: out of memory

⏺ BashOutput(bash_1)
  ⎿  <status>failed</status>
     <exit_code>1</exit_code>
     <stderr>RuntimeError: NCCL error: unhandled system error</stderr>
"""


def test_a_result_drawn_without_error_is_a_success(tmp_path: Path) -> None:
    path = tmp_path / "export.txt"
    path.write_text(EXPORT, encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["is_error"], c["exit_code"]) for c in doc["commands"]] == [
        ("curl -s localhost:30000/health || true", False, 0),
        ("python3 -m sglang.launch_server --port 30000 > srv.log 2>&1", True, 1),
        ("bash_1", True, None)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom", "nccl"]

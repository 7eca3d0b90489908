"""A ``[msg N]`` transcript of a Codex session (or of an agent loop that reports statuses the same
way) holds its tool messages as the agent got them: ``Exit code: 255`` then ``Wall time`` and
``Output:`` (openai/codex ``codex-rs/core/src/tools/mod.rs`` ``format_exec_output_str``), or unified
exec's ``Process exited with code 1``. Only Claude Code's ``Exit code 255`` (no colon) was read,
so these commands had no exit code; a status line in the message's header, or as its last line,
is the command's now, as in a chat tool message."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """[msg 1] user: why is EAGLE-3 slow on gpu41?
[msg 2] assistant: [bash] ssh gpu42 nvidia-smi
[msg 3] tool: Exit code: 255
Wall time: 0.1 seconds
Output:
ssh: Could not resolve hostname gpu42: Name or service not known
[msg 4] assistant: [bash] ssh gpu41 "python -c 'import sglang'"
[msg 5] tool: Chunk ID: 7f2a
Wall time: 0.4 seconds
Process exited with code 1
Original token count: 30
Output:
ModuleNotFoundError: No module named 'sglang'
[msg 6] assistant: [bash] ssh gpu41 nvidia-smi -L
[msg 7] tool: GPU 0: NVIDIA H100 80GB HBM3
Exit code: 0
[msg 8] assistant: sglang is missing on gpu41.
"""


def test_codex_status_lines_in_tool_messages_are_exit_codes(tmp_path: Path) -> None:
    path = tmp_path / "codex-session.log"
    path.write_text(LOG)
    a = analyze_path(path)
    assert [(c.seq, c.command, c.exit_code, c.is_error) for c in a.commands] == [
        (2, "ssh gpu42 nvidia-smi", 255, True),
        (4, "ssh gpu41 \"python -c 'import sglang'\"", 1, True),
        (6, "ssh gpu41 nvidia-smi -L", 0, False),
    ]
    assert [(e.seq, e.kind, e.host) for e in a.errors] == [(3, "connection", "gpu42"), (5, "exception", "gpu41")]

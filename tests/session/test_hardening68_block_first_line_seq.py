"""A Markdown note whose first lines are inside a code block, a ``#`` comment or a line of a plain
block, before the block's first command. Before: that first line was read as a note (a text event)
at seq 0, block 0 without starting a message, and the command after it started "the next message"
at seq 0 again, block 0: two events with one (seq, block), the command's ``[msg 0]`` the note's
too. Now a seq that an event took is never the next message's: the command is seq 1."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.events import ReadStats
from spec_debug.session.formats import text_log
from spec_debug.session.formats.common import Cursor

LAUNCH = "python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 --port 30000"


@pytest.mark.parametrize("block", [
    "```bash\n# launch the server\n" + LAUNCH + "\n```\n",
    "```\nOn the H100 node:\n$ " + LAUNCH + "\nValueError: speculative_eagle_topk must be set\n```\n",
])
def test_the_command_after_a_blocks_first_line_has_a_seq_of_its_own(tmp_path: Path, block: str) -> None:
    path = tmp_path / "notes.md"
    path.write_text(block)
    events = list(text_log.read(path, Cursor(session="notes", agent="main", file=str(path)), ReadStats()))
    keys = [(e.seq, e.block) for e in events]
    assert len(keys) == len(set(keys)), keys
    [call] = [e for e in events if e.kind == "tool_call"]
    [note] = [e for e in events if e.kind == "text"]
    assert (note.seq, call.seq, call.command) == (0, 1, LAUNCH)
    assert [c.seq for c in analyze_path(path).commands] == [1]

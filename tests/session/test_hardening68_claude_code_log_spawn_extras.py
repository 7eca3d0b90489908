"""claude-code-log 1.7.0's HTML puts a Task call's other spawn fields in a card after its prompt
(``html/teammate_formatter.py`` ``format_task_input_teammate_extras``: ``<dl
class="teammate-tool-card teammate-spawn-card"><dt>Run</dt><dd>background</dd></dl>`` for a
background agent; Teammate, Team, Mode alike). The page is a real recording (see
test_hardening68_claude_code_log_async_result). Before: the card's words ended the prompt,
"run the EAGLE-3 bench on gpu01\\nRunbackground", where the session's JSONL gives the prompt alone."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session.agents import AgentTree
from spec_debug.session.events import ReadStats
from spec_debug.session.sources import discover, iter_events

DATA = Path(__file__).parent / "data_h68_async"


def _task_calls(path: Path) -> list[tuple]:
    tree, out = AgentTree(), []
    for source in discover(path):
        for ev in iter_events(source, ReadStats(), tree):
            if ev.kind == "tool_call" and ev.spawn is not None:
                out.append((ev.call_id, ev.text, ev.spawn.description, ev.spawn.agent_type))
    return out


def test_a_background_task_prompt_is_the_prompt_alone():
    expected = [("toolu_A", "run the EAGLE-3 bench on gpu01", "bench gpu01", "general-purpose")]
    assert _task_calls(DATA / "failed-file.html") == expected
    # as the session's own JSONL gives it
    assert _task_calls(DATA / "jsonl" / "-w") == expected

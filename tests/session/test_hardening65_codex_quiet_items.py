"""Response items of current Codex CLIs that hold nothing to read: ``additional_tools{role,
tools}`` (tool definitions handed to the model mid-session), ``context_compaction{id,
encrypted_content}`` (the opaque context a remote compaction returned; the ``compacted`` line
is the compaction), ``compaction_trigger`` and ``configuration_update{reasoning}`` (openai/codex
``codex-rs/protocol/src/models.rs`` ``ResponseItem``; ``AdditionalTools`` and
``ContextCompaction`` persisted by ``codex-rs/rollout/src/policy.rs``). Each was counted as an
"unknown line type", as if the reader had missed an item newer than itself."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.events import MAIN_AGENT, ReadStats
from spec_debug.session.formats import codex
from spec_debug.session.formats.common import Cursor

T = "019c0000-0000-7000-8000-000000000066"


def _read(tmp_path: Path, items: list[dict]):
    lines = [{"timestamp": "2026-11-02T08:00:00.000Z", "type": "session_meta",
              "payload": {"id": T, "cwd": "/srv", "originator": "codex_cli_rs", "cli_version": "0.160.0"}}]
    lines += [{"timestamp": f"2026-11-02T08:00:{i + 1:02d}.000Z", "type": "response_item", "payload": item}
              for i, item in enumerate(items)]
    lines.append({"timestamp": "2026-11-02T08:00:30.000Z", "type": "compacted",
                  "payload": {"message": "", "replacement_history": []}})
    path = tmp_path / f"rollout-2026-11-02T08-00-00-{T}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    stats = ReadStats()
    return list(codex.read(path, Cursor(session="s", agent=MAIN_AGENT, file=str(path)), stats)), stats


KNOWN = [
    {"type": "additional_tools", "role": "developer", "tools": [{"type": "function", "name": "deploy"}]},
    {"type": "context_compaction", "id": "cc_2", "encrypted_content": "gAAAA"},
    {"type": "compaction_trigger"},
    {"type": "configuration_update", "reasoning": {"effort": "high"}},
]


def test_items_of_current_clis_are_no_unknown_types(tmp_path: Path) -> None:
    events, stats = _read(tmp_path, KNOWN)
    assert stats.unknown_types == 0
    assert [e.kind for e in events[1:-1]] == ["other"] * 4
    assert [e.kind for e in events].count("compaction") == 1  # the compacted line, once


def test_an_item_newer_than_the_reader_is_still_counted(tmp_path: Path) -> None:
    _events, stats = _read(tmp_path, [*KNOWN, {"type": "brand_new_future_item", "x": 1}])
    assert stats.unknown_types == 1

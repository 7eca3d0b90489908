"""A Claude Code line whose ``toolUseResult`` holds a field in a shape the CLI never writes (a line a
converter or a hand edit made): the analysis reads around it, never stops. A Bash result whose
``returnCodeInterpretation`` was a list ended the whole analysis with "TypeError: unhashable type:
'list'" (the field is looked up in a set of the CLI's words: "No matches found", "Files differ")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

SID = "aaaa7474-0000-4000-8000-000000000001"
GREP = "grep -r eagle3 /root/.cache/huggingface/hub"


def _session(path: Path, result: dict) -> Path:
    env = {"sessionId": SID, "cwd": "/w", "version": "2.1.118", "isSidechain": False, "userType": "external"}
    rows = [{**env, "type": "user", "uuid": "u0", "parentUuid": None, "timestamp": "2026-05-01T10:00:00Z",
             "message": {"role": "user", "content": "is the draft model in the cache?"}},
            {**env, "type": "assistant", "uuid": "a0", "parentUuid": "u0", "timestamp": "2026-05-01T10:00:01Z",
             "message": {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "Bash",
                                                           "input": {"command": GREP}}]}},
            {**env, "type": "user", "uuid": "r0", "parentUuid": "a0", "timestamp": "2026-05-01T10:00:02Z",
             "toolUseResult": result, "message": {"role": "user", "content": [
                 {"type": "tool_result", "tool_use_id": "toolu_1", "content": "(no output)"}]}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


@pytest.mark.parametrize("said", [["No matches found"], {"text": "No matches found"}, 1])
def test_an_odd_return_code_interpretation_is_read_around(tmp_path: Path, said: object) -> None:
    path = _session(tmp_path / f"{SID}.jsonl", {"stdout": "", "stderr": "", "interrupted": False,
                                                "returnCodeInterpretation": said})
    (command,) = analyze_path(path).to_json()["commands"]  # was TypeError: unhashable type: 'list' / 'dict'
    assert (command["command"], command["exit_code"]) == (GREP, 0)


def test_the_cli_s_own_words_still_mean_exit_1(tmp_path: Path) -> None:
    path = _session(tmp_path / f"{SID}.jsonl", {"stdout": "", "stderr": "", "interrupted": False,
                                                "returnCodeInterpretation": "No matches found"})
    (command,) = analyze_path(path).to_json()["commands"]
    assert command["exit_code"] == 1

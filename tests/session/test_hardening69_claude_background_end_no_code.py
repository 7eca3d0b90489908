"""A background shell command whose ``<task-notification>`` gives no exit code. Claude Code says
how a command started with ``run_in_background`` ended in the notification's ``<summary>``; it
adds the code only where it has one: ``Background command "…" failed with exit code 1``,
``… completed (exit code 0)``, else ``Background command "…" completed`` or ``… failed`` alone
(ports of the CLI's shell task build the summary so; session readers quote ``Background command
\\"npm test\\" completed`` from real sessions; a port writes ``failed with exit code unknown``).

``data_h69_bg_nocode`` holds a 2.1.240-shaped session (three server launches in the background
whose notifications say ``failed``, ``failed with exit code unknown`` and ``completed``) and its
page by claude-code-log 1.7.0 (PyPI, ``-f md``: a real recording).

Before: such a notification ended nothing: each launch was still running, no error (formats
.claude_code ``_task_notification`` took an end only with a code in the summary)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path

DATA = Path(__file__).parent / "data_h69_bg_nocode"
JSONL = DATA / "jsonl" / "-w" / "b2020800-0000-4000-8000-0000000000c7.jsonl"
STREAM = (Path(__file__).resolve().parents[1] / "data" / "transcripts_newest"
          / "c3d4e5f6-0000-4000-8000-00000000b006.jsonl")


def _commands(path: Path) -> tuple[list, list]:
    doc = analyze_path(path).to_json()
    return ([(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]],
            [(e["seq"], e["command_seq"], e["host"]) for e in doc["errors"]])


ENDS = ([(1, "gpu01", None, True, 7), (3, "gpu02", None, True, 9), (5, "gpu03", 0, False, 11)],
        [(7, 1, "gpu01"), (9, 3, "gpu02")])


@pytest.mark.parametrize("path", [JSONL, DATA / "bg-nocode.md"], ids=["jsonl", "page"])
def test_a_notification_without_an_exit_code_still_ends_its_command(path):
    # "failed": a failure of unknown code; "completed": the CLI's word for a clean end
    assert _commands(path) == ENDS


def test_a_command_stopped_by_hand_still_gets_no_end(tmp_path):
    text = JSONL.read_text(encoding="utf-8")
    old = '<status>completed</status>\\n<summary>Background command \\"Launch server gpu03\\" completed</summary>'
    assert text.count(old) == 1
    path = tmp_path / JSONL.name
    path.write_text(text.replace(old, old.replace("completed</status>", "killed</status>")
                                 .replace('" completed<', '" was stopped<')), encoding="utf-8")
    assert _commands(path)[0][2] == (5, "gpu03", None, False, None)


def test_stream_jsons_task_notification_without_an_exit_code_ends_its_command(tmp_path):
    lines = [json.loads(line) for line in STREAM.read_text(encoding="utf-8").splitlines()]
    (note,) = [line for line in lines if line.get("subtype") == "task_notification"]
    assert note["summary"].endswith(" failed with exit code 1")
    note["summary"] = note["summary"].removesuffix(" with exit code 1")
    path = tmp_path / STREAM.name
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    assert _commands(path) == ([(1, "gpu01", None, True, 5)], [(5, 1, "gpu01")])

"""A Codex session forked (``/fork``, or Esc Esc to edit an earlier prompt) by a CLI of late 2025,
before ``session_meta`` had ``forked_from_id``: the fork's rollout is its own ``session_meta``, then
the origin's ``session_meta`` and history copied whole (openai/codex ``conversation_manager.rs``
``fork_conversation`` persisted the source rollout's items, ``InitialHistory::Forked``), then the
fork's own turns. Before: nothing named the origin, so the copy was read as the fork's own work:
analyzing the day folder listed the origin's commands twice (once per session, the copy at the
time of the fork) and the fork began at the origin's start. Now the origin's ``session_meta``
right after the fork's own names the thread it was forked from, and the copy is skipped as it is
for a fork that names its origin."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

ORIGIN = "0199a111-aaaa-7aaa-8aaa-000000000001"
FORK = "0199a111-dddd-7ddd-8ddd-000000000004"


def _line(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": ts, "type": kind, "payload": payload}


def _turn(ts: str, turn: str, prompt: str, call: str, cmd: str, output: str, code: int) -> list[dict]:
    return [
        _line(ts, "turn_context", {"turn_id": turn, "model": "gpt-5-codex", "cwd": "/work"}),
        _line(ts, "response_item", {"type": "message", "role": "user",
                                    "content": [{"type": "input_text", "text": prompt}]}),
        _line(ts, "response_item", {"type": "function_call", "name": "shell", "call_id": call,
                                    "arguments": json.dumps({"command": ["bash", "-lc", cmd]})}),
        _line(ts, "response_item", {"type": "function_call_output", "call_id": call,
                                    "output": json.dumps({"output": output, "metadata": {"exit_code": code}})}),
    ]


def _meta(ts: str, thread: str) -> dict:
    return _line(ts, "session_meta", {"id": thread, "timestamp": ts, "cwd": "/work", "originator": "codex_cli_rs",
                                      "cli_version": "0.46.0", "instructions": None})


ORIGIN_META = _meta("2025-10-12T08:00:00.000Z", ORIGIN)
TURN1 = _turn("2025-10-12T08:00:02.000Z", "t1", "EAGLE-3 is slower on gpu01; find out why", "call_1",
              "ssh gpu01 nvidia-smi", "ok", 0)
TURN2 = _turn("2025-10-12T08:00:06.000Z", "t2", "restart the server", "call_2",
              "ssh gpu01 systemctl restart sglang", "Failed to restart sglang.service", 1)
FORKED_AT = "2025-10-12T08:10:00.000Z"
OWN = "ssh gpu01 'systemctl restart sglang && journalctl -u sglang -n 20'"
FORK_LINES = [
    _meta(FORKED_AT, FORK),  # no forked_from_id: the CLI of the time wrote none
    # Esc Esc back to the second prompt: the origin's rollout up to it, copied at the time of the fork
    *[{**line, "timestamp": FORKED_AT} for line in [ORIGIN_META, *TURN1]],
    *_turn("2025-10-12T08:10:02.000Z", "t3", "restart it with --speculative-num-steps 3", "call_3", OWN,
           "Started sglang.service", 0),
]


def _write(folder, name, lines):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text("".join(json.dumps(x) + "\n" for x in lines))


def _home(tmp_path, fork_day="12"):
    sessions = tmp_path / ".codex" / "sessions"
    _write(sessions / "2025" / "10" / "12", f"rollout-2025-10-12T08-00-00-{ORIGIN}.jsonl",
           [ORIGIN_META, *TURN1, *TURN2])
    _write(sessions / "2025" / "10" / fork_day, f"rollout-2025-10-{fork_day}T08-10-00-{FORK}.jsonl", FORK_LINES)
    return sessions


def test_the_day_folder_reads_the_copied_history_once(tmp_path):
    doc = analyze_path(_home(tmp_path) / "2025" / "10" / "12").to_json()
    assert [(c["session"][-4:], c["timestamp"], c["command"]) for c in doc["commands"]] == [
        ("0001", "2025-10-12T08:00:02.000Z", "ssh gpu01 nvidia-smi"),
        ("0001", "2025-10-12T08:00:06.000Z", "ssh gpu01 systemctl restart sglang"),
        ("0004", "2025-10-12T08:10:02.000Z", OWN)]
    assert [(s["id"][-4:], s["first_timestamp"]) for s in doc["sessions"]] == [
        ("0001", "2025-10-12T08:00:00.000Z"), ("0004", FORKED_AT)]


@pytest.mark.parametrize("named", ["day-folder", "fork-file"])
def test_a_fork_of_another_day_keeps_only_its_own_work(tmp_path, named):
    day = _home(tmp_path, fork_day="13") / "2025" / "10" / "13"
    doc = analyze_path(day if named == "day-folder" else next(day.glob("rollout-*.jsonl"))).to_json()
    (session,) = doc["sessions"]
    assert session["id"].endswith(FORK)
    assert [c["command"] for c in doc["commands"]] == [OWN]


def test_a_fork_whose_origin_is_nowhere_says_what_it_was_forked_from(tmp_path):
    fork = tmp_path / f"rollout-2025-10-12T08-10-00-{FORK}.jsonl"  # copied out of its Codex home
    fork.write_text("".join(json.dumps(x) + "\n" for x in FORK_LINES))
    doc = analyze_path(fork).to_json()
    assert doc["agents"][0]["description"] == (f"forked from Codex thread {ORIGIN} (its rollout not found: the "
                                               "history copied from it is read as this session's)")
    assert len(doc["commands"]) == 2


def test_a_session_without_a_copied_meta_is_no_fork(tmp_path):
    _write(tmp_path, f"rollout-2025-10-12T08-00-00-{ORIGIN}.jsonl", [ORIGIN_META, *TURN1, *TURN2])
    doc = analyze_path(tmp_path).to_json()
    assert doc["agents"][0]["description"] == ""
    assert len(doc["commands"]) == 2

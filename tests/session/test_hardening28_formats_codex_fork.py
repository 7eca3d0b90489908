"""A Codex session forked from one of another day (``/fork``, or Esc Esc to edit an earlier prompt, a
day after the session began): the fork's rollout, in ``sessions/2026/05/13/``, is headed by a copy of
its origin's history (the origin's ``session_meta`` and lines, stamped with the time of the fork),
and the origin's rollout is in ``sessions/2026/05/12/``. Before: the day folder or the fork named
alone read the copy as the fork's own work, its commands and prompt again, at 08:10 the next day.
Now the origin is found in the same sessions tree by the thread id that ends its name (as Codex finds
a thread's rollout: openai/codex ``codex-rs/core/src/rollout/list.rs``) and the copy is skipped."""

from __future__ import annotations

import json

import pytest

from spec_debug.session import analyze_path

ORIGIN = "019a1111-aaaa-7aaa-8aaa-000000000001"
FORK = "019a1111-dddd-7ddd-8ddd-000000000004"


def _line(ts: str, kind: str, payload: dict) -> dict:
    return {"timestamp": ts, "type": kind, "payload": payload}


def _turn(ts: str, turn: str, prompt: str, call: str, cmd: str, output: str, code: int) -> list[dict]:
    return [
        _line(ts, "turn_context", {"turn_id": turn, "model": "gpt-5.1-codex", "cwd": "/work"}),
        _line(ts, "response_item", {"type": "message", "role": "user",
                                    "content": [{"type": "input_text", "text": prompt}]}),
        _line(ts, "response_item", {"type": "function_call", "name": "exec_command", "call_id": call,
                                    "arguments": json.dumps({"cmd": cmd})}),
        _line(ts, "response_item", {"type": "function_call_output", "call_id": call,
                                    "output": json.dumps({"output": output, "metadata": {"exit_code": code}})}),
    ]


ORIGIN_META = _line("2026-05-12T08:00:00.000Z", "session_meta",
                    {"id": ORIGIN, "cwd": "/work", "cli_version": "0.60.0", "source": "cli"})
TURN1 = _turn("2026-05-12T08:00:02.000Z", "t1", "EAGLE-3 is slower on gpu01; find out why", "call_1",
              "ssh gpu01 nvidia-smi", "ok", 0)
TURN2 = _turn("2026-05-12T08:00:06.000Z", "t2", "restart the server", "call_2",
              "ssh gpu01 systemctl restart sglang", "Failed to restart sglang.service", 1)
FORKED_AT = "2026-05-13T08:10:00.000Z"
FORK_LINES = [
    _line(FORKED_AT, "session_meta", {"id": FORK, "forked_from_id": ORIGIN, "cwd": "/work", "source": "cli"}),
    # Esc Esc back to the second prompt: the origin's history before it, copied at the time of the fork
    *[{**line, "timestamp": FORKED_AT} for line in [ORIGIN_META, *TURN1]],
    *_turn("2026-05-13T08:10:02.000Z", "t3", "restart it with --speculative-num-steps 3", "call_3",
           "ssh gpu01 'systemctl restart sglang && journalctl -u sglang -n 20'", "Started sglang.service", 0),
]


def _home(tmp_path):
    sessions = tmp_path / ".codex" / "sessions"
    for day, name, lines in (("12", f"rollout-2026-05-12T08-00-00-{ORIGIN}.jsonl", [ORIGIN_META, *TURN1, *TURN2]),
                             ("13", f"rollout-2026-05-13T08-10-00-{FORK}.jsonl", FORK_LINES)):
        folder = sessions / "2026" / "05" / day
        folder.mkdir(parents=True)
        (folder / name).write_text("".join(json.dumps(x) + "\n" for x in lines))
    return sessions


@pytest.mark.parametrize("named", ["day-folder", "fork-file"])
def test_a_fork_of_a_session_of_another_day_keeps_only_its_own_work(tmp_path, named):
    day = _home(tmp_path) / "2026" / "05" / "13"
    doc = analyze_path(day if named == "day-folder" else next(day.glob("rollout-*.jsonl"))).to_json()
    (session,) = doc["sessions"]
    assert session["id"].endswith(FORK)
    assert [(c["command"], c["timestamp"]) for c in doc["commands"]] == [
        ("ssh gpu01 'systemctl restart sglang && journalctl -u sglang -n 20'", "2026-05-13T08:10:02.000Z")]
    assert session["first_timestamp"] == FORKED_AT


def test_the_whole_tree_still_reads_each_command_once(tmp_path):
    doc = analyze_path(_home(tmp_path)).to_json()
    assert [(c["session"][-4:], c["command"]) for c in doc["commands"]] == [
        ("0001", "ssh gpu01 nvidia-smi"), ("0001", "ssh gpu01 systemctl restart sglang"),
        ("0004", "ssh gpu01 'systemctl restart sglang && journalctl -u sglang -n 20'")]


def test_a_fork_whose_origin_is_nowhere_says_so(tmp_path):
    fork = tmp_path / f"rollout-2026-05-13T08-10-00-{FORK}.jsonl"  # copied out of its Codex home
    fork.write_text("".join(json.dumps(x) + "\n" for x in FORK_LINES))
    doc = analyze_path(fork).to_json()
    assert doc["agents"][0]["description"] == (f"forked from Codex thread {ORIGIN} (its rollout not found: the "
                                               "history copied from it is read as this session's)")
    assert len(doc["commands"]) == 2  # the copy's command is read: it cannot be told from the fork's own

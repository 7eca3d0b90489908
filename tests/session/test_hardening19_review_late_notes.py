"""A sub-agent that started the same benchmark three times in the background and ended before
any of them: the CLI writes the three ends into the trunk in the order they finished, and they
are read after the sub-agent's whole file (095f759). They are one loop of failing runs, from
the first run to the last, whichever ended first."""

from __future__ import annotations

import multiprocessing
from pathlib import Path

import pytest

from spec_debug.session import parallel
from spec_debug.session.analysis import analyze_path
from spec_debug.session.postmortem import render_postmortem

import test_hardening19_gaps_background as bg


def _three_runs(tmp_path: Path, padding: int = 0) -> Path:
    notes = [bg._line(3 + n, "user", bg._note(f"bz{k}", f"toolu_S{k}", "failed", bg.FAILED))
             for n, k in enumerate((2, 1, 0))]  # the last started ended first
    runs = []
    for k in range(3):
        runs += [
            bg._line(10 + 2 * k, "assistant", [{"type": "tool_use", "id": f"toolu_S{k}", "name": "Bash", "input": {
                "command": bg.BENCH, "description": "Serving benchmark", "run_in_background": True}}], bg.AGENT),
            bg._line(11 + 2 * k, "user", [{"type": "tool_result", "tool_use_id": f"toolu_S{k}", "is_error": False,
                                           "content": f"Command running in background with ID: bz{k}. Output is "
                                                      f"being written to: /tmp/x/tasks/bz{k}.output."}], bg.AGENT),
        ]
    return bg._session(tmp_path, notes, runs, padding=padding)


def _shape(doc: dict) -> dict:
    runs = [c["seq"] for c in doc["commands"] if c["agent"] == bg.AGENT and c["exit_code"] == 1]
    [loop] = doc["loops"]
    return {"runs": runs, "loop": (loop["agent"], loop["count"], loop["first_seq"], loop["last_seq"])}


def test_three_background_runs_ended_in_the_trunk_are_one_loop_first_to_last(tmp_path):
    analysis = analyze_path(_three_runs(tmp_path))
    doc = analysis.to_json()
    shape = _shape(doc)
    first, *_, last = shape["runs"]
    assert len(shape["runs"]) == 3 and shape["loop"] == (bg.AGENT, 3, first, last)
    md = render_postmortem(analysis, "md")
    assert f"The same failing command ran 3 times [[msg {first}]](#msg-{first})…[[msg {last}]](#msg-{last})" in md
    for seg in doc["segments"]:
        assert seg["start_seq"] <= seg["end_seq"]
    for agent in doc["agents"]:
        assert agent["first_seq"] <= agent["last_seq"]
    [sub] = [a for a in doc["agents"] if a["id"] == bg.AGENT]
    assert (sub["failed_calls"], sub["errors"]) == (3, 3)


def test_worker_processes_find_the_same_loop(tmp_path, monkeypatch):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = _three_runs(tmp_path, padding=40)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = analyze_path(path).to_json()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 4096)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    many = analyze_path(path).to_json()
    assert many["loops"] == one["loops"] and many["commands"] == one["commands"]
    first, *_, last = _shape(many)["runs"]
    assert _shape(many)["loop"] == (bg.AGENT, 3, first, last)

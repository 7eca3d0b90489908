"""Layer ids printed without their key (``jq .eagle_aux_hidden_state_layer_ids config.json``
writes the list alone, one id a line; ``print(cfg["eagle_aux_hidden_state_layer_ids"])`` the
same in one line) were no layer ids, so the draft config's [1, 23, 44] was never compared with
the training run's [2, 24, 45]. The command names the key; the output is its value. Read the
same by the worker processes of a big file."""

from __future__ import annotations

import multiprocessing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path, parallel
from spec_debug.session.spec_facts import bare_layer_ids
from tests.session.incident_story import _Writer

SID = "ab510000-0000-4000-8000-000000000052"


def _session(tmp_path: Path, printed: tuple[str, str]) -> Path:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("Acceptance is low on gpu-a3")
    for n in range(6):
        w.bash(f"ssh gpu-a3 'ls /data/shard_{n:04d}'", "\n".join(f"sample_{i:05d}.pt" for i in range(40)))
    w.bash(*printed)
    w.bash("ssh gpu-a3 'grep layer_ids /m/train/run.yaml'", "aux_hidden_state_layer_ids: [2, 24, 45]")
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return path


@pytest.mark.parametrize("printed", [
    ("ssh gpu-a3 'jq .eagle_aux_hidden_state_layer_ids /m/draft/config.json'", "[\n  1,\n  23,\n  44\n]"),
    ("ssh gpu-a3 \"python3 -c 'import json; print(json.load(open(\\\"/m/draft/config.json\\\"))"
     "[\\\"eagle_aux_hidden_state_layer_ids\\\"])'\"", "[1, 23, 44]\n"),
])
def test_ids_printed_without_their_key_are_compared(tmp_path: Path, printed: tuple[str, str]) -> None:
    [finding] = analyze_path(_session(tmp_path, printed)).findings
    assert (finding.code, finding.host, finding.evidence) == (
        "SD202", "gpu-a3", ["[msg 14] layer ids [1, 23, 44] vs [msg 16] [2, 24, 45]"])


def test_the_same_by_worker_processes(tmp_path: Path, monkeypatch) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = _session(tmp_path, ("ssh gpu-a3 'jq .eagle_aux_hidden_state_layer_ids /m/draft/config.json'",
                               "[\n  1,\n  23,\n  44\n]"))
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 2048)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    assert [(f.code, f.host) for f in analyze_path(path).findings] == [("SD202", "gpu-a3")]


def test_only_a_bare_list_of_ids_is_read() -> None:
    assert bare_layer_ids("[\n  1,\n  23,\n  44\n]\n") == (1, 23, 44)
    assert bare_layer_ids("null") is None
    assert bare_layer_ids("[1]") is None  # one id is no layer list to compare
    assert bare_layer_ids('["1", "23"]') is None
    assert bare_layer_ids("[1, 2, 3]\n[4, 5, 6]") is None
    assert bare_layer_ids("jq: error: Could not open file config.json") is None

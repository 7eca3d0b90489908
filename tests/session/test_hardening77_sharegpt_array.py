"""Published ShareGPT sets are saved as one JSON array of trajectories (``[{"id",
"conversations": [...]}, ...]``, the dumps SGLang's and vLLM's benchmarks load among them), and a
list of Hermes runs may be kept the same way.

Before: such an array was one session, while the same trajectories one a line (JSONL) were a
session each: the second run's prompt a second request of the first's, its commands and failures
the first run's, the session's title the first prompt. Now each element is a session,
``<file>#<n>`` (n its place in the array, from 1: a compact array has one line for all), as each
line of the JSONL file is; an array of one trajectory is one session as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening76_sharegpt_lines import LAUNCH, RUNS


def test_each_trajectory_of_an_array_is_a_session(tmp_path: Path) -> None:
    path = tmp_path / "trajectories.json"
    path.write_text(json.dumps(RUNS, indent=2))
    a = analyze_path(path)
    assert [s["id"] for s in a.sessions] == ["trajectories#1", "trajectories#2", "trajectories#3"]  # was one
    assert [(p.session, p.text) for p in a.prompts] == [
        ("trajectories#1", "start the EAGLE-3 server"), ("trajectories#2", "list the GPUs"),
        ("trajectories#3", "read the draft's config")]
    assert [(c.session, c.command, c.exit_code, c.line) for c in a.commands] == [
        ("trajectories#1", LAUNCH, 1, 2), ("trajectories#2", "nvidia-smi -L", 0, 29),
        ("trajectories#3", "cat /models/draft/config.json", 1, 56)]
    assert [(s["events"], s["first_timestamp"]) for s in a.sessions] == [(5, "2026-11-02T08:00:00.123456")] * 3


def test_a_compact_array_is_parted_by_element(tmp_path: Path) -> None:
    path = tmp_path / "sharegpt.json"
    path.write_text(json.dumps([{"id": f"run{n}", **run} for n, run in enumerate(RUNS)]))
    a = analyze_path(path)
    assert [(c.session, c.command, c.line) for c in a.commands] == [
        ("sharegpt#1", LAUNCH, 1), ("sharegpt#2", "nvidia-smi -L", 1),
        ("sharegpt#3", "cat /models/draft/config.json", 1)]


def test_the_array_reads_as_its_jsonl(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "runs.json").write_text(json.dumps(RUNS))
    (tmp_path / "b" / "runs.jsonl").write_text("".join(json.dumps(run) + "\n" for run in RUNS))
    array, lines = analyze_path(tmp_path / "a"), analyze_path(tmp_path / "b")
    assert [(c.command, c.exit_code, c.is_error, c.seq, c.timestamp) for c in array.commands] == \
        [(c.command, c.exit_code, c.is_error, c.seq, c.timestamp) for c in lines.commands]
    assert [p.text for p in array.prompts] == [p.text for p in lines.prompts]


def test_two_arrays_of_one_name_keep_their_sessions_apart(tmp_path: Path) -> None:
    for host in ("gpu01", "gpu02"):
        (tmp_path / host).mkdir()
        (tmp_path / host / "trajectories.json").write_text(json.dumps(RUNS[:2]))
    assert sorted(s["id"] for s in analyze_path(tmp_path).sessions) == [
        "gpu01/trajectories#1", "gpu01/trajectories#2", "gpu02/trajectories#1", "gpu02/trajectories#2"]


def test_one_trajectory_is_one_session_as_before(tmp_path: Path) -> None:
    path = tmp_path / "trajectories.json"
    path.write_text(json.dumps(RUNS[:1]))
    a = analyze_path(path)
    assert [s["id"] for s in a.sessions] == ["trajectories"]
    assert [c.command for c in a.commands] == [LAUNCH]


def test_an_array_with_another_element_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps([*RUNS[:2], {"role": "user", "content": "and now?"}]))
    a = analyze_path(path)
    assert [s["id"] for s in a.sessions] == ["mixed"]
    assert [c.command for c in a.commands] == [LAUNCH, "nvidia-smi -L"]

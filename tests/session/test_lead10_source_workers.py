"""A folder of sessions is analysed a session per worker process; the analysis must be the
same, byte for byte, as the one-process pass, and bad input must say the same."""

from __future__ import annotations

import json
import multiprocessing
import shutil
import sys
from pathlib import Path

import pytest

from spec_debug.session import analyze_path, parallel, source_workers
from tests.session.incident_story import write_story

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts"
FORMATS = Path(__file__).resolve().parent / "data_h8" / "formats"
BENCH = Path(__file__).resolve().parents[2] / "bench"

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the worker processes are forked")


def _both(monkeypatch, path: Path, **kwargs) -> tuple[str, str, list]:
    monkeypatch.setattr(source_workers, "MIN_SESSIONS", 10**9)
    one = json.dumps(analyze_path(path, **kwargs).to_json(), indent=1, sort_keys=True)
    monkeypatch.setattr(source_workers, "MIN_SESSIONS", 1)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    used = []
    real = source_workers.ordered_results

    def spy(*args):
        used.append(args[2:])
        return real(*args)

    monkeypatch.setattr(source_workers, "ordered_results", spy)
    many = json.dumps(analyze_path(path, **kwargs).to_json(), indent=1, sort_keys=True)
    return one, many, used


def test_a_folder_of_mixed_sessions_is_the_same_with_workers(monkeypatch, tmp_path):
    folder = tmp_path / "sessions"
    shutil.copytree(DATA, folder / "public")
    for name in ("codex_exec_json_0.39.jsonl", "openhands_trajectory.json", "specstory_claude_code.md",
                 "chat_requests.jsonl"):
        shutil.copy(FORMATS / name, folder / name)
    write_story(folder / "story")
    one, many, used = _both(monkeypatch, folder)
    doc = json.loads(one)
    assert len(doc["sessions"]) >= 6 and doc["segments"] and doc["commands"] and doc["findings"]
    assert [s["index"] for s in doc["segments"]] == list(range(len(doc["segments"])))
    assert used, "the workers were not used"
    assert many == one


def test_a_large_session_in_the_folder_keeps_its_span_workers(monkeypatch, tmp_path):
    sys.path.insert(0, str(BENCH))
    from analyze_throughput import generate

    folder = tmp_path / "sessions"
    folder.mkdir()
    generate(folder / "big.jsonl", 0.6)
    for i in range(3):
        shutil.copy(DATA / "claude-code" / "representative_messages.jsonl", folder / f"small{i}.jsonl")
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 256 * 1024)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 64 * 1024)
    spans = []
    real_spans = parallel._parsed_in_workers

    def spy_spans(*args):
        spans.append(args[0].name)
        yield from real_spans(*args)

    monkeypatch.setattr(parallel, "_parsed_in_workers", spy_spans)
    one, many, used = _both(monkeypatch, folder)
    assert many == one
    assert spans == ["big.jsonl", "big.jsonl"]  # read by span workers in both passes, in this process
    assert used and json.loads(one)["stats"]["sessions"] == 4


def test_a_session_leaves_no_cyclic_garbage(tmp_path):
    # The pass runs with the cyclic collector off (analysis._without_cyclic_gc), so anything in
    # a cycle lives until the end: in a worker that analyses hundreds of sessions, each one's
    # state and records did (a closure over the state was such a cycle).
    import gc

    from spec_debug.session.analysis import analyze_source
    from spec_debug.session.sources import discover

    story = write_story(tmp_path / "story")
    (source,) = discover(story.session_file)
    was, debug = gc.isenabled(), gc.get_debug()
    gc.disable()
    try:
        gc.collect()
        part = analyze_source(source)
        assert part.analysis.commands and part.analysis.segments
        del part
        # What the collector finds, kept (DEBUG_SAVEALL) to say whose it is: only spec_debug's
        # objects count. A thread another test left in this xdist worker (a paramiko transport,
        # a relay) runs meanwhile, and a cycle it drops would be counted by gc.collect() too.
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        ours = [repr(o)[:120] for o in gc.garbage if _spec_debug_object(o)]
    finally:
        gc.set_debug(debug)
        gc.garbage.clear()
        if was:
            gc.enable()
    assert ours == []


def _spec_debug_object(obj: object) -> bool:
    """An instance of a spec_debug class, or a function defined in spec_debug (a closure)."""
    module = getattr(obj, "__module__", None) if callable(obj) and not isinstance(obj, type) else \
        getattr(type(obj), "__module__", None)
    return isinstance(module, str) and module.split(".")[0] == "spec_debug"

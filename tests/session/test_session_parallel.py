"""A large session is read by worker processes (spec_debug.session.parallel); the analysis
must be the same, byte for byte, as the one-process read: same seq and line numbers, same
sub-agents, same skips. The tests lower the size threshold so that small files, cut into
many spans, go through the workers."""

from __future__ import annotations

import json
import multiprocessing
import pickle
import sys
from pathlib import Path

import pytest

from spec_debug.session import analyze_path, parallel, reader
from spec_debug.session.events import ReadStats

sys.path.insert(0, str(Path(__file__).resolve().parent))
from incident_story import write_story  # noqa: E402

BENCH = Path(__file__).resolve().parents[2] / "bench"
DATA = Path(__file__).resolve().parent.parent / "data" / "transcripts"

pytestmark = pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(),
                                reason="the worker processes are forked")


def _both(monkeypatch, path: Path, span_bytes: int) -> tuple[str, str]:
    """The analysis JSON read in one process, then by workers over spans of ``span_bytes``."""
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = json.dumps(analyze_path(path).to_json(), indent=1)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", span_bytes)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    spans = []
    real = parallel._parsed_in_workers

    def spy(*args):
        for record in real(*args):
            spans.append(record[0])
            yield record

    monkeypatch.setattr(parallel, "_parsed_in_workers", spy)
    many = json.dumps(analyze_path(path).to_json(), indent=1)
    assert spans, "the workers did not run"
    return one, many


def test_incident_story_is_the_same_with_workers(monkeypatch, tmp_path):
    story = write_story(tmp_path)
    one, many = _both(monkeypatch, story.root, span_bytes=4096)
    assert json.loads(one)["stats"]["events"] > 4000
    assert many == one


def test_public_samples_are_the_same_with_workers(monkeypatch):
    one, many = _both(monkeypatch, DATA, span_bytes=512)
    assert many == one


def test_generated_bench_session_is_the_same_with_workers(monkeypatch, tmp_path):
    sys.path.insert(0, str(BENCH))
    from analyze_throughput import generate

    path = tmp_path / "bench.jsonl"
    generate(path, 0.5)
    one, many = _both(monkeypatch, path, span_bytes=16 * 1024)
    doc = json.loads(one)
    assert doc["metrics"] and doc["errors"] and doc["commands"]
    assert many == one


def _line(n: int, **extra) -> str:
    return json.dumps({"type": "user", "uuid": f"u{n}", "sessionId": "s", "timestamp": f"2026-01-01T00:00:{n % 60:02d}Z",
                       "message": {"role": "user", "content": [{"type": "text", "text": f"message {n}"}]}, **extra})


def test_skips_and_inline_sidechains_across_span_edges(monkeypatch, tmp_path):
    """Blank, broken, non-object and over-long lines keep their place in the numbering
    wherever the spans are cut; an inline sidechain run keeps its agent across an edge."""
    monkeypatch.setattr(reader, "MAX_LINE_BYTES", 400)  # inherited by the forked workers
    # ... only by forked ones: a forkserver (used when other threads run, as in a full test
    # session with SSH servers) starts from a clean import.
    monkeypatch.setattr(parallel, "_start_method", lambda: "fork")
    lines = []
    for n in range(120):
        if n % 17 == 5:
            lines.append("")
        elif n % 23 == 7:
            lines.append('{"type": "user", "message": ')
        elif n % 29 == 11:
            lines.append("[1, 2, 3]")
        elif n % 31 == 13:
            lines.append(_line(n) + " " * 500)  # longer than MAX_LINE_BYTES
        elif 40 <= n < 60:
            lines.append(_line(n, isSidechain=True))
        else:
            lines.append(_line(n))
    path = tmp_path / "edges.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for span in (150, 700, 5000):
        one, many = _both(monkeypatch, path, span_bytes=span)
        stats = json.loads(one)["stats"]
        assert stats["too_long"] and stats["broken_json"] and stats["non_object"]
        assert many == one, span


def test_spans_start_at_line_starts_and_cover_the_file(tmp_path):
    path = tmp_path / "lines.jsonl"
    body = b"".join(b"x" * (n * 37 % 300) + b"\n" for n in range(400)) + b"tail without newline"
    path.write_bytes(body)
    bounds = reader.line_starts(path, 1000)
    assert bounds[0] == 0 and bounds[-1] == len(body) and bounds == sorted(set(bounds))
    assert all(body[b - 1:b] == b"\n" for b in bounds[1:-1])
    whole, pieces = ReadStats(), ReadStats()
    expected = [raw for _, raw in reader.iter_lines(path, whole)]
    got = [raw for a, b in zip(bounds, bounds[1:]) for _, raw in reader.iter_lines(path, pieces, span=(a, b))]
    assert got == expected and pieces.lines == whole.lines == 401


def test_workers_run_from_a_forkserver_when_other_threads_are_alive(monkeypatch, tmp_path):
    import threading

    stop = threading.Event()
    helper = threading.Thread(target=stop.wait, daemon=True)
    helper.start()
    try:
        assert parallel._start_method() == "forkserver"
        story = write_story(tmp_path)
        one, many = _both(monkeypatch, story.session_file, span_bytes=256 * 1024)
        assert many == one
    finally:
        stop.set()
        helper.join()


def _assistant(n: int, *blocks: dict) -> str:
    return json.dumps({"type": "assistant", "uuid": f"a{n}", "sessionId": "s", "timestamp": "2026-01-01T00:00:00Z",
                       "message": {"role": "assistant", "content": list(blocks)}})


def test_the_reasoning_a_command_is_shown_with_survives_span_edges(monkeypatch, tmp_path):
    """Workers send the reasoning only of the blocks a command may quote (see
    parallel._reasoning_quoted): a thinking block replaced by a text, a text too far from
    the command, a text held at the end of a span and quoted in the next."""
    monkeypatch.setattr(parallel, "_start_method", lambda: "fork")
    lines, n = [], 0
    for round_ in range(40):
        think = {"type": "thinking", "thinking": f"Round {round_} thinking. Plan the next probe.", "signature": "x"}
        text = {"type": "text", "text": f"Round {round_}: the draft looks slow. Check layer ids on gpu-{round_}."}
        call = {"type": "tool_use", "id": f"t{round_}", "name": "Bash",
                "input": {"command": f"ssh gpu-{round_} 'cat /srv/config_{round_}.json'"}}
        shape = round_ % 5
        if shape == 0:  # thinking, text, call on separate lines: the text is quoted
            lines += [_assistant(n, think), _assistant(n + 1, text), _assistant(n + 2, call)]
            n += 3
        elif shape == 1:  # text then thinking on one line, then the call: the text stays held
            lines += [_assistant(n, text, think), _assistant(n + 1, call)]
            n += 2
        elif shape == 2:  # the text is 4 lines before the call: too far, no reasoning shown
            # (lines the CLI wrote between, isMeta: a person's message would end the turn, and
            # the reasoning before it is never shown: test_hardening39_why_turns.py)
            lines += [_assistant(n, text), *(_line(n + k, isMeta=True) for k in range(1, 4)), _assistant(n + 4, call)]
            n += 5
        elif shape == 3:  # only a thinking block before the call
            lines += [_assistant(n, think), _assistant(n + 1, call)]
            n += 2
        else:  # the text is 3 lines before the call: the farthest a command quotes
            lines += [_assistant(n, text), *(_line(n + k, isMeta=True) for k in range(1, 3)), _assistant(n + 3, call)]
            n += 4
        lines.append(json.dumps({"type": "user", "uuid": f"r{n}", "sessionId": "s", "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{round_}", "content": "{}"}]}}))
        n += 1
    path = tmp_path / "why.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    for span in (300, 900, 4000):
        one, many = _both(monkeypatch, path, span_bytes=span)
        assert many == one, span
    whys = [c["why"] for c in json.loads(one)["commands"]]
    assert len(whys) == 40
    assert all(w.startswith(f"Round {5 * i}: ") and w.endswith("Check layer ids on gpu-%d." % (5 * i))
               for i, w in enumerate(whys[0::5]))
    assert all(w.startswith(f"Round {5 * i + 1}: ") for i, w in enumerate(whys[1::5]))
    assert all(w == "" for w in whys[2::5])
    assert all(w == f"Round {5 * i + 3} thinking. Plan the next probe." for i, w in enumerate(whys[3::5]))
    assert all(w.startswith(f"Round {5 * i + 4}: ") for i, w in enumerate(whys[4::5]))


def test_a_command_run_again_in_a_span_is_read_as_the_first_time(monkeypatch, tmp_path):
    """A worker scans a command once per span (parallel._Commands): a repeat crosses as the
    first call's ordinal and the parent gives it that call's findings. Each repeat keeps its
    own host, kind, loop and launch finding, wherever the spans are cut."""
    monkeypatch.setattr(parallel, "_start_method", lambda: "fork")
    commands = ["ssh root@gpu-a 'tail -n 50 /root/sglang_server.log'",
                "ssh -p 2222 root@gpu-b 'python3 -m sglang.launch_server --model-path /m --speculative-algorithm "
                "EAGLE3 --speculative-draft-model-path /d --speculative-num-steps 1'",
                "ssh -J bastion root@gpu-c nvidia-smi"]
    lines, n = [], 0
    for round_ in range(30):
        command = commands[round_ % 3] if round_ % 4 else commands[0]
        call = {"type": "tool_use", "id": f"t{round_}", "name": "Bash", "input": {"command": command}}
        lines.append(_assistant(n, call))
        failed = round_ % 5 == 0
        lines.append(json.dumps({"type": "user", "uuid": f"r{n}", "sessionId": "s", "message": {
            "role": "user", "content": [{"type": "tool_result", "tool_use_id": f"t{round_}", "is_error": failed,
                                         "content": "Exit code 1\nConnection refused" if failed else "ok"}]}}))
        n += 2
    path = tmp_path / "repeats.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    repeats = []
    real = parallel.ordered_results

    def spy(*args):
        for packed_span in real(*args):  # each row as it crossed: an int is a repeat's ordinal
            records = pickle.loads(packed_span)[0]  # (records, stats, span edges)
            repeats.extend(row[parallel._EXTRACTED].__class__ is int for *_, rows in records for row in rows)
            yield packed_span

    monkeypatch.setattr(parallel, "ordered_results", spy)
    for span in (700, 3000, 1 << 20):
        one, many = _both(monkeypatch, path, span_bytes=span)
        assert many == one, span
    assert sum(repeats) > 20  # most calls of the one-span read were repeats, sent as ordinals
    doc = json.loads(one)
    assert [c["host"] for c in doc["commands"][:4]] == ["gpu-a", "gpu-b", "gpu-c", "gpu-a"]
    assert len(doc["commands"]) == 30
    assert [f["code"] for f in doc["findings"]].count("SD101") == 1

"""A Claude Code session forked twice (``claude --resume ID --fork-session``, twice, to try two
fixes), or forked and then continued in place, leaves files that start with the same lines:
same uuids, same messages (anthropics/claude-code issues #4926 and #28463; Clawdi-AI/clawdi
PR #81). A folder holding them read that shared history once per file: the nvidia-smi, the
benchmark and the OOM before the fork counted two or three times, the OOM in the error count
of each, the throughput reading twice. The shared lines are now read in one file; the others
start where they part from it. A session held whole by a later one is still dropped, as before."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

A = "aaaaaaaa-0000-4000-8000-000000000001"
B = "bbbbbbbb-0000-4000-8000-000000000002"
C = "cccccccc-0000-4000-8000-000000000003"


def _call(n: int, session: str, command: str, output: str, ts: str) -> list[dict]:
    return [
        {"type": "assistant", "uuid": f"a-{n}", "parentUuid": f"u-{n - 1}", "sessionId": session, "timestamp": ts,
         "message": {"role": "assistant", "content": [
             {"type": "tool_use", "id": f"toolu_{n}", "name": "Bash", "input": {"command": command}}]}},
        {"type": "user", "uuid": f"u-{n}", "parentUuid": f"a-{n}", "sessionId": session, "timestamp": ts,
         "message": {"role": "user", "content": [
             {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": output, "is_error": False}]}},
    ]


HISTORY = [{"type": "user", "uuid": "u-0", "parentUuid": None, "sessionId": A, "timestamp": "2026-01-01T00:00:00Z",
            "message": {"role": "user", "content": "why is EAGLE-3 slow on gpu01?"}}]
HISTORY += _call(1, A, "ssh gpu01 nvidia-smi", "GPU 0: NVIDIA H100", "2026-01-01T00:01:00Z")
HISTORY += _call(2, A, "ssh gpu01 'python3 -m sglang.bench_serving --num-prompts 50'",
                 "Output token throughput (tok/s): 800.0", "2026-01-01T00:02:00Z")
HISTORY += _call(3, A, "ssh gpu01 tail -3 /var/log/sglang.log", "torch.OutOfMemoryError: CUDA out of memory.",
                 "2026-01-01T00:03:00Z")


def _write(folder: Path, session: str, lines: list[dict]) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{session}.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))


def _counts(folder: Path) -> tuple[list[tuple[str, str]], int, int]:
    a = analyze_path(folder)
    return ([(c.session[:1], c.inner) for c in a.commands], sum(e.kind == "cuda_oom" for e in a.errors),
            sum(m.name == "throughput" for m in a.metrics))


def test_a_session_forked_twice_counts_its_history_once(tmp_path: Path) -> None:
    _write(tmp_path, A, HISTORY)
    _write(tmp_path, B, HISTORY + _call(10, B, "ssh gpu01 cat /models/draft/config.json", "{}", "2026-01-02T00:00:00Z"))
    _write(tmp_path, C, HISTORY + _call(20, C, "ssh gpu01 ls /models", "draft", "2026-01-03T00:00:00Z"))
    commands, ooms, readings = _counts(tmp_path)
    assert commands == [("b", "nvidia-smi"), ("b", "python3 -m sglang.bench_serving --num-prompts 50"),
                        ("b", "tail -3 /var/log/sglang.log"), ("b", "cat /models/draft/config.json"),
                        ("c", "ls /models")]
    assert (ooms, readings) == (1, 1)


def test_a_fork_of_a_session_that_went_on_is_read_from_where_it_parted(tmp_path: Path) -> None:
    _write(tmp_path, A, HISTORY + _call(10, A, "ssh gpu01 cat /models/draft/config.json", "{}", "2026-01-02T00:00:00Z"))
    _write(tmp_path, B, HISTORY + _call(20, B, "ssh gpu01 ls /models", "draft", "2026-01-03T00:00:00Z"))
    commands, ooms, readings = _counts(tmp_path)
    # the history is the original's (its lines name session A), whatever the order of the names
    assert [c for c in commands if c[0] == "a"] == [
        ("a", "nvidia-smi"), ("a", "python3 -m sglang.bench_serving --num-prompts 50"),
        ("a", "tail -3 /var/log/sglang.log"), ("a", "cat /models/draft/config.json")]
    assert [c for c in commands if c[0] == "b"] == [("b", "ls /models")]
    assert (ooms, readings) == (1, 1)


def test_a_fork_named_alone_is_read_whole(tmp_path: Path) -> None:
    _write(tmp_path, A, HISTORY)
    _write(tmp_path, B, HISTORY + _call(20, B, "ssh gpu01 ls /models", "draft", "2026-01-03T00:00:00Z"))
    assert len(analyze_path(tmp_path / f"{B}.jsonl").commands) == 4

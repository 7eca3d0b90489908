"""A list of per-position acceptance rates is no overall acceptance rate. vLLM's SpecDecoding line
(vllm/v1/spec_decode/metrics.py, SpecDecodingLogging.log) prints "Per-position acceptance rate:
0.812, 0.605, 0.433, Avg Draft acceptance rate: 61.7%"; an agent that quotes the tail of that
line without its "SpecDecoding metrics: " head (a `cut`, a summary) gave position 0's 0.812 as
the session's accept rate, next to the real 61.7 %."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "5b0c7d1e-42aa-4f00-9d42-000000000042"


def _event(seq: int, role: str, content: list) -> str:
    return json.dumps({"type": role, "uuid": f"u{seq}", "parentUuid": f"u{seq - 1}" if seq else None,
                       "sessionId": SESSION, "timestamp": f"2026-01-05T10:00:{seq:02d}.000Z",
                       "cwd": "/home/dev/bench", "message": {"role": role, "content": content}})


def _write(tmp_path: Path, *texts: str) -> Path:
    path = tmp_path / f"{SESSION}.jsonl"
    lines = [_event(0, "user", [{"type": "text", "text": "why is EAGLE-3 slower than the plain model?"}])]
    lines += [_event(i + 1, "assistant", [{"type": "text", "text": t}]) for i, t in enumerate(texts)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _rates(path: Path) -> list[tuple[float, str]]:
    return [(m.value, m.unit) for m in analyze_path(path).metrics if m.name == "accept_rate"]


def test_a_quoted_per_position_list_gives_only_the_overall_rate(tmp_path: Path) -> None:
    path = _write(tmp_path, "The server reports Per-position acceptance rate: 0.812, 0.605, 0.433, "
                            "Avg Draft acceptance rate: 61.7% after warmup.")
    assert _rates(path) == [(61.7, "%")]


def test_a_per_position_list_alone_gives_no_rate(tmp_path: Path) -> None:
    path = _write(tmp_path, "Per-position acceptance rate: 0.812, 0.605, 0.433 - it falls off fast "
                            "after the first draft token.")
    assert _rates(path) == []


def test_an_overall_rate_beside_it_is_still_read(tmp_path: Path) -> None:
    path = _write(tmp_path, "The acceptance rate is 12% and the accept length is 1.6.",
                  "per-position acceptance: 0.40, 0.10, 0.02")
    assert _rates(path) == [(12.0, "%")]

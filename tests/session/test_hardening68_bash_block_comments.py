"""A ```bash block of an issue body or a note, its commands with ``#`` comments before or between
them (how a repro is written: ``# launch the server``, the launch, ``# then benchmark``, the
benchmark). Before: the comment was read as output of the launch (or, before it, as shown output),
so the benchmark after it was one more line of that output, not a command. Now a comment of a
script block is no output (bash(1), COMMENTS: the rest of a line after ``#`` is ignored), so the
launch and the benchmark after it are both commands, as without the comment."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

LAUNCH = "python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 --port 30000"
BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 8"


@pytest.mark.parametrize("lines", [
    ["# launch the server with the EAGLE-3 draft", LAUNCH, "# then benchmark", BENCH],
    [LAUNCH, "# then benchmark", BENCH],
    [LAUNCH, "", "  # then benchmark", BENCH],
])
def test_the_benchmark_after_a_comment_is_a_command(tmp_path: Path, lines: list[str]) -> None:
    path = tmp_path / "notes.md"
    path.write_text("## Repro\n\n```bash\n" + "\n".join(lines) + "\n```\n")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, None, False), (BENCH, None, False)]
    assert len({c.seq for c in a.commands}) == 2


def test_output_that_starts_with_a_hash_after_its_output_is_still_output(tmp_path: Path) -> None:
    path = tmp_path / "notes.md"
    path.write_text("```bash\ncat cfg.yaml\nspeculative_num_steps: 3\n# topk\npython3 bench.py\n```\n")
    assert [c.command for c in analyze_path(path).commands] == ["cat cfg.yaml"]

"""A reading printed by one of two calls answered in one message is read with its own command.

A Gemini CLI checkpoint benchmarks EAGLE-3 at `--max-concurrency 1` (150.21 tok/s), changes the
launch script, then makes two shell calls in one model turn: the benchmark at `--max-concurrency
16` (902.4 tok/s) and `nvidia-smi`, answered in one `user` turn. The postmortem took the command
that printed a reading from a map of message -> command that kept the message's last call: with
the benchmark called first, the 902.4 was read as printed by `nvidia-smi` (no concurrency), so
the impact said "Throughput went from 150.21 tok/s to 902.4 tok/s" and the resolution "rose
from 150.21 to 902.4 ... after `sed -i ...`", comparing concurrency 1 with 16. A metric now names
the command that printed it (`command`), and both call orders read alike."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

SMI = "ssh gpu01 'nvidia-smi --query-gpu=memory.used --format=csv'"
EDIT = "ssh gpu01 'sed -i s/--speculative-num-steps 1/--speculative-num-steps 3/ /opt/launch.sh'"


def _bench(concurrency: int) -> str:
    return ("ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --dataset-name random "
            f"--num-prompts 200 --max-concurrency {concurrency}'")


def _result(throughput: str) -> str:
    # sglang/bench_serving.py's result block, as the shell tool reports it
    return ("Output: ============ Serving Benchmark Result ============\n"
            "Successful requests:                     200\n"
            f"Output token throughput (tok/s):         {throughput}\nExit Code: 0")


def _turn(calls: list[tuple[str, str]]) -> list[dict]:
    return [{"role": "model", "parts": [{"functionCall": {"name": "run_shell_command", "args": {"command": c}}}
                                        for c, _ in calls]},
            {"role": "user", "parts": [{"functionResponse": {"name": "run_shell_command",
                                                             "response": {"output": f"Command: {c}\n{o}"}}}
                                       for c, o in calls]}]


def _checkpoint(tmp_path: Path, bench_first: bool) -> Path:
    pair = [(_bench(16), _result("902.40")), (SMI, "Output: memory.used [MiB]\n71234 MiB\nExit Code: 0")]
    if not bench_first:
        pair.reverse()
    history = [{"role": "user", "parts": [{"text": "EAGLE3 on gpu01 is slow. Make it faster."}]},
               *_turn([(_bench(1), _result("150.21"))]),
               *_turn([(EDIT, "Output: (empty)\nExit Code: 0")]),
               *_turn(pair),
               {"role": "model", "parts": [{"text": "Done."}]}]
    path = tmp_path / "checkpoint-concurrency.json"
    path.write_text(json.dumps(history, indent=2), encoding="utf-8")
    return path


@pytest.mark.parametrize("bench_first", [True, False])
def test_a_reading_names_the_call_that_printed_it(tmp_path: Path, bench_first: bool) -> None:
    analysis = analyze_path(_checkpoint(tmp_path, bench_first))
    assert [(m.seq, m.value, m.command) for m in analysis.metrics] == [(2, 150.21, _bench(1)), (6, 902.4, _bench(16))]
    assert sorted(c.command for c in analysis.commands if c.result_seq == 6) == sorted([_bench(16), SMI])


@pytest.mark.parametrize("bench_first", [True, False])
def test_concurrency_16_is_not_said_to_rise_from_concurrency_1(tmp_path: Path, bench_first: bool) -> None:
    md = render_postmortem(analyze_path(_checkpoint(tmp_path, bench_first)), "md")
    # (round 74: was "measured once" alone, though the 150.21 at concurrency 1 was read too)
    assert ("- Throughput was measured once at the load of its last reading: 902.4 tok/s [[msg 6]](#msg-6); 1 other "
            "reading (150.21 tok/s [[msg 2]](#msg-2)) was at another batch size or load, so no before and after is "
            "told.") in md, md
    assert "| throughput | 902.4 tok/s [[msg 6]](#msg-6) | — (measured once at this load) | 1 | gpu01 |" in md, md
    assert "went from 150.21" not in md and "rose from 150.21" not in md, md


def test_the_same_concurrency_still_rises(tmp_path: Path) -> None:
    """Both at `--max-concurrency 1`: one row, read before and after the change."""
    path = _checkpoint(tmp_path, True)
    path.write_text(path.read_text(encoding="utf-8").replace("--max-concurrency 16", "--max-concurrency 1"),
                    encoding="utf-8")
    md = render_postmortem(analyze_path(path), "md")
    assert "- Throughput went from 150.21 tok/s [[msg 2]](#msg-2) to 902.4 tok/s [[msg 6]](#msg-6)." in md, md

"""In a terminal log a command line and its output are one event: `sudo systemctl restart sglang
&& sleep 60 && python -m sglang.bench_serving ...` has the seq of the reading it prints. The
changes before a reading were those of a seq under the reading's, so the launch, restart or
deploy a line began with (run before its own benchmark) was left out: a rise after `echo
SPEC_TOPK=4 >> /etc/default/sglang` then such a line named the edit alone, and a rise whose only
change was on the reading's line was not told at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view

_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100"
_RESULT = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
           "Output token throughput (tok/s):         {}\n==================================================\n")


def _resolution(tmp_path: Path, lines: list[tuple[str, str]]) -> list[str]:
    path = tmp_path / "terminal.log"
    path.write_text("".join(f"root@gpu01:~# {command}\n{output}" for command, output in lines), encoding="utf-8")
    return postmortem_view(analyze_path(path))["resolution"]


@pytest.mark.parametrize("change, shown", [
    ("sudo systemctl restart sglang",
     "sudo systemctl restart sglang && sleep 60 && python -m sglang.bench_serving --backend sglang --port 30000 "
     "--num-prompts…"),
    ("kubectl apply -f k8s/sglang.yaml",
     "kubectl apply -f k8s/sglang.yaml && sleep 60 && python -m sglang.bench_serving --backend sglang --port 30000…"),
])
def test_the_change_the_reading_line_began_with(tmp_path: Path, change: str, shown: str) -> None:
    said = _resolution(tmp_path, [(_BENCH_CMD, _RESULT.format("60.5")),
                                  (f"{change} && sleep 60 && {_BENCH_CMD}", _RESULT.format("120.3"))])
    assert said == [f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 1] after `{shown}` [msg 1]."]


def test_the_restart_after_an_edit(tmp_path: Path) -> None:
    said = _resolution(tmp_path, [(_BENCH_CMD, _RESULT.format("60.5")), ("echo 'SPEC_TOPK=4' >> /etc/default/sglang", ""),
                                  (f"sudo systemctl restart sglang && sleep 60 && {_BENCH_CMD}", _RESULT.format("120.3"))])
    assert said == ["Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 2] after `echo 'SPEC_TOPK=4' >> "
                    "/etc/default/sglang` [msg 1], `sudo systemctl restart sglang && sleep 60 && python -m "
                    "sglang.bench_serving --backend sglang --port 30000 --num-prompts…` [msg 2]."]


def test_a_relaunch_on_the_reading_line(tmp_path: Path) -> None:
    launch = ("python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
              "--speculative-eagle-topk 4 > /tmp/s.log 2>&1 &")
    said = _resolution(tmp_path, [(_BENCH_CMD, _RESULT.format("60.5")),
                                  (f"{launch} sleep 60 && {_BENCH_CMD}", _RESULT.format("120.3"))])
    assert said == ["Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 1] after relaunching the server with "
                    "`--speculative-algorithm EAGLE3 --speculative-eagle-topk 4` [msg 1]."]


def test_a_reading_line_that_changes_nothing_is_no_change(tmp_path: Path) -> None:
    said = _resolution(tmp_path, [(_BENCH_CMD, _RESULT.format("60.5")),
                                  (f"sleep 60 && {_BENCH_CMD}", _RESULT.format("120.3"))])
    assert said == []

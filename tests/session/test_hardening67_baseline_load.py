"""A reading is compared with the no-speculation baseline of its own benchmark load. The server
without speculation was measured at --request-rate 8 (every request of eight a second in flight:
200 tok/s), the EAGLE-3 server at --request-rate 1 (60 tok/s): BaselineBook.pair matched them on
batch size and concurrency only, and SD501 said EAGLE-3 was slower than without speculation
("60 tok/s measured vs 200 tok/s baseline"). The load (baselines.run_load) now splits them, as it
splits the postmortem's before and after."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening66_bench_load import _BENCH, _BENCH_CMD, _Session

_PLAIN = "nohup python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --port 30000 &"
_EAGLE3 = ("nohup python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
           "EAGLE3 --speculative-draft-model-path /models/e3 --port 30000 &")


def _sd501(tmp_path: Path, plain_flags: str, eagle_flags: str, eagle_first: bool = False) -> list[str]:
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    runs = [(_PLAIN, plain_flags, "200.0"), (_EAGLE3, eagle_flags, "60.0")]
    for launch, flags, value in (runs[::-1] if eagle_first else runs):
        s.bash(launch, "The server is fired up and ready to roll!")
        s.bash(_BENCH_CMD.format(flags), _BENCH.format(value))
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in s.lines), encoding="utf-8")
    return [f.evidence[0] for f in analyze_path(path).findings if f.code == "SD501"]


def test_a_baseline_under_another_load_is_no_baseline(tmp_path: Path) -> None:
    for plain, eagle in (("--request-rate 8", "--request-rate 1"), ("--num-prompts 200", "--num-prompts 10"),
                         ("--dataset-name random --random-input-len 128", "--dataset-name random --random-input 4096")):
        for eagle_first in (False, True):
            assert _sd501(tmp_path, plain, eagle, eagle_first) == [], (plain, eagle, eagle_first)


def test_a_baseline_under_the_same_load_is_compared(tmp_path: Path) -> None:
    for plain, eagle in (("--request-rate 8", "--request-rate 8.0"), ("", "--request-rate 1"),
                         ("--max-concurrency 4 --num-prompts 10", "--max-concurrency 4 --num-prompts 100")):
        assert _sd501(tmp_path, plain, eagle) == ["[msg 8] 60 tok/s measured vs 200 tok/s baseline [msg 4]"], (plain, eagle)
        assert _sd501(tmp_path, plain, eagle, eagle_first=True) == [
            "[msg 4] 60 tok/s measured vs 200 tok/s baseline [msg 8]"], (plain, eagle)

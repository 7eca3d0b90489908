"""An issue names each run in a caption line above its output ("without eagle:", then "with
eagle:"): the no-speculation run's readings are the baseline, and the two runs' server logs are
two readings, not one mean over both. Texts copied from the issues named above each test."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb1c"

# https://github.com/sgl-project/sglang/issues/6949 (qwq-32b): the description's run without
# EAGLE, as posted; the EAGLE run's Decode batch lines are those of
# https://github.com/sgl-project/sglang/issues/11948 ("use eagle3"), as posted there.
WITHOUT_EAGLE = """\
without eagle:
```
[2025-06-07 21:25:14 TP0] Decode batch. #running-req: 1, #token: 9322, token usage: 0.00, gen throughput (token/s): 97.52, #queue-req: 0
[2025-06-07 21:25:14 TP0] Decode batch. #running-req: 1, #token: 9362, token usage: 0.00, gen throughput (token/s): 97.58, #queue-req: 0
[2025-06-07 21:25:15 TP0] Decode batch. #running-req: 1, #token: 9402, token usage: 0.00, gen throughput (token/s): 97.63, #queue-req: 0
[2025-06-07 21:25:15 TP0] Decode batch. #running-req: 1, #token: 9442, token usage: 0.00, gen throughput (token/s): 97.50, #queue-req: 0
```
"""
WITH_EAGLE = """\
with eagle:
```
[2025-10-22 10:27:57 TP0] Decode batch. #running-req: 1, #token: 186, token usage: 0.00, accept len: 1.95, accept rate: 0.49, cuda graph: True, gen throughput (token/s): 178.86, #queue-req: 0, 
[2025-10-22 10:27:58 TP0] Decode batch. #running-req: 1, #token: 258, token usage: 0.00, accept len: 1.80, accept rate: 0.45, cuda graph: True, gen throughput (token/s): 165.41, #queue-req: 0, 
```
"""


def _readings(text: str, prose: bool = True) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text, prose=prose)
            if m.name in ("throughput", "baseline_throughput", "accept_length")]


def test_each_captioned_server_log_is_its_own_reading_and_the_one_without_eagle_the_baseline():
    text = "target model : qwq-32b\n\n" + WITHOUT_EAGLE + WITH_EAGLE
    # before: one throughput, the mean of all six lines, and no baseline
    assert _readings(text) == [("baseline_throughput", 97.56), ("throughput", 172.13), ("accept_length", 1.875)]
    # the same body as `gh issue view` prints it (a tool's output, not prose)
    assert _readings(text, prose=False) == [("baseline_throughput", 97.56), ("throughput", 172.13),
                                            ("accept_length", 1.875)]


def test_a_bench_result_under_w_o_spec_is_the_baseline_and_its_accept_length_none():
    # https://github.com/sgl-project/sglang/pull/4716 (Llama-3.3-70B on H100 TP8), as posted
    text = ("w/o spec:\n```\n#questions: 80, Throughput: 88.61 token/s, Acceptance length: 1.00\n```\n"
            "EAGLE3:\n```\n#questions: 80, Throughput: 234.54 token/s, Acceptance length: 5.88\n```\n")
    # before: 88.61 a throughput and 1.00 an accept length (of the run that drafts nothing)
    assert _readings(text) == [("baseline_throughput", 88.61), ("throughput", 234.54), ("accept_length", 5.88)]


def test_a_caption_that_names_no_run_continues_the_part_above_it():
    # https://github.com/sgl-project/sglang/issues/5274's layout: the launch under its caption,
    # then "And Test Results is:" over the numbers (here as bench_serving prints them)
    text = ("Start SGLang without EAGLE-3:\n```\npython3 -m sglang.launch_server --model-path "
            "/data/models/Meta-Llama-3.1-8B-Instruct --host 0.0.0.0 --port 30000\n```\nAnd Test Results is:\n```\n"
            "Output token throughput (tok/s):         300.52\n```\n"
            "Start SGLang with EAGLE-3:\n```\npython3 -m sglang.launch_server --model-path "
            "/data/models/Meta-Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3\n```\nAnd Test Results is:\n```\n"
            "Output token throughput (tok/s):         120.48\n```\n")
    assert _readings(text) == [("baseline_throughput", 300.52), ("throughput", 120.48)]


def test_text_without_a_no_spec_caption_is_read_whole():
    # https://github.com/sgl-project/sglang/pull/4247: two EAGLE runs under their captions
    text = ("```\nEAGLE-3:\n#questions: 80, Throughput: 276.30 token/s, Acceptance length: 5.36\n\n"
            "EAGLE-2:\n#questions: 80, Throughput: 224.70 token/s, Acceptance length: 3.75\n\n```\n")
    assert _readings(text) == [("throughput", 276.3), ("throughput", 224.7), ("accept_length", 5.36),
                               ("accept_length", 3.75)]


def test_the_eagle_run_slower_than_the_captioned_baseline_is_sd501(tmp_path):
    # the 6949 body with the EAGLE run of its tp=4 comment (59 tps against 61) as a log line
    slower = WITH_EAGLE.replace("178.86", "59.02").replace("165.41", "58.98")
    w = _Writer(SESSION, None, START)
    w.prompt("EAGLE made qwq-32b slower, from the issue:\n\n" + WITHOUT_EAGLE + slower)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    evidence = [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]
    # before: no SD501 (one mean of both runs, no baseline)
    assert len(evidence) == 1 and "59 tok/s measured vs 97.56 tok/s baseline" in evidence[0]


# https://github.com/mit-han-lab/fastrl/pull/4, as posted (full-width colons after the captions)
FASTRL_4 = """\
Before this PR：
```
2025-12-04 20:35:53 INFO 151972 [scheduler_metrics_mixin.py:287] Decode batch. #running-req: 48, #token: 3894, token usage: 0.00, accept len: 1.00, accept rate: 0.11, cuda graph: False, gen throughput (token/s): 5452.63, #queue-req: 0, 
2025-12-04 20:35:53 INFO 151972 [scheduler_metrics_mixin.py:287] Decode batch. #running-req: 48, #token: 5814, token usage: 0.00, accept len: 1.00, accept rate: 0.11, cuda graph: False, gen throughput (token/s): 5399.46, #queue-req: 0,
```
After this PR：
```
2025-12-04 20:34:02 INFO 147907 [scheduler_metrics_mixin.py:287] Decode batch. #running-req: 48, #token: 3894, token usage: 0.00, accept len: 1.00, accept rate: 0.11, cuda graph: True, gen throughput (token/s): 6138.60, #queue-req: 0, 
```
"""


def test_server_logs_before_and_after_a_change_are_two_readings():
    # before: one throughput, 5663.56, the mean over both runs' lines
    assert [(m.name, m.value) for m in extract_metrics(FASTRL_4) if m.name == "throughput"] == \
        [("throughput", 5426.05), ("throughput", 6138.6)]


def test_a_bold_normal_caption_names_the_run_without_speculation():
    # https://github.com/sgl-project/sglang/issues/11948's layout: "**normal**" over the run
    # without speculation, "**use eagle3**" over the EAGLE3 run's lines (as posted there); the
    # normal run's Decode batch line is the 6949 one above
    normal_line = WITHOUT_EAGLE.splitlines()[2]
    eagle_lines = "\n".join(WITH_EAGLE.splitlines()[2:4])
    text = f"Could someone take a look?\n\n**normal**\n{normal_line}\n\n**use eagle3**\n{eagle_lines}\n"
    # before: one throughput, the mean over both runs
    assert _readings(text) == [("baseline_throughput", 97.52), ("throughput", 172.13), ("accept_length", 1.875)]

"""The shortcuts that make `analyze` cheaper read what the full scans read.

A server log of Decode batch lines skips the scans for units it cannot hold, a command of plain
words is split without the shell-quoting regex, and a command's kind is ruled out by a literal
before its pattern runs. Each case below sits just beside a shortcut: a log that also holds
another reading, a command one character away from needing the full split.
"""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics
from spec_debug.session.reasoning import hypotheses, outcome
from spec_debug.session.shell import (
    _categorize_command,
    categorize,
    parse_target,
    split_words,
)


def decode_log(n: int = 4, date: str = "2026-03-02") -> str:
    """``n`` SGLang Decode batch lines (scheduler_metrics_mixin.py, log_decode_stats): 100, 110,
    ... tok/s, accept len 2.00, accept rate 0.50."""
    return "\n".join(
        f"[{date} 10:0{i}:00 TP0] Decode batch, #running-req: 1, #token: {900 + i}, token usage: 0.01, "
        f"accept len: 2.00, accept rate: 0.50, cuda graph: True, gen throughput (token/s): {100 + 10 * i:.2f}, "
        f"#queue-req: 0" for i in range(n))


def readings(text: str, prose: bool = False) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in extract_metrics(text, prose=prose)]


DECODE = [("throughput", 115.0), ("accept_length", 2.0), ("accept_rate", 0.5)]


def test_a_server_log_of_decode_lines_gives_its_means():
    assert readings(decode_log()) == DECODE


def test_a_date_written_with_slashes_reads_the_same():
    # a "/" outside the readings: the log takes the full scans, with the same result
    assert readings(decode_log(date="2026/03/02")) == DECODE


@pytest.mark.parametrize("tail, extra", [
    # vllm bench throughput after the server log
    ("Throughput: 2.50 requests/s, 1500.00 total tokens/s, 700.00 output tokens/s",
     [("throughput", 700.0), ("total_throughput", 1500.0), ("request_throughput", 2.5)]),
    # a bench_serving summary printed by the same command
    ("Output token throughput (tok/s):         512.30", [("throughput", 512.3)]),
    # the agent's own words next to the log
    ("so about 95 tok/s against a 150 tok/s baseline", [("throughput", 95.0), ("baseline_throughput", 150.0)]),
    ("decode ran at 88 tokens per second", [("throughput", 88.0)]),
])
def test_a_reading_next_to_the_decode_lines_is_still_read(tail, extra):
    found = readings(decode_log() + "\n" + tail)
    assert sorted(found) == sorted(DECODE + extra)


def test_a_progress_bar_after_the_decode_lines_gives_no_second_throughput():
    bar = "Processed prompts: 100%|#####| 8/8 [00:04<00:00, est. speed input: 900.00 toks/s, output: 60.00 toks/s]"
    assert readings(decode_log() + "\n" + bar) == DECODE


def test_prefill_and_bench_one_batch_lines_in_a_server_log_are_read():
    prefill = ("[2026-03-02 10:00:00 TP0] Prefill batch, #new-seq: 1, #new-token: 512, #cached-token: 0, "
               "token usage: 0.01, #running-req: 0, #queue-req: 0, input throughput (token/s): 2048.00")
    assert ("prefill_throughput", 2048.0) in readings(prefill + "\n" + decode_log())
    one_batch = "Decode.  median latency: 0.01 s, median throughput:    96.50 token/s"
    assert ("throughput", 96.5) in readings(one_batch)


@pytest.mark.parametrize("text, found", [
    ("The accept length 2.1 and an acceptance rate of ~62% look right.",
     [("accept_length", 2.1), ("accept_rate", 62.0)]),
    ("I will accept that and move on; accepting the draft is fine.", []),
    ("accept_len=3.2 in the last run", [("accept_length", 3.2)]),
])
def test_accept_readings_in_an_agents_words(text, found):
    assert readings(text, prose=True) == found


@pytest.mark.parametrize("command, words", [
    ("ls -la /data/eagle3/hidden_states/shard_0496", ["ls", "-la", "/data/eagle3/hidden_states/shard_0496"]),
    ("  tail\t-n 50\u00a0x.log\r", ["tail", "-n", "50", "x.log"]),  # str.split's whitespace is \s
    ("", []),
    # one character of shell syntax: the full split
    ("tail -n 50 x.log\n", ["tail", "-n", "50", "x.log", "\n"]),
    ("echo 'a b' c", ["echo", "a b", "c"]),
    ("grep x f|wc -l", ["grep", "x", "f", "|", "wc", "-l"]),
    ("cat f>out", ["cat", "f", ">", "out"]),
])
def test_a_command_splits_as_the_shell_reads_it(command, words):
    assert split_words(command) == words


@pytest.mark.parametrize("command, category", [
    ("python -m sglang.bench_one_batch_server --model m", "benchmark"),
    ("python examples/offline_inference/spec_decode.py", "benchmark"),
    ("cat > run.sh", "edit"),
    ("tee patch_model.py", "edit"),
    ("perl -pi -e 's/a/b/' x", "edit"),
    ("pytest -x tests", "run_test"),
    ("python model_test.py", "run_test"),
    ("wget http://localhost:30000/v1/models", "health"),
    ("curl -s localhost:30000/health", "health"),
    ("python -c 'print(1)' /v1/x", "health"),
    ("ls -la /data/eagle3/hidden_states/shard_0496", "inspect_config"),
    ("catalog list", "other"),  # "cat" without the redirect
    ("python testing.py", "python"),  # "test" without test_*.py
])
def test_a_command_kind_is_named_as_by_the_full_patterns(command, category):
    _categorize_command.cache_clear()
    assert categorize(command) == category


def test_a_remote_command_of_plain_words_keeps_its_target():
    t = parse_target("ssh -p 22 root@gpu-node-7 'ls -la /data/eagle3/hidden_states/shard_0496'")
    assert (t.host, t.user, t.port, t.inner) == ("gpu-node-7", "root", 22, "ls -la /data/eagle3/hidden_states/shard_0496")


def test_hypotheses_and_outcomes_still_found():
    assert hypotheses("I suspect the d2t mapping is off by one.") == ["I suspect the d2t mapping is off by one."]
    assert outcome("That fixed it: accept length is back to 3.1.") is not None

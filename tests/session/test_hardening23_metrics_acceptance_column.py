"""A table column headed "acceptance" alone holds acceptance rates.

ggml-org/llama.cpp#26750 compares two builds in a table
"| build | draft_n | accepted | acceptance | verify steps | tok/s |" over rows like
"| b10261 `cf06ad7df` | 198 | 132 | **66.67%** | 68 | **69.23** |": the speeds were read, the
rates (66.67% against 52.38%, the fault the issue is about) were not. "accepted" beside it is a
count of tokens and stays unread.
"""

from spec_debug.session.metrics import extract_metrics

TABLE = """### Prose, 200 tokens

| build | draft_n | accepted | acceptance | verify steps | tok/s |
|---|---|---|---|---|---|
| b10261 `cf06ad7df` | 198 | 132 | **66.67%** | 68 | **69.23** |
| b10532 `70aff2525` | 231 | 121 | **52.38%** | 79 | **57.67** |
"""


def _readings(text):
    return sorted((m.name, m.value, m.unit) for m in extract_metrics(text, prose=True))


def test_the_acceptance_column_gives_rates():
    assert _readings(TABLE) == [("accept_rate", 52.38, "%"), ("accept_rate", 66.67, "%"),
                                ("throughput", 57.67, "tok/s"), ("throughput", 69.23, "tok/s")]


def test_draft_acceptance_as_a_ratio():
    table = "| run | draft acceptance | tok/s |\n|---|---|---|\n| mtp n=2 | 0.73 | 41.6 |\n"
    assert _readings(table) == [("accept_rate", 0.73, "ratio"), ("throughput", 41.6, "tok/s")]


def test_an_accepted_count_column_is_no_rate():
    table = "| run | accepted | tok/s |\n|---|---|---|\n| eagle3 | 132 | 69.2 |\n"
    assert _readings(table) == [("throughput", 69.2, "tok/s")]


# lightseekorg/tokenspeed#1305: tokens each iteration decodes is the accept length by definition,
# and "approximately 66%" in a cell is a reading.
TOKENSPEED = """| Workload/state | Decoded tokens/iteration | Speculative accept rate | Decode tokens/s/user |
|---|---:|---:|---:|
| 50K random raw completion, 500 output tokens | 3.93 | 74.6% | 149.37 |
| 50K random chat completion, 500 output tokens | 1.94 | 48.5% | 74.74 |
| Representative AIME26 prompt, greedy, 1K output tokens | 2.99 | approximately 66% | not measured in this ablation |
"""


def test_tokens_per_iteration_is_the_accept_length():
    got = _readings(TOKENSPEED)
    assert [r for r in got if r[0] == "accept_length"] == \
        [("accept_length", 1.94, "tokens"), ("accept_length", 2.99, "tokens"), ("accept_length", 3.93, "tokens")]
    assert [r for r in got if r[0] == "accept_rate"] == \
        [("accept_rate", 48.5, "%"), ("accept_rate", 66.0, "%"), ("accept_rate", 74.6, "%")]


def test_draft_tokens_per_step_is_a_setting():
    table = "| run | draft tokens/step | tok/s |\n|---|---|---|\n| eagle3 | 4 | 120.5 |\n"
    assert _readings(table) == [("throughput", 120.5, "tok/s")]

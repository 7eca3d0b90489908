"""A column of tokens a step is the accept length only when it counts committed tokens.

"Decoded tokens/iteration" over 3.93 is the accept length (lightseekorg/tokenspeed#1305); a
scheduler's budget ("tokens per step budget", "max batched tokens/step", "prefill tokens/iter"
over 8192: vLLM's max_num_batched_tokens) is a setting. It was read as an accept length of 8192,
and "max batched tokens/step" as a throughput of 8192 tok/s ("tokens/step" holds "tokens/s").
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _readings(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True)]


@pytest.mark.parametrize("header", ["tokens per step budget", "prefill tokens/iter", "max batched tokens/step",
                                    "draft tokens/step"])
def test_a_budget_of_tokens_a_step_is_no_reading(header):
    text = f"| model | {header} | tok/s |\n|---|---|---|\n| eagle3 | 8192 | 120 |\n"
    assert _readings(text) == [("throughput", 120.0)]


def test_decoded_tokens_an_iteration_are_the_accept_length():
    text = "| model | Decoded tokens/iteration | tok/s |\n|---|---|---|\n| eagle3 | 3.93 | 120 |\n"
    assert _readings(text) == [("accept_length", 3.93), ("throughput", 120.0)]

"""A column headed "acceptance" alone is the drafter's rate only in a text about drafting.

"acceptance" heads a column of accept rates in llama.cpp's speculative tables ("| build | draft_n |
accepted | acceptance |", ggml-org/llama.cpp#26750), and it heads other columns too: an acceptance
test suite's pass rate ("| suite | acceptance |" over "| e2e | 80% |") read as an accept rate of 80%,
a policy's score of 2.5 as an accept length of 2.5. "accept rate" keeps its meaning everywhere.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _acceptance(text):
    return [(m.name, m.value) for m in extract_metrics(text, prose=True) if m.name.startswith("accept")]


@pytest.mark.parametrize("text", [
    "CI results:\n\n| suite | acceptance |\n|---|---|\n| unit | 95% |\n| e2e | 80% |\n",
    "| policy | acceptance |\n|---|---|\n| strict | 2.5 |\n| loose | 3.5 |\n",
    "| stage | result |\n|---|---|\n| acceptance | 80% |\n| smoke | 100% |\n",
])
def test_acceptance_of_something_else_is_no_reading(text):
    assert _acceptance(text) == []


def test_the_drafters_acceptance_column_is_read():
    text = ("| build | draft_n | accepted | acceptance |\n|---|---|---|---|\n"
            "| b7000 | 240 | 160 | **66.67%** |\n")
    assert _acceptance(text) == [("accept_rate", 66.67)]


def test_an_accept_rate_column_needs_no_such_words():
    text = "| run | accept rate |\n|---|---|\n| a | 0.61 |\n"
    assert _acceptance(text) == [("accept_rate", 0.61)]

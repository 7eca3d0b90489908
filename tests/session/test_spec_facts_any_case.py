"""d2t and norm-flag facts are matched in any case, as their patterns are (re.I): a session
writes "the D2T table" or prints a config key in capitals as often as in lower case. Their
cheap gates once looked for the lower-case spelling only, so these were never reported."""

from __future__ import annotations

import pytest

from spec_debug.session.events import Event
from spec_debug.session.extract import extract
from spec_debug.session.spec_facts import text_observations


@pytest.mark.parametrize("text, code", [
    ("The D2T table is missing from the checkpoint, so the drafter's ids are wrong.", "SD301"),
    ("KeyError: 'D2T'", "SD301"),
    ("I think the D2t holds absolute ids, not offsets.", "SD302"),
    ("NORM_BEFORE_RESIDUAL is ignored by this vLLM version.", "SD701"),
    ("Fc_Norm is not read by the SGLang drafter.", "SD701"),
])
def test_a_fact_in_capitals_is_the_same_fact(text, code):
    assert [o.code for o in text_observations(text)] == [code]
    assert [o.code for o in text_observations(text.lower())] == [code]  # and in lower case, as before


@pytest.mark.parametrize("text", [
    "The D2T table is not missing: it loads fine.",
    "vLLM does not ignore NORM_BEFORE_RESIDUAL any more; it is no longer ignored.",
    "ls -la /data/eagle3/hidden_states/shard_0001",
])
def test_negations_and_unrelated_outputs_in_capitals_say_nothing(text):
    assert text_observations(text) == []


def test_a_tool_output_and_a_text_block_both_read_the_capitals():
    output = Event(session="s", seq=3, agent="main", role="tool", kind="tool_result",
                   text="Traceback (most recent call last):\n  File \"load.py\", line 9\nKeyError: 'D2T'")
    prose = Event(session="s", seq=4, agent="main", role="assistant", kind="text",
                  text="So the D2T mapping is missing from the draft checkpoint.")
    assert [o.code for o in extract(output, True).observations] == ["SD301"]
    assert [o.code for o in extract(prose, True).observations] == ["SD301"]

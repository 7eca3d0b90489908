"""`spec-debug explain hid<TAB>` offered hidden_state_format only, and `explain conc<TAB>`
offered concat_order, not the index: the shipped steps (`explain hidden_layout`, as the README
and the demo name them) and `concepts` were topics explain takes that completion did not know.
Both are offered now, after the playbooks and codes."""

from __future__ import annotations

from tests.onboarding.test_completion import complete


def test_a_shipped_step_is_completed():
    assert complete("spec-debug explain hidden_l") == ["hidden_layout"]
    assert complete("spec-debug explain hid") == ["hidden_state_format", "hidden_layout", "hidden_norm"]
    assert complete("spec-debug explain reference") == ["reference_forward"]


def test_the_concept_index_is_completed():
    assert complete("spec-debug explain concep") == ["concepts"]
    assert "concepts" in complete("spec-debug explain conc")


def test_run_still_completes_playbooks_only():
    assert complete("spec-debug run hid") == ["hidden_state_format"]

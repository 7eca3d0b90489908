"""`spec-debug explain 'hidden states'` (the incident write-up's words, 8 times in it) was an error
whose hint was the hidden_state_format playbook, before the newcomer knew what a hidden state is.
It is now the concept (what a hidden state is, which ones EAGLE-3 reads), which then names the
playbook that checks them."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["hidden states", "Hidden_States", "target hidden states"])
def test_hidden_states_is_the_concept_then_the_playbook(tmp_path, typed: str) -> None:
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# aux hidden state layers\n")
    assert "A hidden state is the vector a transformer layer outputs for each token" in result.stdout
    check_with = result.stdout.split("## Check it with\n", 1)[1]
    assert "`spec-debug explain hidden_state_format` walks through it" in check_with


def test_unquoted_words_are_the_same_concept(tmp_path) -> None:
    result = run_cli("explain", "hidden", "states", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# aux hidden state layers\n")


def test_the_playbook_name_is_still_the_playbook(tmp_path) -> None:
    result = run_cli("explain", "hidden_state_format", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# Walkthrough: `hidden_state_format`")


def test_the_start_of_the_playbook_name_is_no_concept(tmp_path) -> None:
    # `hidden_state` starts the playbook's name: a concept spelled so would hide it
    # (test_hardening47_explain_concepts.test_no_concept_shadows_a_playbook_a_step_or_a_probe)
    result = run_cli("explain", "hidden_state", cwd=tmp_path)
    assert "# aux hidden state layers" not in result.stdout
    assert "hidden_state_format" in result.stdout + result.stderr

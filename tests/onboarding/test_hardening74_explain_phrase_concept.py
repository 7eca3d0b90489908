"""`spec-debug explain 'the d2t map'`, `explain 'what is d2t'` or `explain how does tree
attention work` (a question with a known concept in it) were too long for any spelling to be
near, and got only the list of what explain takes. The hint now names the concept the phrase
holds (its longest name or alias, whole words) and the command that explains it; a phrase
that holds none, or one word with underscores (a playbook's file name), keeps the old hint."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

_PLAYBOOKS = "drafter_accuracy, hidden_state_format, host_smoke, perf_regression"


@pytest.mark.parametrize(("typed", "concept"), [
    ("the d2t map", "vocab map"),
    ("what is d2t", "vocab map"),
    ("how does tree attention work", "tree"),
    ("why is my acceptance length low", "accept length"),
])
def test_a_quoted_phrase_names_the_concept_in_it(typed: str, concept: str) -> None:
    result = run_cli("explain", typed)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {typed}: no playbook file '{typed}' and no shipped playbook by that name",
        f"  hint: the concept '{concept}'? `spec-debug explain '{concept}'`; shipped playbooks: {_PLAYBOOKS}",
    ]


def test_an_unquoted_question_names_the_concept_in_it() -> None:
    result = run_cli("explain", "what", "is", "d2t")
    assert result.code == 2
    assert result.stderr.splitlines() == [
        "error: explain takes one playbook, code or concept; got also: is d2t",
        "  hint: the concept 'vocab map'? `spec-debug explain 'vocab map'`",
    ]


@pytest.mark.parametrize("typed", ["gpu memory", "my_tree_check"])
def test_no_concept_inside_keeps_the_list_of_what_explain_takes(typed: str) -> None:
    result = run_cli("explain", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1].startswith(f"  hint: explain takes a playbook (a file, or shipped: {_PLAYBOOKS})")

"""`spec-debug explain num stesp` (a concept of several words, unquoted, with a slip) got "got
also: stesp" and the quoting rule with 'accept length' as its example, whatever was typed;
quoted, the same words got "the concept 'num steps'?". Unquoted, the near concept is named now
too; words near no concept keep the quoting rule."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("words, concept", [
    (("num", "stesp"), "num steps"),
    (("vocab", "mapp"), "vocab map"),
    (("acept", "length"), "accept length"),
])
def test_an_unquoted_slip_names_the_concept(tmp_path, words, concept):
    result = run_cli("explain", *words, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: explain takes one playbook, code or concept; got also: {words[1]}",
        f"  hint: the concept {concept!r}? `spec-debug explain {concept!r}`"]
    assert run_cli("explain", concept, cwd=tmp_path).stdout.startswith(f"# {concept}\n")


def test_words_near_no_concept_keep_the_quoting_rule(tmp_path):
    # (after a playbook's name the hint is about its steps: test_hardening73_explain_no_such_step)
    result = run_cli("explain", "d2t", "extra", cwd=tmp_path)
    assert result.stderr.splitlines()[-1] == (
        "  hint: quote a concept of several words (spec-debug explain 'accept length'); "
        "`spec-debug explain concepts` lists them")

"""`spec-debug findings d2t` (a concept a report or the walkthrough names, looked up where the
codes are) was "unknown finding code 'd2t'" with the hint "finding codes are SD and three
digits: SD0xx runner, ...", no word of where its meaning is, while `findings perf_regression`
is pointed at the playbook's walkthrough. The hint now names the concept and the `explain` line
to paste (quoted where it has a space); exit 2 as before. A code-like slip keeps its code hint."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed, explain", [
    ("d2t", "d2t"),
    ("accept length", "'accept length'"),
    ("norm_before_residual", "norm_before_residual"),
])
def test_a_concept_is_pointed_at_explain(tmp_path, typed, explain):
    result = run_cli("findings", typed, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: unknown finding code {typed!r}",
        f"  hint: {typed} is a concept, not a finding code: `spec-debug explain {explain}` explains it"]
    assert run_cli("explain", typed, cwd=tmp_path).code == 0


def test_codes_and_other_words_keep_their_hints(tmp_path):
    assert run_cli("findings", "SD1O1", cwd=tmp_path).stderr.splitlines()[-1] == (
        "  hint: known codes include SD101; `spec-debug findings` lists them all")
    assert run_cli("findings", "perf_regression", cwd=tmp_path).stderr.splitlines()[-1] == (
        "  hint: perf_regression is a playbook: `spec-debug explain perf_regression` walks through it")
    assert run_cli("findings", "hello", cwd=tmp_path).stderr.splitlines()[-1].startswith(
        "  hint: finding codes are SD and three digits: SD0xx runner,")

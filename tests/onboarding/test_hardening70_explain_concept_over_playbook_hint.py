"""`spec-debug explain 'hot tokens'` (SGLang's hot_token_id = d2t + arange(DV), a vocab map word:
/work/shared/reference/EAGLE3.md) said "did you mean 'host_smoke'?" alone: the playbook the loader
found near the word hid the concept spelled closer. The concept now comes first, the playbook
after it; a word nearer a playbook than any concept keeps the playbook's hint alone."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("typed", "concept", "playbook"), [
    ("hot tokens", "vocab map", "host_smoke"),
    ("hot token", "vocab map", "host_smoke"),
    ("hidden_state", "aux hidden state layers", "hidden_state_format"),
])
def test_a_concept_spelled_closer_than_the_playbook_comes_first(tmp_path, typed, concept, playbook) -> None:
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        f"  hint: the concept {concept!r}? `spec-debug explain {concept!r}`; or the playbook {playbook!r}?")


@pytest.mark.parametrize(("typed", "playbook"), [("host_smok", "host_smoke"), ("drafter", "drafter_accuracy"),
                                                 ("perf", "perf_regression")])
def test_a_word_nearer_a_playbook_keeps_the_playbooks_hint(tmp_path, typed, playbook) -> None:
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == f"  hint: did you mean {playbook!r}?"

"""Words a newcomer meets in the docs and the reference, typed to `spec-debug explain`, got the
list of what explain takes: `TTT` ("draft trained with 3 TTT steps", SD101's example in
docs/findings.md), `bonus token` and vLLM's `num_lookahead_tokens` (the name vLLM gives a
speculators config's speculative_tokens, vllm transformers_utils/configs/speculators/algos.py).
Each is now the concept whose text explains it."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed, concept, said", [
    ("TTT", "eagle3", "training-time test"),
    ("training-time test", "eagle3", "training-time test"),
    ("ttt steps", "eagle3", "training-time test"),
    ("bonus token", "accept length", "(the bonus token)"),
    ("num_lookahead_tokens", "num speculative tokens", "`speculative_tokens`"),
])
def test_the_word_is_explained_by_its_concept(tmp_path, typed, concept, said):
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith(f"# {concept}\n")
    assert said in result.stdout

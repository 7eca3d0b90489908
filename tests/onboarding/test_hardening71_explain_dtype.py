"""`spec-debug explain --dtype` (the flag SD104's fix and example name: "no --dtype on the command
line") was "error: no such option: --dtype", and `explain dtype` "no playbook file 'dtype'". It is
a concept now: what the dtype is, how SGLang and vLLM load a draft's, the error a mismatch gives
(pasted unquoted, it finds the concept too), and SD104 at the launch_flags step."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed", [["dtype"], ["--dtype"], ["--dtype", "bfloat16"], ["--dtype=float16"],
                                   ["torch_dtype"], ["bf16"],
                                   "mat1 and mat2 must have the same dtype".split()])
def test_dtype_is_a_concept(typed: list[str]) -> None:
    result = run_cli("explain", *typed)
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("# dtype\n")
    assert "- SD104: Draft and target dtypes differ and no --dtype is set" in result.stdout
    assert "launch_flags step" in result.stdout
    assert "vLLM builds the draft's model config with the target's dtype" in result.stdout

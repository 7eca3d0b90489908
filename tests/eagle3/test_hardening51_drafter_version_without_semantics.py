"""`drafter eval --engine-version 0.5.0` without --semantics sglang|vllm.

The version picks an engine's conventions (which layers it captures, which norm flags it
honours), and only --semantics sglang or vllm runs them. Before: the reference forward ran, and
the result said `"semantics": "reference", "engine_version": "0.5.0"` with no word, read as an
evaluation "as SGLang 0.5.0". Now a note says the version was not used. Saved by speculators
0.9.0."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

NOTE = ("--engine-version 0.5.0 is read only with --semantics sglang or vllm: this evaluation "
        "ran the reference forward")


def _eval(root, *extra: str) -> dict:
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data",
                     str(root / "data"), "--steps", "2", "--json", *extra)
    assert result.code == 0, result.stderr
    return json.loads(result.stdout)


def test_an_engine_version_without_engine_semantics_is_said_unused(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=51)
    alone = _eval(root, "--engine-version", "0.5.0")
    assert alone["semantics"] == "reference" and NOTE in alone["notes"]
    assert alone["full_accuracy"] == _eval(root)["full_accuracy"]
    engine = _eval(root, "--semantics", "sglang", "--engine-version", "0.5.0")
    assert engine["engine_version"] == "0.5.0" and NOTE not in engine["notes"]

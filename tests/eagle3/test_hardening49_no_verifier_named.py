"""A draft whose config names no verifier (an EAGLE/SpecForge config, or a speculators config
stripped of speculators_config) evaluated without --target: it was scored against the data's
next tokens with nothing but "(data_tokens)" in the table's title to say so, and a draft that
hits its target 69% of the time read as one hitting 3% (accept length 1.03). Eval now notes that
no target was found, why, and how to give one."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

NOTE = ("no target: the draft's config names no verifier (speculators_config.verifier), so the samples were "
        "scored against the data's next tokens; pass --target DIR to score against the verifier's argmax")


def _eval(root, *extra: str) -> dict:
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data", str(root / "data"), "--json", *extra)
    assert result.code == 0, result.stderr
    return json.loads(result.stdout)


def test_a_draft_naming_no_verifier_says_what_it_was_scored_against(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    del config["speculators_config"]
    config_path.write_text(json.dumps(config))
    out = _eval(root)
    assert out["reference"] == "data_tokens"
    assert NOTE in out["notes"]
    given = _eval(root, "--target", str(root / "target"))
    assert given["reference"] == "target_argmax" and NOTE not in given["notes"]


def test_no_verifier_asked_for_is_not_noted(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=3)
    assert NOTE not in _eval(root, "--no-verifier")["notes"]

"""The hidden_state_format and perf_regression steps that load the draft (hidden_layout,
vocab_maps) given a target_model that is not here (a typo): the probes resolved it to
nothing and the drafter then took the verifier the draft's config names, so the layout was
ranked and the vocab checked against another model than the one asked for, with no word of
the typo. The path now goes to the drafter as given, whose error names it (as drafter_eval
does: tests/diagnose/test_hardening55_eval_given_paths.py). The probes run on a world saved
by speculators 0.9.0, whose draft's config names its verifier."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.probes import hidden_layout, vocab_maps  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("h55-given-target"), seed=1)


def test_the_layout_probe_names_a_missing_target(world):
    typo = world / "target-typo"
    # said as the probe's layout_error (the step's SD003), beside the conventions it still
    # makes (tests/diagnose/test_hardening57_layout_target_error.py)
    out = hidden_layout.run({"draft_model": str(world / "draft"), "target_model": str(typo),
                             "hidden_states": str(world / "data"), "max_samples": "3"})
    assert "target-typo: target checkpoint directory not found" in out["layout_error"]["message"]
    assert "layout" not in out


def test_the_vocab_probe_names_a_missing_target(world):
    typo = world / "target-typo"
    with pytest.raises(CheckpointError, match="target-typo: target checkpoint directory not found"):
        vocab_maps.run({"draft_model": str(world / "draft"), "target_model": str(typo)})


def test_a_target_that_is_here_is_used(world):
    out = vocab_maps.run({"draft_model": str(world / "draft"), "target_model": str(world / "target")})
    assert out["report"]["target"] == str(world / "target")

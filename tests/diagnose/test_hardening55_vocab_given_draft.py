"""The vocab probe (perf_regression's vocab step) given a draft_model that holds no
checkpoint on the host (a typo): it was skipped with "no draft checkpoint: pass --var
draft_model=DIR", asking for the var the user had given. The skip now names the path. The
world is saved by speculators 0.9.0."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.probes import vocab_maps  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("h55-vocab-draft"), seed=1)


def test_a_draft_model_that_is_not_there_is_named(world):
    typo = world / "draft-typo"
    out = vocab_maps.run({"draft_model": str(typo), "target_model": str(world / "target")})
    assert out["skipped"].startswith(f"no draft checkpoint: draft_model {typo} is no checkpoint "
                                     "directory on this host"), out["skipped"]


def test_without_a_draft_model_the_var_is_asked_for():
    out = vocab_maps.run({"draft_model": ""})
    assert out["skipped"] == "no draft checkpoint: pass --var draft_model=DIR (or a server command naming it)"

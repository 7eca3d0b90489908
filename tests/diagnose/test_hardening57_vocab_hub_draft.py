"""The vocab probe given a draft_model that is a Hub id (as a server command names it, e.g.
RedHatAI/...speculator.eagle3) with no snapshot in this host's Hugging Face cache: it was
skipped as "no checkpoint directory on this host (not there, or a folder above the one
holding config.json)", which reads as a wrong path. The skip now says it is a Hub id not in
the cache, names the caches looked in and how to fetch it. A local path still gets the old
words; a cached snapshot is used. The draft is saved by speculators 0.9.0."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.probes import vocab_maps  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

HUB_ID = "RedHatAI/Llama-3.1-8B-Instruct-speculator.eagle3"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("h57-vocab-hub"), seed=1)


def test_a_hub_id_not_in_the_cache_is_said_so(world, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    out = vocab_maps.run({"draft_model": HUB_ID, "target_model": str(world / "target")})
    said = out["skipped"]
    assert "folder above" not in said, said
    assert f"no Hugging Face cache here holds a snapshot of this Hub id (looked in {tmp_path / 'cache'}, " in said
    assert f"`huggingface-cli download {HUB_ID}`" in said


def test_a_cached_snapshot_is_checked(world, tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    snapshot = cache / ("models--" + HUB_ID.replace("/", "--")) / "snapshots" / "abc123"
    shutil.copytree(world / "draft", snapshot)
    monkeypatch.setenv("HF_HUB_CACHE", str(cache))
    out = vocab_maps.run({"draft_model": HUB_ID, "target_model": str(world / "target")})
    assert "skipped" not in out and out["draft"] == str(snapshot)


def test_a_local_path_keeps_its_words(world):
    out = vocab_maps.run({"draft_model": str(world / "draft-typo")})
    assert out["skipped"].endswith("(not there, or a folder above the one holding config.json)")

"""A speculators draft whose verifier was saved as a relative path (name_or_path "target", as
VerifierConfig.from_pretrained("target") writes it when training ran beside the target).
Found from the current directory, `drafter vocab` reported the target as "target", a path that
means nothing once the report is read elsewhere; not found, it said "neither a local directory
nor in the Hugging Face cache" without saying from which directory the path was read (the
current one, as vLLM reads it where the server starts, not the draft's folder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("relative_verifier")
    save_verifier_and_draft(root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["speculators_config"]["verifier"]["name_or_path"] = "target"
    path.write_text(json.dumps(config))
    return root


def test_a_verifier_found_from_the_current_directory_is_reported_by_its_full_path(world, monkeypatch):
    monkeypatch.chdir(world)
    report = check_drafter_vocab(world / "draft")
    assert report["target"] == str(world / "target")
    assert report["target_source"] == "speculators_config.verifier"


def test_a_verifier_not_found_says_which_directory_it_was_read_from(world, monkeypatch):
    monkeypatch.chdir(world / "draft")
    report = check_drafter_vocab(world / "draft")
    assert report["target"] is None
    [note] = [n for n in report["notes"] if n.startswith("the draft's config names its verifier")]
    assert f"(a relative path is read from the current directory, {world / 'draft'})" in note

"""A draft saved by speculators 0.9.0, then re-saved without embed_tokens.weight: the drafter
eval used the target's embedding (as the engines do: SGLang eagle_worker.py set_embed replaces
the draft's always, vLLM llama_eagle3.py shares the target's when the draft has none) and said
so only in the `embed_source` field; nothing told the reader the draft has no embedding. The
eval now says it in a note, naming what each engine does."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("shared-embedding"), seed=3)


def _eval(root):
    result = CliRunner().invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                              str(root / "data"), "--target", str(root / "target"),
                                              "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _without_embedding(tmp_path, world):
    from safetensors.torch import load_file, save_file

    root = tmp_path / "no-embedding"
    shutil.copytree(world, root)
    weights = root / "draft" / "model.safetensors"
    save_file({n: t for n, t in load_file(str(weights)).items() if n != "embed_tokens.weight"},
              str(weights), metadata={"format": "pt"})
    return root


def test_a_draft_without_embed_tokens_says_the_targets_is_used_as_the_engines_do(tmp_path, world):
    report = _eval(_without_embedding(tmp_path, world))
    assert report["embed_source"] == "target"
    [note] = [n for n in report["notes"] if "embed_tokens" in n]
    assert note.startswith("the draft has no embed_tokens.weight: the target's embedding is used here")
    assert "SGLang always replaces" in note and "vLLM shares the target's when the draft has none" in note
    # speculators copies the verifier's embedding into the draft: the same numbers either way
    assert report["full_accuracy"] == _eval(world)["full_accuracy"]


def test_a_draft_with_its_embedding_has_no_such_note(world):
    report = _eval(world)
    assert report["embed_source"] == "draft"
    assert not [n for n in report["notes"] if "no embed_tokens" in n]

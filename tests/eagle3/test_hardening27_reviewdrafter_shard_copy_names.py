"""Review of 57b2b5a (a tensor held by two shards): the copies were read back under the name of
the copy met second, so a folder holding a SpecForge-named shard (midlayer.*) beside a
speculators-named one (layers.0.*) of the same weight crashed the draft's load with
safetensors' 'File does not contain tensor midlayer.hidden_norm.weight' traceback. vLLM's
llama_eagle3.py load_weights renames midlayer.* to layers.0.*, so both load as one weight.
And a file holding one weight under both names kept the first copy, where the engines (and
this tool before) keep the one read last."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.checkpoint import duplicated_note, open_draft  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

FIRST, SECOND = "model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"
NORM = "layers.0.hidden_norm.weight"


@pytest.fixture(scope="module")
def tensors(tmp_path_factory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("copy_names")
    save_verifier_and_draft(root)
    return root / "draft", load_file(str(root / "draft" / "model.safetensors"))


def _folder(out: Path, draft: Path, shards: dict[str, dict]) -> Path:
    out.mkdir()
    (out / "config.json").write_text((draft / "config.json").read_text())
    for file, held in shards.items():
        save_file(held, str(out / file), {"format": "pt"})
    if len(shards) > 1:
        weight_map = {name: file for file, held in shards.items() for name in held}
        (out / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    return out


def test_a_copy_under_specforges_name_in_another_shard_is_named(tensors, tmp_path):
    draft, weights = tensors
    stale = {"midlayer.hidden_norm.weight": weights[NORM] + 1}
    checkpoint = open_draft(_folder(tmp_path / "two", draft, {FIRST: weights, SECOND: stale}))
    assert checkpoint.tensors.infos[NORM].file.name == FIRST  # where the index places it
    assert duplicated_note(checkpoint.tensors, "draft") == (
        f"the draft's {NORM} (also stored as midlayer.hidden_norm.weight) is stored in 2 shards "
        f"with different values ({FIRST}, {SECOND}): the copy in {FIRST}, where "
        "model.safetensors.index.json places it, was read, but vLLM and SGLang load every copy "
        "and keep the last one they read; remove the stale copies (save the draft again into an "
        "empty folder)")


def test_one_file_holding_a_weight_under_two_names_reads_the_last(tensors, tmp_path):
    draft, weights = tensors
    both = dict(weights) | {"midlayer.hidden_norm.weight": weights[NORM] + 1}
    checkpoint = open_draft(_folder(tmp_path / "one", draft, {"model.safetensors": both}))
    # safetensors lists a file's tensors by name: midlayer.* comes after layers.0.*
    assert checkpoint.tensors.infos[NORM].stored_name == "midlayer.hidden_norm.weight"
    assert duplicated_note(checkpoint.tensors, "draft") == (
        f"the draft's midlayer.hidden_norm.weight (also stored as {NORM}) is stored in 2 copies "
        "in one file with different values (model.safetensors): the copy in model.safetensors, "
        "the copy met last, was read, but vLLM and SGLang load every copy and keep the last one "
        "they read; remove the stale copies (save the draft again into an empty folder)")


def test_a_draft_saved_under_specforges_wrapper_prefix_is_named(tensors, tmp_path):
    """SpecForge's OnlineEagle3Model saves the draft under `draft_model.`; the store renames
    its tensors after the shards are read (keep_under), so the copy read is found by its file
    and stored name, not by the name it had before. The index places it in the second shard."""
    draft, weights = tensors
    wrapped = {f"draft_model.{name}": value for name, value in weights.items()}
    stale = {f"draft_model.{NORM}": weights[NORM] + 1}
    checkpoint = open_draft(_folder(tmp_path / "wrapped", draft, {FIRST: wrapped, SECOND: stale}))
    note = duplicated_note(checkpoint.tensors, "draft")
    assert note.startswith(f"the draft's draft_model.{NORM} is stored in 2 shards with "
                           f"different values ({FIRST}, {SECOND}): the copy in {SECOND}, where")

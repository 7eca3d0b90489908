"""A left-padded batch of a Qwen2.5/Qwen3 Instruct target saved without its attention_mask:
its tokenizer pads with <|endoftext|> 151643, which config.json does not name (eos_token_id
151645, no pad_token_id); generation_config.json does (pad_token_id 151643, eos_token_id
[151645, 151643]), and tokenizer_config.json's pad_token. The left-padding note read
config.json alone and said nothing of such a dump. Here the test target's config.json says
bos 9, eos 11, no pad; the dump opens each sample with 3 of id 9. Also: the note no longer
says speculators "would train on them": its loader drops a file whose token_ids differ from
its dataset's input_ids (0.9.0 train/data.py, "don't match input ids")."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import _pad_token_ids, evaluate_drafter  # noqa: E402
from spec_debug.eagle3.checkpoint import open_target  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

PAD = 9


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = save_informative_world(tmp_path_factory.mktemp("qwen_pad"), seed=1)
    padded = root / "padded"
    padded.mkdir()
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        save_file({"token_ids": torch.cat([torch.full((3,), PAD, dtype=ids.dtype), ids]),
                   "hidden_states": torch.cat([states[:1].repeat(3, 1, 1) * 0.5, states])},
                  str(padded / path.name))
    config = json.loads((root / "target" / "config.json").read_text())
    config.update(bos_token_id=PAD, eos_token_id=11)
    config.pop("pad_token_id", None)
    (root / "target" / "config.json").write_text(json.dumps(config))
    return root


def _target(world: Path, out: Path, files: dict[str, dict]) -> Path:
    shutil.copytree(world / "target", out)
    (out / "generation_config.json").unlink(missing_ok=True)
    for name, content in files.items():
        (out / name).write_text(json.dumps(content))
    return out


def _pad_notes(world: Path, target: Path) -> list[str]:
    result = evaluate_drafter(world / "draft", world / "padded", target, steps=1)
    return [n for n in result["notes"] if "left-padded batch" in n]


def test_the_pad_id_only_generation_config_names_is_said(world, tmp_path):
    target = _target(world, tmp_path / "target", {"generation_config.json": {
        "bos_token_id": PAD, "pad_token_id": PAD, "eos_token_id": [11, PAD]}})
    [note] = _pad_notes(world, target)
    assert note.startswith("3 of 3 samples open with a run of the target's pad/eos token id 9 "
                           "(9 position(s) in all)")
    assert "would train on" not in note and "don't match input ids" in note


def test_pad_ids_from_the_tokenizers_pad_token(world, tmp_path):
    tokenizer = {"pad_token": {"content": "<|endoftext|>"}, "added_tokens_decoder": {
        str(PAD): {"content": "<|endoftext|>", "special": True},
        "11": {"content": "<|im_end|>", "special": True}}}
    assert _pad_token_ids(open_target(_target(world, tmp_path / "a", {}))) == {11}
    target = _target(world, tmp_path / "b", {"tokenizer_config.json": tokenizer})
    assert _pad_token_ids(open_target(target)) == {11, PAD}
    (target / "tokenizer_config.json").write_text("{not json")  # unreadable: adds nothing
    assert _pad_token_ids(open_target(target)) == {11}

"""Packed documents whose length happens to be the target's attention_chunk_size.

A block mask of documents packed in one row is causal within each document; when every
document has C tokens it is exactly Llama 4's chunked attention mask for chunks of C, and a
target whose config says attention_chunk_size C made it accepted as "the target's own
pattern": the documents were scored as one sequence, as speculators' loader (which ignores
attention_mask) would feed them. Each packed document opens with the target's BOS token (a
chat template puts it once per document); one sequence has it at its first position only.
So blocks that all open with BOS are refused as packed documents, and a chunked mask over
one sequence is still read as the target's own.

The draft and states are speculators 0.9.0's (speculators_world); the mask is the
block-diagonal causal mask a packing collator builds."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
DOC = 4  # tokens per packed document, and the target's attention_chunk_size


world = informative_world("h24_review_packed", seed=5)


@pytest.fixture(scope="module")
def chunked_target(world, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("h24_review_chunked") / "target"
    shutil.copytree(world / "target", out)
    config = json.loads((out / "config.json").read_text())
    assert config["bos_token_id"] == 1  # LlamaConfig's, as transformers saved it
    (out / "config.json").write_text(json.dumps({**config, "attention_chunk_size": DOC}))
    return out


def _block_causal(T: int) -> torch.Tensor:
    """A packing collator's mask: causal within each document of DOC tokens."""
    sizes = [DOC] * (T // DOC) + ([T % DOC] if T % DOC else [])
    return torch.block_diag(*[torch.ones(n, n).tril() for n in sizes]).bool()


def _dump(world: Path, out: Path, bos_every_block: bool) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        ids = tensors["token_ids"].clone()
        T = ids.shape[0]
        ids[0] = 1  # every sample opens with BOS
        if bos_every_block:
            ids[::DOC] = 1  # ... and so does every packed document
        else:
            ids[DOC::DOC][ids[DOC::DOC] == 1] = 3  # one sequence: BOS at its start only
        save_file({"token_ids": ids, "hidden_states": tensors["hidden_states"].contiguous(),
                   "attention_mask": _block_causal(T).contiguous()}, str(out / path.name))
    return out


def _eval(world: Path, data: Path, target: Path, *extra: str):
    return runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                       str(data), "--target", str(target), "--steps", "2",
                                       *extra])


def test_documents_of_the_chunk_length_each_opening_with_bos_are_refused(world, chunked_target,
                                                                          tmp_path):
    result = _eval(world, _dump(world, tmp_path / "packed", True), chunked_target)
    assert result.exit_code != 0
    assert "every block opens with its BOS token (1): documents of 4 tokens packed in " \
           "one row" in result.output
    assert "Traceback" not in result.output


def test_one_sequence_under_the_targets_chunks_is_still_read(world, chunked_target, tmp_path):
    result = _eval(world, _dump(world, tmp_path / "one", False), chunked_target, "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["counts"]

"""A sample file that keeps its whole batch's attention_mask beside its own states.

A hand-written dumper around `model(input_ids, attention_mask=...)` over a padded batch may save
the batch's mask ([B, T], or the [B, 1, T, T] one transformers builds from it) into every
sample's file. The drafter refused such a file with "attention_mask has B*T entries,
hidden_states T", which says neither why nor what to write instead; it now names the batch
shape and the fix. The batch mask is transformers' own; the draft and states speculators
0.9.0's (speculators_world)."""

from __future__ import annotations

import os
import warnings

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
BATCH = 2


world = informative_world("h23_batch_mask", seed=11)


def _batch_masks(T: int, states: torch.Tensor) -> dict[str, torch.Tensor]:
    """A batch of BATCH rows, the second right-padded by 2: its [B, T] mask and transformers'
    [B, 1, T, T] additive causal mask built from it."""
    from transformers.modeling_attn_mask_utils import _prepare_4d_causal_attention_mask

    flat = torch.ones(BATCH, T, dtype=torch.long)
    flat[1, -2:] = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        square = _prepare_4d_causal_attention_mask(flat, (BATCH, T),
                                                   states[None].expand(BATCH, -1, -1).float(), 0)
    return {"flat": flat, "square": square}


@pytest.mark.parametrize("form,shape", [("flat", "[2, {T}]"), ("square", "[2, 1, {T}, {T}]")])
def test_a_batchs_mask_in_a_samples_file_is_named_with_the_fix(world, tmp_path, form, shape):
    data = tmp_path / form
    data.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        T = tensors["token_ids"].shape[0]
        mask = _batch_masks(T, tensors["hidden_states"][:, -1])[form]
        save_file({**tensors, "attention_mask": mask.contiguous()}, str(data / path.name))
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    assert result.exit_code == 2
    first = sorted(data.glob("*.safetensors"))[0]
    T = load_file(str(first))["token_ids"].shape[0]
    assert (f"shape {shape.format(T=T)}: the mask of a batch of 2, not of this sample; save each "
            "sample's own row of it") in " ".join(result.output.split())
    assert "Traceback" not in result.output

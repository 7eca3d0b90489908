"""A dump written by a hook that saved on every forward of generate() holds the prompt's file and
then one file per decode step, each of one token (the step runs only the new token against the
KV cache). Every one-token file was skipped as "hs_1.safetensors: 1 token(s), too short to
score", and a dump of nothing else ended in "no usable samples (...)" with no hint. The reason
now says what a one-token file likely is, and the error carries the fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from spec_debug.eagle3.data import DataError, Sample, SampleSpec, check_sample
from tests.eagle3._world import drafter_error, drafter_json, informative_world, torch

world = informative_world("h72_one_token_samples", seed=72)

REASON = ("1 token, too short to score (a sample needs a token and the next one it predicts): "
          "one-token files are what a hook saving on every forward of generate() writes, one "
          "per decode step")
HINT = ("hint: capture each sequence in one forward pass over all its tokens (prompt and "
        "response), one file per sequence, as speculators' and SpecForge's data generation do")


def _per_step_dump(world: Path, out: Path, prompt: int) -> Path:
    """hs_0 the first `prompt` tokens (prefill; none when 0), then one file per later token."""
    out.mkdir()
    tensors = load_file(str(world / "data" / "hs_0.safetensors"))
    ids, states = tensors["token_ids"], tensors["hidden_states"]
    cuts = ([(0, prompt)] if prompt else []) + [(t, t + 1) for t in range(prompt, len(ids))]
    for i, (lo, hi) in enumerate(cuts):
        save_file({"token_ids": ids[lo:hi].contiguous(),
                   "hidden_states": states[lo:hi].contiguous()}, str(out / f"hs_{i}.safetensors"))
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
def test_a_dump_of_one_token_files_says_what_they_likely_are(world, tmp_path, command):
    data = _per_step_dump(world, tmp_path / "steps", prompt=0)
    said = drafter_error(world, data, command)
    assert f"no usable samples (14 sample file(s) skipped; first: hs_0.safetensors: {REASON}) " \
           f"{HINT}" in said, said


def test_decode_step_files_beside_the_prompts_are_noted(world, tmp_path):
    out = drafter_json(world, _per_step_dump(world, tmp_path / "prefill", prompt=10))
    assert out["samples"] == 1 and out["skipped_samples"] == 4, out
    assert out["skipped"][0] == {"file": str(tmp_path / "prefill" / "hs_1.safetensors"),
                                 "reason": f"hs_1.safetensors: {REASON}"}
    assert f"4 sample file(s) skipped; first: hs_1.safetensors: {REASON}" in out["notes"]


def test_an_empty_sample_keeps_its_own_reason():
    spec = SampleSpec(hidden_size=4, num_slots=2)
    empty = Sample("hs_0.safetensors", torch.zeros(0, dtype=torch.long), torch.zeros(0, 1, 4),
                   (0,), None, torch.zeros(0, dtype=torch.bool), None, 2)
    with pytest.raises(DataError) as caught:
        check_sample(empty, spec)
    assert caught.value.message == "hs_0.safetensors: 0 token(s), too short to score"
    assert caught.value.hint is None

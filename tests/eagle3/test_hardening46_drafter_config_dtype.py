"""A draft whose weights are stored in another float type than its config's dtype.

A speculators draft trained in bfloat16 whose weights were re-saved in float16 (a half()
export) or float32 (an fp32 master copy) keeps `"dtype": "bfloat16"` in its config.json.
speculators' from_pretrained builds the model in the config's dtype (transformers 5
`_get_dtype`: dtype="auto" reads config.dtype) and casts the weights into it, as vLLM does
into the target's --dtype. The eval cast the stored weights straight to its --dtype, so it
ran float16-precision weights that no engine runs: logits ~1e-3 off speculators' own.
Now the weights are rounded to the config's dtype first, and a note says so.
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.data import Sample  # noqa: E402
from spec_debug.eagle3.evaluate import evaluate  # noqa: E402
from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import (AUX, H, V, draft_inputs,  # noqa: E402
                                            make_targets_informative, reference_logits,
                                            save_verifier_and_draft)

STEPS = 3


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    root = tmp_path_factory.mktemp("config_dtype")
    save_verifier_and_draft(root)
    return root


def _restored(saved, tmp_path, stored: str, declared: str):
    """The speculators-saved draft with its weights re-saved as `stored` and its config
    declaring `declared`."""
    root = tmp_path / "w"
    shutil.copytree(saved, root)
    weights = root / "draft" / "model.safetensors"
    state = {name: tensor.to(getattr(torch, stored)) if tensor.is_floating_point() else tensor
             for name, tensor in load_file(str(weights)).items()}
    save_file(state, str(weights), metadata={"format": "pt"})
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config.pop("torch_dtype", None)
    config["dtype"] = declared
    config_path.write_text(json.dumps(config))
    return root


def _speculators_float32(root):
    """speculators' draft as its from_pretrained loads it (in the config's dtype), then run in
    float32 like the eval's default --dtype."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(str(root / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel.from_pretrained(str(root / "draft"), config=config).eval()
    return model, model.fc.weight.dtype


def _samples(count: int = 3, length: int = 14) -> list[Sample]:
    generator = torch.Generator().manual_seed(11)
    samples = []
    for i in range(count):
        T0 = length + i
        slots = torch.randn(T0, len(AUX) + 1, H, generator=generator)
        loss_mask = torch.rand(T0, generator=generator) > 0.2
        samples.append(Sample(f"s{i}", torch.randint(0, V, (T0,), generator=generator), slots,
                              tuple(range(len(AUX) + 1)), slots[:, -1].clone(), loss_mask, None,
                              len(AUX) + 1))
    return samples


def _reference_accuracy(model, samples) -> list[float]:
    from speculators.losses.utils import resolve_loss_config

    sums: dict[str, float] = {}
    for sample in samples:
        aux, ids = draft_inputs(sample)
        T = ids.shape[1]
        with torch.no_grad():
            _, _, metrics = model(
                hidden_states=aux, input_ids=ids, document_ids=torch.zeros(1, T, dtype=torch.long),
                loss_mask=sample.loss_mask[1:][None], verifier_last_hidden_states=sample.final[1:][None],
                ttt_steps=STEPS, loss_config=resolve_loss_config("kl_div", "eager"))
        for key, value in metrics.items():
            sums[key] = sums.get(key, 0.0) + float(value)
    return [sums[f"full_acc_{k}_sum"] / sums[f"full_acc_{k}_total"] for k in range(STEPS)]


@pytest.mark.parametrize("stored", ["float16", "float32"])
def test_weights_are_rounded_to_the_config_dtype_as_speculators_loads_them(saved, tmp_path, stored):
    root = _restored(saved, tmp_path, stored, "bfloat16")
    reference, built_in = _speculators_float32(root)
    assert built_in == torch.bfloat16  # speculators builds the draft in the config's dtype
    reference = reference.float()
    loaded = load_draft(root / "draft", root / "target")
    assert loaded.model.fc.weight.dtype == torch.float32

    samples = _samples()
    for sample in samples:
        aux, ids = draft_inputs(sample)
        expected = reference_logits(reference, aux, ids, STEPS)
        with torch.no_grad():
            got = loaded.model(aux, ids, STEPS)
        for step, (a, b) in enumerate(zip(got, expected)):
            diff = (a - b).abs().max().item()
            assert diff < 1e-5, f"step {step}: max |diff| {diff}"  # was ~1e-3 before

    make_targets_informative(reference, samples)
    result = evaluate(loaded, samples, steps=STEPS, layout_positions=(0, 1, 2))
    assert result.full_accuracy == pytest.approx(_reference_accuracy(reference, samples), abs=1e-6)
    assert (f"weights stored in {stored} under a config whose dtype is bfloat16: rounded to "
            "bfloat16 before evaluation") in " ".join(loaded.notes)


def test_weights_in_the_config_dtype_or_under_a_float32_config_are_left_as_stored(saved, tmp_path):
    root = _restored(saved, tmp_path, "float16", "float32")
    loaded = load_draft(root / "draft", root / "target")
    stored = load_file(str(root / "draft" / "model.safetensors"))["fc.weight"]
    assert torch.equal(loaded.model.fc.weight, stored.float())  # float32 holds float16 exactly
    assert not [note for note in loaded.notes if "under a config whose dtype" in note]


def test_values_past_the_config_dtype_range_are_kept_and_named(saved, tmp_path):
    """bfloat16 weights under a float16 config (EAGLE3.md: fp16 draft configs beside bf16
    targets) with a value past 65504: rounding would make it Inf and every score NaN."""
    root = _restored(saved, tmp_path, "bfloat16", "float16")
    weights = root / "draft" / "model.safetensors"
    state = load_file(str(weights))
    state["fc.weight"][0, 0] = 1e5
    save_file(state, str(weights), metadata={"format": "pt"})
    loaded = load_draft(root / "draft", root / "target")
    assert torch.isfinite(loaded.model.fc.weight).all()
    assert loaded.model.fc.weight[0, 0].item() == state["fc.weight"][0, 0].float().item()
    [note] = [note for note in loaded.notes if "under a config whose dtype" in note
              or "(the config's dtype)" in note]
    assert ("fc.weight hold values past float16's range (the config's dtype): kept as stored "
            "here") in note
    assert note.startswith("weights stored in bfloat16 under a config whose dtype is float16")

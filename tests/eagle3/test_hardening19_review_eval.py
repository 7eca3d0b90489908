"""Review of today's drafter changes, and two gaps of `drafter eval`.

- The norm_before_residual check (9626a65) named the flag on a random draft evaluated on one
  sample: on 13 rows one or two chance hits pass its 0.05 margin (9 of 40 random drafts
  saved by speculators). Now the gain must also be a handful of rows and 2.5 standard
  deviations; a draft whose config.json really has the wrong value is still named.
- `drafter layout` scored the configured layout twice (once for the flag check, once in the
  search): the flag check now costs one pass over the samples, the flipped value's.
- `--steps` deeper than every sample printed 0.0 accuracy for steps nothing was scored at.
- A target whose final norm or lm_head holds NaN/Inf (a corrupt shard) gave arbitrary
  verifier targets and a silently low accuracy.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3 import layout as layout_module  # noqa: E402
from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.errors import SpecDebugError  # noqa: E402
from tests.eagle3.speculators_world import (  # noqa: E402
    AUX, DV, V, save_informative_world, save_perturbed_draft)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("hardening19_review"), seed=5)


def _flag_notes(result: dict) -> list[str]:
    return [note for note in result["notes"] if "norm_before_residual" in note]


# seeds whose random draft the check blamed on the flag, on the first sample alone
@pytest.mark.parametrize("seed_name", ["r1", "r10", "r22", "r27"])
def test_a_random_draft_on_one_sample_is_not_blamed_on_norm_before_residual(
        world, tmp_path, seed_name):
    from speculators.models.eagle3 import Eagle3SpeculatorConfig

    layer_config = Eagle3SpeculatorConfig.from_pretrained(str(world / "draft")).transformer_layer_config
    draft = tmp_path / "random_draft"  # norms moved off 1: not caught as "untrained"
    save_perturbed_draft(draft, world / "target", layer_config, aux=AUX, draft_vocab=DV, vocab=V,
                         seed_name=seed_name,
                         flags={"norm_before_residual": seed_name in ("r1", "r27")})
    result = evaluate_drafter(draft, world / "data", world / "target", max_samples=1)
    assert _flag_notes(result) == []
    report = probe_layout(draft, world / "data", world / "target", max_samples=1)
    assert "norm_before_residual" not in report["verdict"]


def test_a_wrong_norm_before_residual_is_still_named_on_one_sample(tmp_path):
    root = save_informative_world(tmp_path / "w", seed=7, draft_flags={"norm_before_residual": True})
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["norm_before_residual"] = False  # what speculators convert writes without the kwarg
    config_path.write_text(json.dumps(config))
    result = evaluate_drafter(root / "draft", root / "data", root / "target", max_samples=1)
    assert any("set it to true" in note for note in _flag_notes(result))


def test_layout_flag_check_costs_one_pass_not_two(world, monkeypatch):
    calls: list[tuple] = []
    real = layout_module.evaluate

    def counting(loaded, samples, **kwargs):
        calls.append((kwargs.get("layout_positions"), kwargs["flags"].norm_before_residual))
        return real(loaded, samples, **kwargs)

    monkeypatch.setattr(layout_module, "evaluate", counting)
    report = probe_layout(world / "draft", world / "data", world / "target")
    assert len(calls) == len(set(calls))  # no (layout, flag) scored twice
    assert len(calls) == len(report["ranked"]) + 1  # + the configured layout, flag flipped


def test_steps_deeper_than_every_sample_are_not_scored_not_zero(world):
    lengths = [16 - 2, 16 - 1, 16]  # save_informative_world: 14, 15 and 16 tokens
    longest = max(lengths)
    result = evaluate_drafter(world / "draft", world / "data", world / "target", steps=20)
    # a sample of T tokens has T-1 rows; step k scores rows t with t + k <= T - 2
    assert result["unscored_steps"] == list(range(longest - 1, 20))
    assert result["counts"]["full_total"][longest - 2] > 0  # the deepest step with a row
    note = next(n for n in result["notes"] if "not scored" in n)
    assert f"steps {longest - 1}, " in note and f"{longest} tokens" in note
    assert f"--steps {longest - 1}" in note
    # the JSON fields keep their types: floats, for the diagnose and report readers
    assert all(isinstance(v, float) for v in result["full_accuracy"])
    assert len(result["full_accuracy"]) == 20

    shallow = evaluate_drafter(world / "draft", world / "data", world / "target", steps=3)
    assert shallow["unscored_steps"] == []
    assert not any("not scored" in n for n in shallow["notes"])

    table = CliRunner().invoke(drafter_app, [
        "eval", "--model", str(world / "draft"), "--data", str(world / "data"),
        "--target", str(world / "target"), "--steps", "20"], env={"COLUMNS": "200"})
    assert table.exit_code == 0, table.output
    row = next(line for line in table.output.splitlines() if line.strip("│ ").startswith("19 "))
    assert row.count("n/a") == 4


@pytest.mark.parametrize("tensor_name", ["lm_head.weight", "model.norm.weight"])
def test_a_target_head_with_nan_is_refused_naming_tensor_and_file(world, tmp_path, tensor_name):
    root = tmp_path / "w"
    shutil.copytree(world, root)
    weights = root / "target" / "model.safetensors"
    tensors = load_file(str(weights))
    damaged = tensors[tensor_name].clone()
    damaged.view(-1)[3] = float("nan")  # one value a corrupt shard holds
    tensors[tensor_name] = damaged
    save_file(tensors, str(weights), metadata={"format": "pt"})

    with pytest.raises(SpecDebugError) as caught:
        evaluate_drafter(root / "draft", root / "data", root / "target")
    assert tensor_name in caught.value.message and str(weights) in caught.value.message
    assert "NaN or Inf" in caught.value.message and "again" in caught.value.hint
    with pytest.raises(SpecDebugError, match=tensor_name.replace(".", r"\.")):
        probe_layout(root / "draft", root / "data", root / "target")


def test_float16_overflow_only_past_the_last_scored_row_is_scored_not_refused(world, tmp_path):
    """A dump whose loss mask ends before the sample does (the end-of-turn tokens after the
    reply) and whose tail holds states past 65504 (bf16 keeps them): no scored row sees the
    tail (attention is causal, step k scores row t against t+k), so float16 scores exactly
    what float32 does; was one PrecisionError for the whole run."""
    root = tmp_path / "w"
    shutil.copytree(world, root)
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        T = tensors["token_ids"].shape[0]
        mask = torch.ones(T, dtype=torch.bool)
        mask[T - 3:] = False  # the last 3 tokens are never scored (shifted: rows T-4..T-2)
        states = tensors["hidden_states"].float()  # [T, aux + 1, H]
        states[T - 3:, : len(AUX), 5] = 1e7  # aux states of the unscored tail only
        tensors.update(loss_mask=mask, hidden_states=states.to(torch.bfloat16).contiguous())
        save_file(tensors, str(path))
    fp32 = evaluate_drafter(root / "draft", root / "data", root / "target", dtype="float32",
                            steps=3)
    fp16 = evaluate_drafter(root / "draft", root / "data", root / "target", dtype="float16",
                            steps=3)
    assert fp16["counts"] == fp32["counts"] and fp16["tokens"] == fp32["tokens"]
    assert fp32["full_accuracy"][0] > 0.3

    # one scored row with such a state still refuses: every later row attends to it
    for path in sorted((root / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        states = tensors["hidden_states"].float()
        states[2, : len(AUX), 5] = 1e7
        tensors["hidden_states"] = states.to(torch.bfloat16).contiguous()
        save_file(tensors, str(path))
    with pytest.raises(SpecDebugError, match="65504"):
        evaluate_drafter(root / "draft", root / "data", root / "target", dtype="float16")

"""spec-debug's drafter and evaluation against speculators 0.9.0 on configurations that
tests/eagle3/test_equivalence.py does not cover: 3 layers, mixed full/sliding layers with
yarn, MQA with biases, head_dim != hidden/heads, tied embeddings, a 1-token draft vocab,
partial_rotary_factor (kept by speculators train/cli.py for MRoPE verifiers), bf16, and the
evaluation edge cases (all-masked samples, samples shorter than the steps, mixed lengths).

speculators builds and saves each draft; spec-debug loads the saved directory. fp32 logits must
match within 1e-4 at every TTT step and the raw metric sums within 1e-6.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.data import Sample  # noqa: E402
from spec_debug.eagle3.evaluate import evaluate  # noqa: E402
from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import (  # noqa: E402
    draft_inputs, make_targets_informative, reference_logits, save_perturbed_draft,
)

H, V, NL, STEPS = 32, 96, 8, 3
AUX = [2, NL // 2, NL - 3]


@dataclass(frozen=True)
class Case:
    name: str
    layers: int = 1
    draft_vocab: int = 48
    flags: dict = field(default_factory=dict)
    decoder: dict = field(default_factory=dict)
    sliding_window: int | None = None
    partial_neox: bool = False  # speculators train/cli.py installs its partial-rotary patch


YARN = {"rope_type": "yarn", "rope_theta": 10000.0, "factor": 4.0,
        "original_max_position_embeddings": 16}
CASES = [
    Case("3layers-residual-output", layers=3,
         flags={"norm_before_residual": True, "norm_output": True}),
    Case("mixed-sliding-yarn", layers=2, sliding_window=3,
         decoder={"rope_parameters": YARN,
                  "layer_types": ["full_attention", "sliding_attention"]}),
    Case("mqa-biases", layers=2, decoder={"num_key_value_heads": 1, "attention_bias": True,
                                          "mlp_bias": True}),
    Case("head_dim-not-hidden-over-heads", decoder={"head_dim": 12, "num_attention_heads": 2,
                                                    "num_key_value_heads": 1}),
    Case("tied-embeddings-fc_norm", decoder={"tie_word_embeddings": True},
         flags={"fc_norm": True}),
    Case("draft-vocab-1", draft_vocab=1),
    # speculators 0.9.0 train/config/schema.py defaults for eagle3 (norm_before_residual,
    # norm_before_fc, norm_output, every layer sliding), with a window shorter than the samples
    Case("training-defaults-sliding", layers=2, sliding_window=4,
         flags={"norm_before_residual": True, "norm_before_fc": True, "norm_output": True}),
    # partial_rotary_factor: transformers' default RoPE ignores it (whole head rotated), the
    # scaled kinds honour it and speculators' rotary_partial.py rotates the first channels only
    Case("partial-rotary-default", decoder={"rope_parameters": {
        "rope_type": "default", "rope_theta": 10000.0, "partial_rotary_factor": 0.5}}),
    Case("partial-rotary-yarn", partial_neox=True,
         decoder={"rope_parameters": {**YARN, "partial_rotary_factor": 0.5}}),
]


def _decoder_kwargs(case: Case) -> dict:
    kw = dict(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
              num_key_value_heads=2, head_dim=8, max_position_embeddings=64, rms_norm_eps=1e-6)
    kw.update(case.decoder)
    return kw


@pytest.fixture(scope="module")
def verifier_dir(tmp_path_factory):
    from transformers import LlamaConfig, LlamaForCausalLM

    root = tmp_path_factory.mktemp("verifier")
    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(num_hidden_layers=NL, **_decoder_kwargs(Case("v"))))
    with torch.no_grad():
        model.model.norm.weight.normal_(1.0, 0.2)
    model.save_pretrained(root)
    return root


@pytest.fixture
def partial_neox():
    from speculators.models.eagle3 import rotary_partial

    rotary_partial.install_partial_neox_rotary()
    yield
    rotary_partial.uninstall_partial_neox_rotary()


def _build_reference(case: Case, verifier_dir, out_dir):
    from transformers import LlamaConfig

    kw = _decoder_kwargs(case)
    if case.sliding_window:
        kw["sliding_window"] = case.sliding_window
        kw.setdefault("layer_types", ["sliding_attention"] * case.layers)
    layer_config = LlamaConfig(num_hidden_layers=case.layers, **kw)
    return save_perturbed_draft(out_dir, verifier_dir, layer_config, aux=AUX, draft_vocab=case.draft_vocab, vocab=V,
                                seed_name=case.name, flags=case.flags)


def _samples(lengths, mask: str = "random") -> list[Sample]:
    generator = torch.Generator().manual_seed(7)
    samples = []
    for i, T0 in enumerate(lengths):
        slots = torch.randn(T0, len(AUX) + 1, H, generator=generator)
        loss_mask = torch.rand(T0, generator=generator) > 0.2
        if mask != "random":
            loss_mask = torch.full((T0,), mask == "ones", dtype=torch.bool)
        samples.append(Sample(f"s{i}", torch.randint(0, V, (T0,), generator=generator), slots,
                              tuple(range(len(AUX) + 1)), slots[:, -1].clone(), loss_mask, None,
                              len(AUX) + 1))
    return samples


def _reference_metrics(model, sample: Sample, steps: int) -> dict[str, float]:
    from speculators.losses.utils import resolve_loss_config

    aux, ids = draft_inputs(sample)
    with torch.no_grad():
        _, _, metrics = model(
            hidden_states=aux, input_ids=ids, document_ids=torch.zeros_like(ids),
            loss_mask=sample.loss_mask[1:][None], verifier_last_hidden_states=sample.final[1:][None],
            ttt_steps=steps, loss_config=resolve_loss_config("kl_div", "eager"))
    return {key: float(value) for key, value in metrics.items()}


def _assert_counts(result, sums: dict[str, float], steps: int) -> None:
    for k in range(steps):
        for ours, theirs in (("full_correct", "full_acc_{}_sum"), ("full_total", "full_acc_{}_total"),
                             ("cond_total", "cond_acc_{}_total")):
            assert result.counts[ours][k] == pytest.approx(sums[theirs.format(k)], abs=1e-6), (
                k, ours, result.counts[ours], sums)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_logits_and_metrics_match_speculators(case, verifier_dir, tmp_path, request):
    if case.partial_neox:
        request.getfixturevalue("partial_neox")
    reference = _build_reference(case, verifier_dir, tmp_path / "draft")
    loaded = load_draft(tmp_path / "draft", verifier_dir)
    samples = _samples((12, 13))
    for sample in samples:
        aux, ids = draft_inputs(sample)
        expected = reference_logits(reference, aux, ids, STEPS)
        with torch.no_grad():
            got = loaded.model(aux, ids, STEPS)
        for step, (a, b) in enumerate(zip(got, expected)):
            diff = (a - b).abs().max().item()
            assert diff < 1e-4, f"{case.name} step {step}: max |diff| {diff}"
    make_targets_informative(reference, samples)
    sums: dict[str, float] = {}
    for sample in samples:
        for key, value in _reference_metrics(reference, sample, STEPS).items():
            sums[key] = sums.get(key, 0.0) + value
    result = evaluate(loaded, samples, steps=STEPS, layout_positions=(0, 1, 2))
    assert result.counts["full_correct"][0] > 0
    _assert_counts(result, sums, STEPS)


@pytest.fixture(scope="module")
def plain(verifier_dir, tmp_path_factory):
    out = tmp_path_factory.mktemp("plain") / "draft"
    reference = _build_reference(Case("plain-edge"), verifier_dir, out)
    return reference, load_draft(out, verifier_dir)


def test_all_masked_samples_give_zero_totals_not_nan(plain):
    reference, loaded = plain
    samples = _samples((9, 12), mask="zeros")
    sums: dict[str, float] = {}
    for sample in samples:
        for key, value in _reference_metrics(reference, sample, STEPS).items():
            sums[key] = sums.get(key, 0.0) + value
    result = evaluate(loaded, samples, steps=STEPS, layout_positions=(0, 1, 2))
    _assert_counts(result, sums, STEPS)
    assert result.full_accuracy == result.conditional_accuracy == [0.0] * STEPS
    values = result.target_acceptance + result.target_conditional_acceptance
    assert not any(math.isnan(v) for v in values + [result.expected_accept_length])


def test_short_and_mixed_length_samples(plain):
    """speculators' forward needs T >= ttt_steps (its teacher-forcing pad of 1+step zeros no longer
    fits: a RuntimeError), so for a sample of T rows spec-debug scores steps 0..T-1 and must
    agree with speculators run with ttt_steps=T; lengths 1 (nothing to score), 2 and 3 mixed
    with a long one, all loss rows on."""
    reference, loaded = plain
    samples = _samples((1, 2, 3, 4, 40), mask="ones")
    make_targets_informative(reference, samples[1:])
    steps = 5
    sums: dict[str, float] = {}
    for sample in samples[1:]:
        T = sample.length - 1
        for key, value in _reference_metrics(reference, sample, min(steps, T)).items():
            sums[key] = sums.get(key, 0.0) + value
    result = evaluate(loaded, samples, steps=steps, layout_positions=(0, 1, 2))
    assert result.samples == 4  # the 1-token sample has no row to score
    for k in range(steps):
        for name in ("full_acc_{}_sum", "full_acc_{}_total", "cond_acc_{}_total"):
            sums.setdefault(name.format(k), 0.0)
    _assert_counts(result, sums, steps)
    assert result.full_accuracy[0] > 0


def test_bf16_logits_within_a_few_ulps(verifier_dir, tmp_path):
    """bf16: both sides round at every op, and spec-debug sums the TTT attention as a causal
    block plus per-step diagonals where eager attention does one matmul, so the accumulation
    order differs. Expected: max |diff| within 4 bf16 ulps of the largest logit
    (4 * 2^-8 * max|logit|), and the same argmax wherever the reference's top-2 gap is wider
    than that."""
    reference = _build_reference(Case("bf16"), verifier_dir, tmp_path / "draft")
    loaded = load_draft(tmp_path / "draft", verifier_dir, dtype="bfloat16")
    reference = reference.to(torch.bfloat16)
    for sample in _samples((30, 50)):
        aux, ids = draft_inputs(sample)
        aux = aux.to(torch.bfloat16)
        expected = reference_logits(reference, aux, ids, STEPS)
        with torch.no_grad():
            got = loaded.model(aux, ids, STEPS)
        for a, b in zip(got, expected):
            a, b = a.float()[0], b.float()[0]
            tolerance = 4 * 2.0 ** -8 * b.abs().max().item()
            assert (a - b).abs().max().item() <= tolerance
            top2 = b.topk(2, dim=-1).values
            clear = (top2[:, 0] - top2[:, 1]) > 2 * tolerance
            assert torch.equal(a.argmax(-1)[clear], b.argmax(-1)[clear])

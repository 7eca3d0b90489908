"""Valid inputs that today's drafter refusals and notes must leave alone (review of the
hardening20 drafter commits): samples padded at the end with zero rows (hs files and SpecForge
data_*.ckpt with a loss mask of 0 there) are not "a capture that wrote nothing" (the all-zero
slot rule looks at a whole slot, not at its padding rows); speculators' own save of a draft
(ascending eagle_aux_hidden_state_layer_ids, no model.* names, a vocab_size equal to its
embedding) gets none of the new notes; a Qwen3-Omni target (thinker_config.text_config) with
the draft's target_hidden_size equal to its text width is no SD204 and its layers are planned."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.eagle3.data import SampleSpec, check_sample, read_sample  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL  # noqa: E402

runner = CliRunner()
PAD = 5
# the wording of today's refusals and notes, none of which a valid save may get
NEW_WORDS = ("all zeros", "not ascending", "more than once", "model.*", "default layers",
             "config's vocab_size", "target_hidden_size", "torch.save")


world = informative_world("reviewdrafter", seed=20)


def _padded_hs(world: Path, out: Path) -> Path:
    """data/ padded at the end as a batched extraction pads: token 0, zero states, mask 0."""
    from safetensors.torch import load_file, save_file

    out.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        save_file({"token_ids": torch.cat([ids, torch.zeros(PAD, dtype=ids.dtype)]),
                   "hidden_states": torch.cat([states, torch.zeros(PAD, *states.shape[1:],
                                                                   dtype=states.dtype)]),
                   "loss_mask": torch.cat([torch.ones(len(ids), dtype=torch.long),
                                           torch.zeros(PAD, dtype=torch.long)])},
                  str(out / path.name), metadata={"layer_ids": json.dumps(AUX + [NL])})
    return out


def _padded_specforge(world: Path, out: Path) -> Path:
    """The same states as SpecForge's prepare_hidden_states pads a batch: aux_hidden_state
    [1, T, 3H] and hidden_state [1, T, H] with zero rows at the end, loss_mask 0 there."""
    out.mkdir()
    for i, path in enumerate(sorted((world / "data").glob("hs_*.safetensors"))):
        sample = read_sample(path)
        T, H = sample.length, sample.slots.shape[-1]
        aux = sample.slots[:, :-1].reshape(T, -1)
        zeros = torch.zeros(PAD, H, dtype=aux.dtype)
        torch.save({"input_ids": torch.cat([sample.token_ids, torch.zeros(PAD, dtype=torch.long)]),
                    "loss_mask": torch.cat([torch.ones(T, dtype=torch.long),
                                            torch.zeros(PAD, dtype=torch.long)]),
                    "aux_hidden_state": torch.cat([aux, zeros.repeat(1, len(AUX))])[None],
                    "hidden_state": torch.cat([sample.slots[:, -1], zeros])[None]},
                   out / f"data_{i}.ckpt")
    return out


def _eval(world: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _flagged(notes) -> list[str]:
    return [n for n in notes or () if any(word in n for word in NEW_WORDS)]


@pytest.mark.parametrize("fmt", ["hs", "specforge"])
def test_samples_padded_at_the_end_are_scored_not_refused_as_unwritten(world, tmp_path, fmt):
    make = _padded_hs if fmt == "hs" else _padded_specforge
    data = make(world, tmp_path / "padded")
    report = _eval(world, data)
    assert report["samples"] == 3, report.get("skipped_samples")
    assert not report.get("skipped_samples"), report["skipped_samples"]
    assert not _flagged(report["notes"]), report["notes"]
    plain = _eval(world, world / "data")
    # the padding is masked out: the same positions are scored as without it
    assert report["loss_mask_source"] == "file"
    assert report["full_accuracy"] == pytest.approx(plain["full_accuracy"]), (
        report["full_accuracy"], plain["full_accuracy"])


def test_a_padded_sample_passes_the_per_sample_checks(world, tmp_path):
    data = _padded_hs(world, tmp_path / "padded")
    for path in sorted(data.glob("hs_*.safetensors")):
        sample = read_sample(path)
        assert not bool(sample.slots[-PAD:].any())  # the padding rows really are zero
        check_sample(sample, SampleSpec(hidden_size=sample.slots.shape[-1],
                                        num_slots=sample.num_file_slots, vocab_size=256))


def test_speculators_own_save_gets_none_of_the_new_notes(world, tmp_path):
    named = _padded_hs(world, tmp_path / "named")
    for args in (["eval", "--data", str(world / "data")], ["eval", "--data", str(named)],
                 ["layout", "--data", str(named)], ["vocab"]):
        result = runner.invoke(drafter_app, [args[0], "--model", str(world / "draft"),
                                             *args[1:], "--target", str(world / "target"),
                                             "--json"])
        assert result.exit_code == 0, result.output
        report = json.loads(result.output)
        assert not _flagged(report.get("notes")), (args, report.get("notes"))
        issues = [issue for check in report.get("checks") or ()
                  for issue in check.get("issues") or ()]
        assert not issues, issues


def test_a_qwen3_omni_target_with_a_matching_target_hidden_size_is_no_width_problem(tmp_path):
    from spec_debug.diagnose.steps import configs_step
    from spec_debug.probes import hidden_layout
    from tests.diagnose.test_steps import context

    # Qwen/Qwen3-Omni-30B-A3B-Instruct config.json (text model under thinker_config), and a
    # SpecForge-style draft config for it that states the text width as target_hidden_size
    target = {"architectures": ["Qwen3OmniMoeForConditionalGeneration"],
              "model_type": "qwen3_omni_moe",
              "thinker_config": {"model_type": "qwen3_omni_moe_thinker", "text_config": {
                  "model_type": "qwen3_omni_moe_text", "hidden_size": 2048,
                  "num_hidden_layers": 48, "vocab_size": 152064, "num_attention_heads": 32,
                  "num_key_value_heads": 4, "head_dim": 128, "intermediate_size": 768}}}
    draft = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama",
             "hidden_size": 2048, "target_hidden_size": 2048, "num_attention_heads": 32,
             "num_key_value_heads": 4, "head_dim": 128, "intermediate_size": 6144,
             "num_hidden_layers": 1, "vocab_size": 152064, "draft_vocab_size": 32000,
             "max_position_embeddings": 65536, "rms_norm_eps": 1e-6,
             "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 23, 44]}}
    for engine, version in (("vllm", "0.11.0"), ("sglang", "0.5.12")):
        facts = configs_step.parse({
            "draft": {"found": True, "path": "d", "config": draft,
                      "tensors": {"fc.weight": [[2048, 3 * 2048], "BF16"]}},
            "target": {"found": True, "path": "t", "config": target}})
        found = configs_step.check(context(facts, {"engine": {"name": engine, "version": version}}))
        assert not [f for f in found if f.code == "SD204" or "not compared" in f.title
                    or any("target_hidden_size" in str(e) for e in f.evidence)], found
    for name, cfg in (("t", target), ("d", draft)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "config.json").write_text(json.dumps(cfg))
    out = hidden_layout.run({"draft_model": str(tmp_path / "d"),
                             "target_model": str(tmp_path / "t"), "engine": "vllm"})
    assert out["num_target_layers"] == 48 and "num_target_layers_unknown" not in out, out
    shutil.rmtree(tmp_path / "t")

"""User stories on a tiny world: a target trained on a synthetic language, hidden-state dumps,
and a draft briefly trained on the target's states (the `world` fixture in conftest.py)."""

from __future__ import annotations

import json
import shutil

import pytest

torch = pytest.importorskip("torch")

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter, probe_layout  # noqa: E402
from spec_debug.eagle3.data import iter_samples  # noqa: E402
from spec_debug.errors import SpecDebugError  # noqa: E402


def acc0(result):
    return result["full_accuracy"][0]


def test_eval_reports_the_metrics_contract(world):
    result = evaluate_drafter(world.draft, world.data, world.target, steps=3)
    for key in ("full_accuracy", "conditional_accuracy", "target_acceptance",
                "expected_accept_length", "samples", "tokens", "reference"):
        assert key in result
    assert result["reference"] == "target_argmax"
    assert len(result["full_accuracy"]) == 3
    assert result["samples"] == 12 and result["tokens"] == 12 * 47
    # a trained draft: well above chance, decreasing joint accuracy along the chain
    assert acc0(result) > 0.5
    assert result["full_accuracy"][0] >= result["full_accuracy"][1] >= result["full_accuracy"][2]
    assert 1.5 < result["expected_accept_length"] < 4.0
    assert result["layout"] == [0, 1, 2] and result["layout_layer_ids"] == [2, 4, 5]


def test_configured_layout_beats_permuted_and_shifted(world):
    configured = acc0(evaluate_drafter(world.draft, world.data, world.target, steps=1))
    reversed_order = acc0(evaluate_drafter(world.draft, world.data, world.target, steps=1,
                                           layout="2,1,0"))
    # wide dump slot i = layer i: the configured layers are 2,4,5; off-by-one is 3,5,6
    shifted = acc0(evaluate_drafter(world.draft, world.wide_data, world.target, steps=1,
                                    layout="3,5,6"))
    same_via_wide = acc0(evaluate_drafter(world.draft, world.wide_data, world.target, steps=1))
    assert same_via_wide == pytest.approx(configured)
    assert configured - reversed_order > 0.15
    assert configured - shifted > 0.03


def test_layout_probe_ranks_the_true_layout_first(world):
    normal = probe_layout(world.draft, world.data, world.target)
    assert normal["exhaustive"] and normal["candidates"] == 24  # 4 slots, ordered choices of 3
    assert normal["best"] == normal["configured"] == [0, 1, 2]
    assert normal["ranked"][0]["layer_ids"] == [2, 4, 5]
    assert "scores best" in normal["verdict"]
    assert normal["embedding_slots"] == []

    wide = probe_layout(world.draft, world.wide_data, world.target)
    assert not wide["exhaustive"]  # 9 slots: pruned search
    assert wide["ranked"][0]["layer_ids"] == [2, 4, 5]
    assert wide["embedding_slots"] == [0]  # layer id 0 is the embedding output


def test_embedding_slot_check_finds_the_embedding(world):
    report = probe_layout(world.draft, world.embed_data, world.target)
    assert report["embedding_slots"] == [0]
    checks = {c["slot"]: c for c in report["slot_checks"]}
    assert checks[0]["is_embedding"] and checks[0]["max_abs_diff"] == 0.0
    assert not checks[1]["is_embedding"]
    assert "embedding output" in report["verdict"] and "configured layout uses it" in report["verdict"]


def test_without_target_the_reference_is_the_data(world):
    result = evaluate_drafter(world.draft, world.data, steps=2, find_verifier=False)
    assert result["reference"] == "data_tokens"
    # the language is noisy: next tokens are harder to hit than the target's argmax
    assert 0.2 < acc0(result) < acc0(evaluate_drafter(world.draft, world.data, world.target,
                                                      steps=2))


def test_engine_semantics_measure_an_ignored_flag(world, tmp_path):
    # the weights were trained without norm_before_residual; a config that claims it makes the
    # reference forward worse, while an engine that ignores the flag runs what was trained
    draft = tmp_path / "draft"
    shutil.copytree(world.draft, draft)
    config = json.loads((draft / "config.json").read_text())
    config["norm_before_residual"] = True
    (draft / "config.json").write_text(json.dumps(config))
    reference = evaluate_drafter(draft, world.data, world.target, steps=1)
    sglang = evaluate_drafter(draft, world.data, world.target, steps=1, semantics="sglang",
                              engine_version="0.5.4")
    vllm = evaluate_drafter(draft, world.data, world.target, steps=1, semantics="vllm")
    assert sglang["ignored_norm_flags"] == ["norm_before_residual"]
    assert vllm["ignored_norm_flags"] == []
    assert acc0(vllm) == pytest.approx(acc0(reference))
    trained = acc0(evaluate_drafter(world.draft, world.data, world.target, steps=1))
    assert acc0(sglang) == pytest.approx(trained)
    assert acc0(sglang) != acc0(reference)


def test_engine_semantics_feed_the_layers_the_engine_captures(world, tmp_path):
    # On a Llama target every SGLang release adds 1 to the nested ids it reads (models/llama.py;
    # the "+1 only when the first id is 1" fix of PR #25454 is in the DeepSeek model files only):
    # ids written input-to are served one layer late, ids written output-of are served as trained.
    def with_nested(ids):
        draft = tmp_path / f"draft-{'-'.join(map(str, ids))}"
        shutil.copytree(world.draft, draft)
        config = json.loads((draft / "config.json").read_text())
        config["eagle_config"] = {"eagle_aux_hidden_state_layer_ids": ids}
        (draft / "config.json").write_text(json.dumps(config))
        return draft

    late = {version: evaluate_drafter(with_nested([2, 4, 5]) if version == "0.5.4" else
                                      tmp_path / "draft-2-4-5", world.wide_data, world.target, steps=1,
                                      semantics="sglang", engine_version=version)
            for version in ("0.5.4", "latest")}
    right = evaluate_drafter(with_nested([1, 3, 4]), world.wide_data, world.target, steps=1, semantics="sglang",
                             engine_version="latest")
    assert late["0.5.4"]["layout_layer_ids"] == late["latest"]["layout_layer_ids"] == [3, 5, 6]
    assert late["latest"]["layout_source"] == "engine"
    assert right["layout_layer_ids"] == [2, 4, 5]
    assert acc0(right) - acc0(late["latest"]) > 0.03


def test_specforge_data_gives_the_same_numbers(world, tmp_path):
    out = tmp_path / "specforge" / "rows_0-12"
    out.mkdir(parents=True)
    for i, sample in enumerate(iter_samples(world.data)):
        T = sample.length
        torch.save({"input_ids": sample.token_ids, "loss_mask": sample.loss_mask.long(),
                    "aux_hidden_state": sample.slots[:, :3].reshape(1, T, -1),
                    "hidden_state": sample.final.reshape(1, T, -1)}, out / f"data_{i}.ckpt")
    a = evaluate_drafter(world.draft, world.data, world.target, steps=2)
    b = evaluate_drafter(world.draft, tmp_path / "specforge", world.target, steps=2)
    assert b["data_format"] == "specforge"
    assert b["full_accuracy"] == a["full_accuracy"]


def test_eagle_format_checkpoint_without_embeddings(world, tmp_path):
    """SpecForge naming (midlayer.*, nested output-of ids) and no embed_tokens: the target's
    embedding is used, as the engines do."""
    from safetensors.torch import load_file, save_file

    state = load_file(world.draft / "model.safetensors")
    renamed = {k.replace("layers.0.", "midlayer."): v for k, v in state.items()
               if k != "embed_tokens.weight"}
    eagle = tmp_path / "eagle"
    eagle.mkdir()
    save_file(renamed, eagle / "model.safetensors")
    spec = json.loads((world.draft / "config.json").read_text())
    flat = dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=spec["draft_vocab_size"],
                eagle_config={"eagle_aux_hidden_state_layer_ids": [1, 3, 4]})
    (eagle / "config.json").write_text(json.dumps(flat))
    with pytest.raises(SpecDebugError, match="--target"):
        evaluate_drafter(eagle, world.wide_data, steps=1)
    result = evaluate_drafter(eagle, world.wide_data, world.target, steps=2)
    assert result["draft"]["format"] == "eagle"
    assert result["layout_layer_ids"] == [2, 4, 5]  # output-of [1,3,4] == input-to [2,4,5]
    assert result["embed_source"] == "target"
    speculators = evaluate_drafter(world.draft, world.data, world.target, steps=2)
    assert result["full_accuracy"] == pytest.approx(speculators["full_accuracy"])


def test_vocab_check_on_a_real_checkpoint(world):
    report = check_drafter_vocab(world.draft, world.target)
    assert report["ok"], report


def test_bad_inputs_are_one_clear_error(world, tmp_path):
    with pytest.raises(SpecDebugError, match="data directory not found"):
        evaluate_drafter(world.draft, tmp_path / "nope")
    with pytest.raises(SpecDebugError, match="layout"):
        evaluate_drafter(world.draft, world.data, layout="0,1")
    with pytest.raises(SpecDebugError, match="semantics"):
        evaluate_drafter(world.draft, world.data, semantics="trtllm")


def test_layout_probe_memory_is_bounded_on_wide_dumps(world):
    # 9 slots x 32 floats x 4 bytes per row: a 100-row budget keeps 2 full samples + a cut one
    row = 9 * 32 * 4
    report = probe_layout(world.draft, world.wide_data, world.target, max_bytes=100 * row)
    assert report["samples"] == 3
    assert report["ranked"][0]["layer_ids"] == [2, 4, 5]


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_half_precision_runs_close_to_fp32(world, dtype):
    fp32 = evaluate_drafter(world.draft, world.data, world.target, steps=2)
    half = evaluate_drafter(world.draft, world.data, world.target, steps=2, dtype=dtype)
    assert half["dtype"] == dtype
    assert abs(acc0(half) - acc0(fp32)) < 0.05


def test_layout_probe_always_scores_the_served_layers(world):
    # The engine serves every trained layer shifted by one (the +1 convention bug): the pruned
    # search on the wide dump may never visit it, but it must be scored and named.
    served = [3, 5, 6]
    wide = probe_layout(world.draft, world.wide_data, world.target, served_layer_ids=served)
    assert wide["served_layer_ids"] == served
    ranked = {tuple(r["layer_ids"]): r["full_accuracy0"] for r in wide["ranked"]}
    assert ranked[tuple(served)] == wide["served_accuracy0"]
    assert wide["served_accuracy0"] < ranked[(2, 4, 5)] - 0.02
    assert "the engine feeds layers the draft was not trained on" in wide["verdict"]

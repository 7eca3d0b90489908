"""Every finding code: a case that fires it and a near miss that must not (issue #5)."""

from __future__ import annotations

import copy


from spec_debug.diagnose.checks import (
    Where,
    check_accept_length_gap,
    check_algorithm,
    check_aux_layers,
    check_context_length,
    check_draft_budget,
    check_dtype,
    check_engine_semantics,
    check_forward_sources,
    check_layout,
    check_norm_flags,
    check_num_steps,
    check_payoff,
    check_rope,
    check_standalone_accuracy,
    check_throughput,
    check_vocab_report,
)
from spec_debug.diagnose.checks.layers import analyse_layers
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.throughput import build_model
from spec_debug.eagle3 import vocab as eagle3_vocab

AT = Where(host="gpu01", step="test")
N = 61  # DeepSeek-V3 / Kimi-K2 depth (EAGLE3.md section 3 worked example)
SGL = "python -m sglang.launch_server --model-path /m --speculative-algorithm EAGLE3 --speculative-draft-model-path /d "


def speculators_config(**overrides):
    cfg = {
        "architectures": ["Eagle3DraftModel"],
        "speculators_model_type": "eagle3",
        "transformer_layer_config": {"model_type": "llama", "hidden_size": 7168, "num_attention_heads": 56,
                                     "num_key_value_heads": 8, "head_dim": 128, "intermediate_size": 18432,
                                     "vocab_size": 129280, "max_position_embeddings": 131072,
                                     "rope_theta": 50000.0, "torch_dtype": "bfloat16"},
        "draft_vocab_size": 32000,
        "eagle_aux_hidden_state_layer_ids": [2, 30, 58],
        "norm_before_residual": False,
        "norm_before_fc": False,
        "fc_norm": False,
        "norm_output": False,
        "speculators_config": {"algorithm": "eagle3", "proposal_methods": [
            {"proposal_type": "greedy", "speculative_tokens": 3}]},
    }
    cfg.update(overrides)
    return cfg


def eagle_config(ids):
    return {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 7168,
            "num_attention_heads": 56, "num_key_value_heads": 8, "intermediate_size": 18432,
            "vocab_size": 129280, "draft_vocab_size": 32000, "torch_dtype": "bfloat16",
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": ids}}


TARGET = {"architectures": ["DeepseekV3ForCausalLM"], "hidden_size": 7168, "num_hidden_layers": N,
          "vocab_size": 129280, "max_position_embeddings": 163840, "rope_theta": 50000.0,
          "torch_dtype": "bfloat16"}


def codes(findings):
    return [(f.code, f.severity) for f in findings]


# --- SD101 ---------------------------------------------------------------------------------------
def test_sd101_num_steps_one_with_a_three_step_draft():
    cfg = parse_launch_command(SGL + "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2")
    found = check_num_steps(cfg, effective_spec(cfg), trained_steps=3, at=AT)
    assert codes(found) == [("SD101", "error")]
    assert "--speculative-num-steps 3" in found[0].remediation and found[0].host == "gpu01"
    vllm = parse_launch_command("""vllm serve m --speculative-config '{"method":"eagle3","model":"d","num_speculative_tokens":1}'""")
    assert codes(check_num_steps(vllm, effective_spec(vllm), 3)) == [("SD101", "error")]


def test_sd101_near_misses():
    three = parse_launch_command(SGL + "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert check_num_steps(three, effective_spec(three), trained_steps=3) == []
    one = parse_launch_command(SGL + "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2")
    assert check_num_steps(one, effective_spec(one), trained_steps=1) == []  # trained for one step
    assert codes(check_num_steps(one, effective_spec(one), trained_steps=None)) == [("SD101", "warning")]


# --- SD102 ---------------------------------------------------------------------------------------
def test_sd102_override_and_tree_capacity():
    over = parse_launch_command(SGL + "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8")
    found = check_draft_budget(over, effective_spec(over), AT)
    assert codes(found) == [("SD102", "warning")] and "overwritten to 4" in found[0].evidence[0]
    tree = parse_launch_command(SGL + "--speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 10")
    assert "offer only 6" in check_draft_budget(tree, effective_spec(tree))[0].evidence[0]


def test_sd102_near_misses():
    ok = parse_launch_command(SGL + "--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32")
    assert check_draft_budget(ok, effective_spec(ok)) == []
    auto = parse_launch_command(SGL)  # auto-choose is not a problem
    assert check_draft_budget(auto, effective_spec(auto)) == []


# --- SD103 ---------------------------------------------------------------------------------------
def test_sd103_eagle_algorithm_for_an_eagle3_draft():
    cfg = parse_launch_command(SGL.replace("EAGLE3", "EAGLE"))
    assert codes(check_algorithm(cfg, speculators_config())) == [("SD103", "error")]
    assert codes(check_algorithm(cfg, eagle_config([1, 29, 57]))) == [("SD103", "error")]


def test_sd103_near_miss():
    assert check_algorithm(parse_launch_command(SGL), speculators_config()) == []
    eagle1 = {"architectures": ["LlamaForCausalLMEagle"], "hidden_size": 4096}
    assert check_algorithm(parse_launch_command(SGL.replace("EAGLE3", "EAGLE")), eagle1) == []


# --- SD104 ---------------------------------------------------------------------------------------
def test_sd104_fp16_draft_bf16_target_without_dtype():
    draft = speculators_config()
    draft["transformer_layer_config"] = dict(draft["transformer_layer_config"], torch_dtype="float16")
    found = check_dtype(parse_launch_command(SGL), draft, TARGET)
    assert codes(found) == [("SD104", "warning")] and "--dtype bfloat16" in found[0].remediation


def test_sd104_near_misses():
    draft = speculators_config()
    draft["transformer_layer_config"] = dict(draft["transformer_layer_config"], torch_dtype="float16")
    assert check_dtype(parse_launch_command(SGL + "--dtype bfloat16"), draft, TARGET) == []
    assert check_dtype(parse_launch_command(SGL), speculators_config(), TARGET) == []


# --- SD201 / SD202 / SD203 / SD204 -----------------------------------------------------------------
def test_sd202_old_sglang_adds_one_to_input_to_ids():
    # nested ids written input-to ([2, 30, 58]); SGLang before PR #25454 always adds 1
    a = analyse_layers("sglang", "0.5.4", eagle_config([2, 30, 58]), N)
    assert (a.trained, a.served, a.shift) == ([2, 30, 58], [3, 31, 59], 1)
    assert codes(check_aux_layers(a, at=AT)) == [("SD202", "error")]  # and not SD201 as well


def test_sd202_near_misses():
    # the fixed SGLang (DeepSeek model files, from 0.5.13) adds 1 only when the first id is 1
    deepseek = "DeepseekV3ForCausalLM"
    assert check_aux_layers(analyse_layers("sglang", "latest", eagle_config([2, 30, 58]), N,
                                           target_architecture=deepseek)) == []
    # SpecForge output-of ids [1, 29, 57] are meant for the +1: the old SGLang is right for them
    assert check_aux_layers(analyse_layers("sglang", "0.5.4", eagle_config([1, 29, 57]), N)) == []


def test_sd202_on_a_llama_target_every_sglang_adds_one_and_the_fix_says_so():
    # models/llama.py adds 1 to the configured ids in every release (PR #25454 changed only the
    # DeepSeek files): input-to ids are served one layer late, and the remedy is the output-of ids.
    a = analyse_layers("sglang", "latest", eagle_config([2, 30, 58]), N, target_architecture="LlamaForCausalLM")
    found = check_aux_layers(a, at=AT)
    assert (a.served, a.shift) == ([3, 31, 59], 1) and codes(found) == [("SD202", "error")]
    assert a.fix is not None and (a.fix.key, a.fix.ids, a.fix.min_version) == (
        "eagle_config.eagle_aux_hidden_state_layer_ids", [1, 29, 57], None)
    assert "[1, 29, 57]" in found[0].remediation


def test_sd201_fix_names_the_first_release_that_captures_the_embedding():
    # trained on [embedding, 2, 4] of a 9-layer Llama target; SGLang 0.5.12 serves its default
    # [2, 4, 6]; the embedding output is captured on the Llama path only from 0.5.22
    draft = speculators_config(eagle_aux_hidden_state_layer_ids=[0, 2, 4])
    a = analyse_layers("sglang", "0.5.12", draft, 9, target_architecture="LlamaForCausalLM")
    found = check_aux_layers(a, at=AT)
    assert a.served == [2, 4, 6] and codes(found) == [("SD201", "error")]
    assert (a.fix.ids, a.fix.min_version) == ([-1, 1, 3], "0.5.22")
    assert "sglang >= 0.5.22" in found[0].remediation
    # the fix, applied, is clean on that release and still wrong on the running one
    fixed = dict(draft, eagle_config={"eagle_aux_hidden_state_layer_ids": [-1, 1, 3]})
    assert check_aux_layers(analyse_layers("sglang", "0.5.22", fixed, 9, target_architecture="LlamaForCausalLM")) == []
    assert check_aux_layers(analyse_layers("sglang", "0.5.12", fixed, 9, target_architecture="LlamaForCausalLM"))


def test_layers_out_of_order_have_no_config_fix():
    draft = speculators_config(eagle_aux_hidden_state_layer_ids=[4, 2, 0])
    a = analyse_layers("sglang", "latest", draft, 9, target_architecture="LlamaForCausalLM")
    found = check_aux_layers(a, at=AT)
    assert a.fix is None and codes(found) == [("SD201", "error")] and "retrain" in found[0].remediation


def test_sd201_measured_layers_differ_in_set():
    a = analyse_layers("vllm", "latest", speculators_config(), N, measured_served_ids=[0, 30, 58])
    found = check_aux_layers(a, at=AT)
    assert codes(found) == [("SD201", "error")] and "embedding output" in found[0].evidence[1]


def test_sd201_engine_ignores_the_configured_ids():
    # vLLM before PR #25961 never read ids from the draft config: default (2, N//2, N-3)
    a = analyse_layers("vllm", "0.10.1", speculators_config(eagle_aux_hidden_state_layer_ids=[1, 20, 40]), N)
    assert a.served == [2, 30, 58] and codes(check_aux_layers(a)) == [("SD201", "error")]
    assert check_aux_layers(analyse_layers("vllm", "latest", speculators_config(
        eagle_aux_hidden_state_layer_ids=[1, 20, 40]), N)) == []


def test_sd203_no_ids_and_the_default_differs_from_training():
    cfg = speculators_config()
    del cfg["eagle_aux_hidden_state_layer_ids"]
    a = analyse_layers("vllm", "latest", cfg, 80, trained_layer_ids=[1, 39, 76])
    found = check_aux_layers(a)
    assert codes(found) == [("SD203", "error")] and a.served == [2, 40, 77]
    # near miss: no ids, and training used the default too
    assert check_aux_layers(analyse_layers("vllm", "latest", cfg, 80, trained_layer_ids=[2, 40, 77])) == []
    assert check_aux_layers(analyse_layers("vllm", "latest", cfg, 80)) == []


def test_sd204_fc_width():
    a = analyse_layers("vllm", "latest", speculators_config(), N)
    assert codes(check_aux_layers(a, target_hidden_size=7168, fc_in_features=2 * 7168)) == [("SD204", "error")]
    assert check_aux_layers(a, target_hidden_size=7168, fc_in_features=3 * 7168) == []
    two = analyse_layers("vllm", "latest", speculators_config(eagle_aux_hidden_state_layer_ids=[2, 30]), N)
    found = check_aux_layers(two, target_hidden_size=7168, fc_in_features=2 * 7168)
    assert codes(found) == [("SD204", "error")] and "builds fc for 3" in found[0].evidence[0]


# --- SD301 / SD302 / SD303 -------------------------------------------------------------------------
# Reports come from the real vocab checks of spec_debug.eagle3 (pure functions, no torch).
V, DV = 1000, 256
SELECTED = list(range(0, 3 * DV, 3))  # 256 ids, every third
OFFSETS = [t - i for i, t in enumerate(SELECTED)]
T2D = [1 if i in set(SELECTED) else 0 for i in range(V)]


def vocab_report(**kw):
    args = dict(d2t=OFFSETS, t2d=T2D, target_vocab_size=V, draft_vocab_size=DV, embed_rows=V)
    args.update(kw)
    return eagle3_vocab.check_vocab_maps(**args).to_dict()


def test_sd301_small_draft_vocab_without_d2t():
    assert codes(check_vocab_report(vocab_report(d2t=None, t2d=None))) == [("SD301", "error")]
    # near miss: same vocabulary, no map needed
    assert check_vocab_report(vocab_report(d2t=None, t2d=None, draft_vocab_size=V)) == []


def test_sd302_absolute_ids_instead_of_offsets():
    found = check_vocab_report(vocab_report(d2t=SELECTED))
    assert codes(found) == [("SD302", "error")] and "absolute target ids" in found[0].evidence[0]
    assert check_vocab_report(vocab_report()) == []  # real offsets


def test_sd303_maps_for_another_tokenizer():
    found = check_vocab_report(vocab_report(t2d=T2D + [0] * 24, embed_rows=V + 24))
    assert codes(found) == [("SD303", "error")] and len(found[0].evidence) == 2
    assert check_vocab_report(vocab_report(embed_rows=None)) == []


# --- SD401 / SD402 / SD403 -------------------------------------------------------------------------
def test_sd401_accuracy_far_below_claim():
    metrics = {"full_accuracy": [0.12, 0.05], "samples": 8, "tokens": 4000, "reference": "target_argmax"}
    assert codes(check_standalone_accuracy(metrics, "74.7%")) == [("SD401", "error")]
    assert codes(check_standalone_accuracy(dict(metrics, reference="data_tokens"), 0.747)) == [("SD401", "warning")]


def test_sd401_near_misses():
    assert check_standalone_accuracy({"full_accuracy": [0.71]}, 74.7) == []  # within the band
    assert check_standalone_accuracy({"full_accuracy": [0.12]}, None) == []  # nothing claimed


LAYOUT = {"ranked": [{"layout": [0, 1, 2], "full_accuracy0": 0.71}, {"layout": [1, 2, 3], "full_accuracy0": 0.18},
                     {"layout": [0, 2, 1], "full_accuracy0": 0.30}],
          "best": [0, 1, 2], "configured": [1, 2, 3], "embedding_slots": [0]}


def test_sd402_another_layout_fits_clearly_better():
    found = check_layout(LAYOUT, served_layout=[1, 2, 3])
    assert codes(found) == [("SD402", "error")] and "embedding output" in found[0].evidence[2]
    # when the config check already named the root cause, the probe is corroboration
    assert codes(check_layout(LAYOUT, [1, 2, 3], root_causes=["SD202"])) == [("SD402", "info")]


def test_sd402_is_not_raised_on_an_untrained_draft():
    # a converter lost the layer's rename: its scores are noise (eagle3/layout.py untrained_draft)
    assert check_layout({**LAYOUT, "untrained_draft": True}, served_layout=[1, 2, 3]) == []


def test_sd402_near_misses():
    assert check_layout(LAYOUT, served_layout=[0, 1, 2]) == []
    close = copy.deepcopy(LAYOUT)
    close["ranked"][1]["full_accuracy0"] = 0.69
    assert check_layout(close, served_layout=[1, 2, 3]) == []


def test_sd403_engine_semantics_cost():
    ref = {"full_accuracy": [0.71], "expected_accept_length": 2.6}
    eng = {"full_accuracy": [0.52], "expected_accept_length": 2.0}
    assert codes(check_engine_semantics(ref, eng, "sglang", ignored_flags=["norm_before_fc"])) == [("SD403", "warning")]
    assert codes(check_engine_semantics(ref, eng, "sglang", root_causes=["SD701"])) == [("SD403", "info")]
    assert check_engine_semantics(ref, {"full_accuracy": [0.705]}, "sglang") == []


# --- SD501 / SD502 / SD503 -------------------------------------------------------------------------
def test_sd501_below_baseline():
    found = check_throughput(54.8, 90.0, source="bench_serving")
    assert codes(found) == [("SD501", "error")] and "0.61x" in found[0].evidence[1]
    assert check_throughput(89.0, 90.0) == []  # within noise
    assert check_throughput(140.0, 90.0) == []


def test_sd502_serving_path_loses_acceptance():
    assert codes(check_accept_length_gap(1.2, 1.75, 1)) == [("SD502", "error")]
    assert codes(check_accept_length_gap(1.2, 1.75, 1, root_causes=["SD202"])) == [("SD502", "info")]
    assert check_accept_length_gap(1.65, 1.75, 1) == []


def test_sd503_draft_too_costly_even_at_best_acceptance():
    # SpecForge#339 numbers: AL 1.86 at 3 steps, 159.8 vs 222.5 tok/s -> c ~ 0.53, break-even 2.6
    model = build_model(steps=3, draft_cost_ratio=None, observed_accept_length=1.86,
                        baseline_tok_s=222.5, measured_tok_s=159.8)
    found = check_payoff(model, best_accept_length=1.9, best_steps=3)
    assert codes(found) == [("SD503", "warning")] and "measured" in found[0].evidence[0]
    assert check_payoff(model, best_accept_length=3.2, best_steps=3) == []
    # a one-step measurement is not extrapolated to three steps; the weight ratio is used
    one_step = build_model(steps=1, draft_cost_ratio=0.05, observed_accept_length=1.1,
                           baseline_tok_s=90.0, measured_tok_s=66.0)
    assert check_payoff(one_step, best_accept_length=2.4, best_steps=3) == []
    cheap = build_model(steps=3, draft_cost_ratio=0.05)
    assert check_payoff(cheap, best_accept_length=1.9) == []


# --- SD601 -----------------------------------------------------------------------------------------
REF = {"found": True, "package": "speculators", "version": "0.9.0", "file": "core.py",
       "flags": {"norm_before_residual": True, "norm_before_fc": True, "fc_norm": True, "norm_output": True},
       "cat_orders": [["input_embeds", "hidden_states"], ["embeds", "hidden"]]}
ENG = {"found": True, "version": "0.5.4", "file": "llama_eagle3.py",
       "flags": {"norm_before_residual": False, "norm_before_fc": False, "fc_norm": False, "norm_output": False},
       "cat_orders": [["embeds", "hidden_states"]]}


def test_sd601_engine_source_lacks_a_used_step():
    found = check_forward_sources(REF, ENG, {"norm_before_fc": True, "norm_output": False}, "sglang")
    assert codes(found) == [("SD601", "error")] and "norm_before_fc=True" in found[0].evidence[2]
    swapped = dict(ENG, cat_orders=[["hidden_states", "embeds"]])
    assert "concatenation order" in check_forward_sources(REF, swapped, {}, "sglang")[0].evidence[-1]
    assert codes(check_forward_sources(REF, ENG, {"norm_before_fc": True}, "sglang",
                                       root_causes=["SD701"])) == [("SD601", "info")]


def test_sd601_near_misses():
    assert check_forward_sources(REF, ENG, {"norm_before_fc": False}, "sglang") == []  # flag unused
    assert check_forward_sources(REF, {"found": False}, {"norm_before_fc": True}, "sglang") == []


# --- SD701 / SD702 / SD703 -------------------------------------------------------------------------
def test_sd701_flag_ignored_by_the_engine_version():
    cfg = speculators_config(norm_before_fc=True)
    found = check_norm_flags("sglang", "0.5.4", cfg)
    assert codes(found) == [("SD701", "error")] and found[0].facts["ignored_flags"] == ["norm_before_fc"]
    assert codes(check_norm_flags("vllm", "0.18.0", cfg)) == [("SD701", "error")]


def test_sd701_near_misses():
    assert check_norm_flags("vllm", "latest", speculators_config(norm_before_fc=True)) == []
    assert check_norm_flags("sglang", "0.5.4", speculators_config()) == []


def test_sd702_draft_context_shorter_than_serving():
    assert codes(check_context_length(2048, 32768, context_source="--context-length")) == [("SD702", "warning")]
    assert check_context_length(131072, 32768) == []
    assert check_context_length(2048, None) == []


def test_sd703_rope_differs():
    draft = speculators_config()
    target = dict(TARGET, rope_scaling={"type": "yarn", "factor": 40.0})
    found = check_rope(draft, target)
    assert codes(found) == [("SD703", "warning")] and any("yarn" in e for e in found[0].evidence)
    assert check_rope(draft, TARGET) == []
    # the transformers >= 5 spelling of the same rope is not a difference
    assert check_rope(draft, {"rope_parameters": {"rope_type": "default", "rope_theta": 50000.0}}) == []

"""Round 27: the notes left by round 26 (engines, forward_source, throughput_step).

- engines.capture_failure is a typed value (reason, fix) that checks/layers.py reads by field,
  not by splitting its text on "; " (a reason holding "; " split in the wrong place);
- forward_source looks the named draft (--var draft_model) up before it scans /proc for the
  server: the scan is needed only when the draft is not on this host;
- engines.drafter_module reads the engine version: vLLM before 0.24.0 has no qwen3_eagle3.py
  and runs a Qwen3 draft with llama_eagle3.py;
- the target config is read as the server loads it: vLLM --hf-overrides and SGLang
  --json-model-override-args merged in (a GLM-5 index_topk_pattern given there).
"""

from __future__ import annotations

import json

from spec_debug.diagnose import target_weights
from spec_debug.diagnose.checks import layers as layer_checks
from spec_debug.diagnose.steps import throughput_step
from spec_debug.eagle3 import engines
from spec_debug.probes import forward_source

QWEN35 = "Qwen3_5ForConditionalGeneration"


def test_capture_failure_carries_its_reason_and_fix():
    # hardening65: SGLang 0.5.22 captures Qwen3.5's layers; 0.5.21 is the last release that fails
    failure = engines.capture_failure("sglang", QWEN35, "0.5.21")
    assert "sglang#38307" in failure.reason and failure.fix.startswith("upgrade SGLang to 0.5.22 or later")
    assert str(failure) == f"{failure.reason}; {failure.fix}"  # the one line notes print


def test_the_sd201_check_reads_the_fields_not_the_text(monkeypatch):
    class Analysis:
        served_source = "sglang 0.5.20 convention"
        engine, target_architecture = "sglang", QWEN35

    split_wrong = engines.CaptureFailure("no capture; see sglang#38307", "serve the draft with vLLM")
    monkeypatch.setattr(engines, "capture_failure", lambda engine, arch: split_wrong)
    assert layer_checks._no_capture(Analysis()) == ("no capture; see sglang#38307",
                                                    "Serve the draft with vLLM.")


QWEN3_DRAFT = {"speculators_model_type": "eagle3", "architectures": ["Eagle3Speculator"],
               "transformer_layer_config": {"model_type": "qwen3", "hidden_size": 16}}


def test_drafter_module_follows_the_vllm_release():
    assert engines.drafter_module("vllm", QWEN3_DRAFT, "0.23.1") == "llama_eagle3"
    for version in ("0.24.0", None, "0.1.dev5+gabc", "a-fork-label"):
        assert engines.drafter_module("vllm", QWEN3_DRAFT, version) == "qwen3_eagle3"


def _engine_root(tmp_path):
    models = tmp_path / "vllm" / "model_executor" / "models"
    models.mkdir(parents=True)
    for stem in ("llama_eagle3", "qwen3_eagle3"):
        (models / f"{stem}.py").write_text("class M:\n    def forward(self, x):\n        return self.fc(x)\n")
    draft = tmp_path / "draft"
    draft.mkdir()
    (draft / "config.json").write_text(json.dumps(QWEN3_DRAFT))
    return tmp_path / "vllm", str(draft)


def test_an_older_vllm_is_read_in_llama_eagle3_even_with_the_file_there(tmp_path):
    root, _ = _engine_root(tmp_path)
    assert forward_source.engine_files("vllm", root, QWEN3_DRAFT, "0.23.0")[0].name == "llama_eagle3.py"
    assert forward_source.engine_files("vllm", root, QWEN3_DRAFT, "0.24.0")[0].name == "qwen3_eagle3.py"


def _run_counting_scans(monkeypatch, root, draft_model):
    scans = []
    monkeypatch.setattr(forward_source, "package_dir", lambda name: (root, "0.30.0"))
    monkeypatch.setattr(forward_source, "server_processes", lambda: scans.append(1) or [])
    result = forward_source.run({"engine": "vllm", "draft_model": draft_model})
    return result["engine"], len(scans)


def test_a_named_draft_found_here_scans_no_proc(tmp_path, monkeypatch):
    root, draft = _engine_root(tmp_path)
    served, scans = _run_counting_scans(monkeypatch, root, draft)
    assert scans == 0 and served["file"].endswith("qwen3_eagle3.py")


def test_a_named_draft_not_here_is_looked_up_through_the_server_once(tmp_path, monkeypatch):
    root, _ = _engine_root(tmp_path)
    served, scans = _run_counting_scans(monkeypatch, root, "/models/not-on-this-host")
    assert scans == 1 and served["file"].endswith("llama_eagle3.py")


GLM5 = {"architectures": ["GlmMoeDsaForCausalLM"], "model_type": "glm_moe_dsa", "hidden_size": 6144,
        "num_hidden_layers": 4, "num_attention_heads": 64, "q_lora_rank": 2048, "kv_lora_rank": 512,
        "qk_nope_head_dim": 192, "qk_rope_head_dim": 64, "v_head_dim": 256, "intermediate_size": 12288,
        "vocab_size": 154880, "index_n_heads": 32, "index_head_dim": 128, "index_topk": 2048}
PER_LAYER = 2048 * 32 * 128 + 6144 * 128 + 6144 * 32


def _served_indexer_params(argv):
    _, target = throughput_step.served_configs({"configs": {"target_config": GLM5}, "launch": {"argv": argv}})
    return sum(m.params for m in target_weights.decode_modules(target) if ".indexer." in m.name)


def test_an_index_pattern_on_the_launch_line_is_the_one_served():
    pattern = json.dumps({"index_topk_pattern": "FSSF"})
    assert _served_indexer_params(["vllm", "serve", "zai-org/GLM-5", "--hf-overrides", pattern]) == 2 * PER_LAYER
    assert _served_indexer_params(["sglang.launch_server", f"--json-model-override-args={pattern}"]) == 2 * PER_LAYER
    # not a JSON object: the server refuses it, config.json stands (every layer runs its indexer)
    assert _served_indexer_params(["vllm", "serve", "m", "--hf-overrides", "{index_topk_pattern"]) == 4 * PER_LAYER
    assert GLM5.get("index_topk_pattern") is None  # the probe's config is not changed in place


def test_a_nested_config_is_merged_by_vllm_and_replaced_by_sglang():
    from spec_debug.diagnose.steps.common import launch_config_overrides, with_overrides
    wrapped = {"text_config": {"hidden_size": 8, "num_hidden_layers": 2}, "rope_scaling": {"type": "yarn", "factor": 4}}
    change = {"text_config": {"num_hidden_layers": 1}, "rope_scaling": {"factor": 2}}
    # vLLM ModelConfig._apply_dict_overrides: a sub-config key by key, any other dict whole
    assert with_overrides(wrapped, change) == {"text_config": {"hidden_size": 8, "num_hidden_layers": 1},
                                               "rope_scaling": {"factor": 2}}
    # SGLang config.update: every key whole
    assert with_overrides(wrapped, change, nested=False) == change
    assert launch_config_overrides(["sglang", "serve", "--json-model-override-args", json.dumps(change)]) == [
        (change, False)]

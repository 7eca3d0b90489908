"""An MTP launch whose target config was read and names no MTP module.

`vllm serve Qwen/Qwen3-4B-Instruct-2507 --speculative-config '{"method":"qwen3_next_mtp",
"num_speculative_tokens":1}'` (thomas9120/LLama-GUI#165): Qwen3-4B ships no MTP module
(its config has neither num_nextn_predict_layers nor mtp_num_hidden_layers, the keys vLLM counts
them by). SD101 said the depth was "unknown (not in the target config, or its config.json was not
found on the host)" although the config was read; now it says the target has none to draft with.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

COMMAND = ("vllm serve Qwen/Qwen3-4B-Instruct-2507 --port 8000 --host 127.0.0.1 --max-model-len 32768 "
           "--default-chat-template-kwargs '{\"enable_thinking\":false}' "
           "--speculative-config '{\"method\":\"qwen3_next_mtp\",\"num_speculative_tokens\":1}'")
QWEN3_4B = {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "hidden_size": 2560,
            "num_hidden_layers": 36, "vocab_size": 151936, "torch_dtype": "bfloat16"}


def _sd101(models):
    facts = launch_step.parse({"source": "var", "cmdline": COMMAND, "models": models})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    (finding,) = [f for f in launch_step.check(ctx) if f.code == "SD101"]
    return finding.evidence[-1]


def test_a_read_target_config_without_mtp_modules_is_said():
    # Qwen3 is no family vLLM makes an MTP draft of: the server is refused at startup (SD102, round
    # 27), and a server that does not start serves no depth, so that one finding says it, not SD101
    facts = launch_step.parse({"source": "var", "cmdline": COMMAND,
                               "models": {"Qwen/Qwen3-4B-Instruct-2507": {"path": "/hf/qwen3-4b", "config": QWEN3_4B}}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    findings = launch_step.check(ctx)
    line = " ".join(e for f in findings if f.code == "SD102" for e in f.evidence)
    assert "has none" in line and "method qwen3_next_mtp" in line and "unknown" not in line
    assert not [f for f in findings if f.code == "SD101"]


def test_an_unread_target_config_stays_unknown():
    assert "unknown (not in the target config" in _sd101({})


def test_targets_whose_modules_are_counted_otherwise_stay_unknown():
    # MiniMax-M3 counts them as num_mtp_modules, Step-3.5 gets one from vLLM by default
    # (vllm/config/speculative.py hf_config_override): not "names no MTP modules"
    minimax = {**QWEN3_4B, "architectures": ["MiniMaxM3SparseForConditionalGeneration"], "num_mtp_modules": 1}
    step = {**QWEN3_4B, "architectures": ["Step3p5ForCausalLM"], "model_type": "step3p5"}
    for config in (minimax, step):
        assert "unknown (not in the target config" in _sd101({"Qwen/Qwen3-4B-Instruct-2507": {"path": "/hf/x",
                                                                                              "config": config}})

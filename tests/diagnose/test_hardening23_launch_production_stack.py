"""vLLM production-stack Helm values pasted as the launch (session 14).

production-stack deploys each `servingEngineSpec.modelSpec` entry as `vllm serve <modelURL>`
with flags made from `vllmConfig` and its `extraArgs` appended as they are, image
`<repository>:<tag>` (vllm-project/production-stack helm/templates/deployment-vllm-multi.yaml).
The values file was read as shell words: `repository: "vllm/vllm-openai"` made it a vLLM server
with no flags, its speculative config in extraArgs unseen, and no finding.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import image_release, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

VALUES = """servingEngineSpec:
  runtimeClassName: ""
  modelSpec:
  - name: "opt125m"
    repository: "vllm/vllm-openai"
    tag: "latest"
    modelURL: "facebook/opt-125m"
    replicaCount: 1
    requestGPU: 1
  - name: "llama3"
    repository: "vllm/vllm-openai"
    tag: "v0.11.0"
    modelURL: "meta-llama/Llama-3.1-8B-Instruct"
    replicaCount: 1
    requestCPU: 10
    requestMemory: "64Gi"
    requestGPU: 1
    vllmConfig:
      enablePrefixCaching: true
      maxModelLen: 8192
      tensorParallelSize: 1
      extraArgs: ["--speculative-config", '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}']
"""


def test_the_speculating_model_spec_is_its_vllm_command():
    cfg = parse_launch_command(VALUES)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)
    assert (cfg.context_length, cfg.tp) == (8192, 1)
    assert image_release(list(cfg.argv), "vllm") == "0.11.0"
    facts = launch_step.parse({"source": "var", "cmdline": VALUES, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    assert facts["launch"]["found"] and "SD101" in [f.code for f in launch_step.check(ctx)]


def test_a_v0_model_spec_runs_with_vllm_use_v1_0():
    cfg = parse_launch_command(VALUES.replace("      maxModelLen: 8192", "      v0: 1\n      maxModelLen: 8192"))
    assert cfg.env == {"VLLM_USE_V1": "0"}

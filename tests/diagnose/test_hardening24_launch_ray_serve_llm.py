"""A Ray Serve LLM config pasted as the launch (session 15).

Ray Serve LLM runs vLLM with an `LLMConfig`'s `engine_kwargs` as its engine arguments and
`model_loading_config.model_source` (else `model_id`) as the model (docs.ray.io, serve/llm
user-guides/configuration.html: engine_kwargs "Arguments forwarded to the inference engine
(vLLM)"); the YAML form is a `serve run` config (`applications[].args.llm_configs`) or, on
Kubernetes, a KubeRay RayService's `serveConfigV2` string. Such a file was 'not an SGLang or vLLM
server command': the speculative_config in engine_kwargs (a one-token cap) unseen.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVE_CONFIG = """applications:
- name: llm_app
  route_prefix: /
  import_path: ray.serve.llm:build_openai_app
  args:
    llm_configs:
      - model_loading_config:
          model_id: llama-8b
          model_source: meta-llama/Llama-3.1-8B-Instruct
        accelerator_type: H100
        deployment_config:
          autoscaling_config: {min_replicas: 1, max_replicas: 2}
        engine_kwargs:
          max_model_len: 8192
          enable_prefix_caching: true
          speculative_config:
            method: eagle3
            model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
            num_speculative_tokens: 1
"""

RAY_SERVICE = """apiVersion: ray.io/v1
kind: RayService
metadata:
  name: llama-eagle3
spec:
  serveConfigV2: |
""" + "".join("    " + line + "\n" for line in SERVE_CONFIG.splitlines()) + """  rayClusterConfig:
    headGroupSpec:
      rayStartParams: {dashboard-host: 0.0.0.0}
      template:
        spec:
          containers:
            - name: ray-head
              image: rayproject/ray-llm:2.49.0-py311-cu128
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_serve_config_is_the_vllm_engine_it_starts():
    cfg = parse_launch_command(SERVE_CONFIG)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    assert cfg.speculative_config["num_speculative_tokens"] == 1 and cfg.flags["max-model-len"] == "8192"
    launch, findings = _findings(SERVE_CONFIG)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_rayservice_reads_its_serve_config_string():
    cfg = parse_launch_command(RAY_SERVICE)
    assert (cfg.engine, cfg.draft_model) == ("vllm", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")


def test_model_id_is_the_model_when_no_source_is_given():
    text = SERVE_CONFIG.replace("          model_source: meta-llama/Llama-3.1-8B-Instruct\n", "").replace(
        "model_id: llama-8b", "model_id: meta-llama/Llama-3.1-8B-Instruct")
    assert parse_launch_command(text).target_model == "meta-llama/Llama-3.1-8B-Instruct"


SERVE_SCRIPT = '''from ray import serve
from ray.serve.llm import LLMConfig, build_openai_app

llm_config = LLMConfig(
    model_loading_config=dict(
        model_id="llama-8b",
        model_source="meta-llama/Llama-3.1-8B-Instruct",
    ),
    accelerator_type="H100",
    engine_kwargs=dict(
        max_model_len=8192,
        speculative_config={
            "method": "eagle3",
            "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
            "num_speculative_tokens": 1,
        },
    ),
)
app = build_openai_app({"llm_configs": [llm_config]})
serve.run(app, blocking=True)
'''


def test_an_llmconfig_call_in_a_serve_script_is_its_vllm_engine():
    cfg = parse_launch_command(SERVE_SCRIPT)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")
    launch, findings = _findings(SERVE_SCRIPT)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_an_llmconfig_of_computed_engine_kwargs_says_the_values_are_not_here():
    import pytest

    from spec_debug.diagnose.launch import LaunchParseError
    text = SERVE_SCRIPT.replace("engine_kwargs=dict(", "engine_kwargs=load_kwargs(")
    with pytest.raises(LaunchParseError, match="engine_kwargs is the Python expression"):
        parse_launch_command(text)

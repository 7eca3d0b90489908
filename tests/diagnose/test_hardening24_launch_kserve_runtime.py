"""A KServe ServingRuntime pasted as the launch (session 15).

The OpenShift AI / KServe vLLM runtime passes `--served-model-name={{.Name}}`: a Go template that
the KServe controller fills with the InferenceService's name, in a manifest that is complete as
it stands. The `{{` was taken for a Helm chart's action: 'this is a Helm chart template ... render
it first', and the runtime's own speculative flags were never read.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  annotations:
    openshift.io/display-name: vLLM ServingRuntime for KServe
  labels:
    opendatahub.io/dashboard: "true"
  name: vllm-runtime
spec:
  annotations:
    prometheus.io/path: /metrics
    prometheus.io/port: "8080"
  containers:
    - args:
        - --port=8080
        - --model=/mnt/models
        - --served-model-name={{.Name}}
        - --distributed-executor-backend=mp
        - --speculative-config={"method":"eagle3","model":"/mnt/models/eagle3","num_speculative_tokens":1}
      command:
        - python
        - -m
        - vllm.entrypoints.openai.api_server
      env:
        - name: HF_HOME
          value: /tmp/hf_home
      image: quay.io/modh/vllm:rhoai-2.13-cuda
      name: kserve-container
  multiModel: false
  supportedModelFormats:
    - autoSelect: true
      name: vLLM
"""


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("kind", ["ServingRuntime", "ClusterServingRuntime"])
def test_a_serving_runtimes_name_template_is_no_helm_chart(kind):
    text = RUNTIME.replace("kind: ServingRuntime", f"kind: {kind}")
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == ("vllm", "/mnt/models", "/mnt/models/eagle3")
    launch, findings = _findings(text)
    assert launch["found"] and "SD101" in [f.code for f in findings]


def test_a_deployment_with_helm_actions_is_still_a_chart():
    text = RUNTIME.replace("kind: ServingRuntime", "kind: Deployment")
    with pytest.raises(LaunchParseError, match="Helm chart template"):
        parse_launch_command(text)


KUBEAI_MODEL = """apiVersion: kubeai.org/v1
kind: Model
metadata:
  name: llama-3.1-8b-instruct-fp8-l4
spec:
  features: ["TextGeneration"]
  owner: neuralmagic
  url: hf://neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8
  engine: VLLM
  args:
    - --max-model-len=16384
    - --max-num-batched-token=16384
    - --gpu-memory-utilization=0.9
    - --speculative-config={"method":"eagle3","model":"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B","num_speculative_tokens":3}
  minReplicas: 0
  maxReplicas: 3
  resourceProfile: L4:1
"""


def test_a_kubeai_model_serves_its_url_with_vllm():
    # (substratusai/kubeai docs/model-management.md's example, with a speculative config: the
    # target was unknown, so its config and vocabulary were never compared with the draft's)
    cfg = parse_launch_command(KUBEAI_MODEL)
    assert (cfg.engine, cfg.target_model, cfg.draft_model) == (
        "vllm", "neuralmagic/Meta-Llama-3.1-8B-Instruct-FP8", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B")

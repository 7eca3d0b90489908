"""A container's command/args item that YAML reads as a mapping is refused (423a0081) because
Kubernetes (core/v1 Container.Args []string) and compose take strings only. A Kubeflow Pipelines
component is neither: its `command:` items may be placeholders the pipeline fills in
(`{inputValue: model}`, kubeflow/pipelines components' `implementation.container`), so the file is
valid, and its server's EAGLE-3 config was lost to "a container's command and args are strings,
so kubectl / docker compose refuses the file". A Deployment's mapping item is still refused."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
SPEC = f'{{"method": "eagle3", "model": "{DRAFT}", "num_speculative_tokens": 3}}'
COMPONENT = f"""name: Serve EAGLE-3
inputs:
- {{name: model, type: String}}
implementation:
  container:
    image: vllm/vllm-openai:v0.10.1
    command:
    - vllm
    - serve
    - {{inputValue: model}}
    - --speculative-config
    - '{SPEC}'
"""
POD = f"""apiVersion: v1
kind: Pod
metadata:
  name: vllm
spec:
  containers:
  - name: vllm
    image: vllm/vllm-openai:v0.10.1
    command: [vllm, serve, meta-llama/Llama-3.1-8B-Instruct, --speculative-config]
    args:
    - {SPEC}
"""


def test_a_pipeline_component_placeholder_is_not_refused():
    cfg = parse_launch_command(COMPONENT)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps, cfg.draft_model) == ("vllm", "EAGLE3", 3, DRAFT)


def test_a_kubernetes_mapping_item_is_still_refused():
    with pytest.raises(LaunchParseError, match="is a YAML mapping, not a string"):
        parse_launch_command(POD)

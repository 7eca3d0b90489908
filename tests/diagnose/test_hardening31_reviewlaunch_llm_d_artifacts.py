"""An llm-d ModelService values file (f9823ca5) read as the chart renders it, for the forms the
chart's own values.yaml and templates/_helpers.tpl give (llm-d-incubation/llm-d-modelservice):
`pvc://CLAIM/PATH` serves `$mountPath/PATH` (argsByProtocol; mountPath defaults to /model-cache),
a uri left out is the default "hf://{{ .Values.modelArtifacts.name }}", rendered with
common.tplvalues.render, and `parallelism.tensor: "2"` is read with `int`. All four were 'not an
SGLang or vLLM server command' (or served a model named '{{ .Values.modelArtifacts.name }}', or
lost --tensor-parallel-size)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
VALUES = """modelArtifacts:
  name: "meta-llama/Llama-3.1-8B-Instruct"
{uri}  size: 20Gi
decode:
  create: true
  parallelism:
    tensor: {tensor}
  containers:
  - name: "vllm"
    image: ghcr.io/llm-d/llm-d-cuda:v0.3.0
    modelCommand: vllmServe
    args:
      - "--speculative-config"
      - '{{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}}'
"""


@pytest.mark.parametrize("uri, tensor, model", [
    ('  uri: "pvc://model-pvc/models/Llama-3.1-8B-Instruct"\n', "2", "/model-cache/models/Llama-3.1-8B-Instruct"),
    ("", "2", MODEL),
    ('  uri: "hf://{{ .Values.modelArtifacts.name }}"\n', "2", MODEL),
    (f'  uri: "hf://{MODEL}"\n', '"2"', MODEL),
], ids=["pvc", "default-uri", "templated-uri", "tensor-as-string"])
def test_the_chart_forms_are_read(uri, tensor, model):
    cfg = parse_launch_command(VALUES.format(uri=uri, tensor=tensor))
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps, cfg.tp) == ("vllm", model, "EAGLE3", 3, 2)

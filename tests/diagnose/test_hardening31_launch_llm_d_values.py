"""An llm-d ModelService values file (llm-d-incubation/llm-d-modelservice, the chart llm-d's guides
install with `helm install ... -f values.yaml`): the model is `modelArtifacts.uri`, and a decode
container with `modelCommand: vllmServe` runs `vllm serve MODEL ... --tensor-parallel-size
parallelism.tensor` and then its `args:` (charts/llm-d-modelservice/templates/_helpers.tpl
`vllmServeModelCommand`, `argsByProtocol`). The audit said 'not an SGLang or vLLM server command'
and never saw the speculative config in `args:`."""

from __future__ import annotations

from spec_debug.diagnose.launch import parse_launch_command

# the shape of the chart's examples/values-pd.yaml / the llm-d guides' ms-*/values.yaml, with the
# EAGLE-3 config of the vLLM docs (features/speculative_decoding/eagle.md) in the decode args
VALUES = """modelArtifacts:
  uri: "{uri}"
  name: "meta-llama/Llama-3.1-8B-Instruct"
  size: 20Gi
  authSecretName: "llm-d-hf-token"

routing:
  servicePort: 8000
  proxy:
    enabled: false

prefill:
  create: false

decode:
  create: true
  replicas: 1
  parallelism:
    tensor: 2
  containers:
  - name: "vllm"
    image: ghcr.io/llm-d/llm-d-cuda:v0.3.0
    modelCommand: {command}
    args:
      - "--speculative-config"
      - '{{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}}'
    mountModelVolume: true
"""


def test_the_decode_container_serves_the_artifact_with_its_args():
    for uri in ("hf://meta-llama/Llama-3.1-8B-Instruct", "pvc+hf://model-pvc/hub/meta-llama/Llama-3.1-8B-Instruct"):
        for command in ("vllmServe", "imageDefault"):
            cfg = parse_launch_command(VALUES.format(uri=uri, command=command))
            assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps, cfg.tp) == (
                "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 3, 2), (uri, command)
            assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"

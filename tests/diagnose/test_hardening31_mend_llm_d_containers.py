"""An llm-d ModelService values file whose `containers:` is a scalar (`containers: 5`, `true`, `1.5`)
has no container there: the other section's container still serves, and a file with none left is
'not an SGLang or vLLM server command'. Was: TypeError "'int' object is not iterable". And a
`parallelism.tensor` that str.isdigit takes but int() refuses ("²") sets no --tensor-parallel-size
(sprig's `int` makes it 0). Was: ValueError "invalid literal for int()"."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

MODEL = "meta-llama/Llama-3.1-8B-Instruct"
SERVING = """  containers:
  - name: "vllm"
    modelCommand: vllmServe
    args:
      - "--speculative-config"
      - '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
"""


@pytest.mark.parametrize("scalar", ["5", "true", "1.5"])
def test_a_scalar_containers_is_no_container(scalar):
    head = f'modelArtifacts:\n  uri: "hf://{MODEL}"\ndecode:\n  create: true\n  containers: {scalar}\n'
    cfg = parse_launch_command(head + "prefill:\n" + SERVING)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == ("vllm", MODEL, "EAGLE3", 3)
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command(head + "# modelCommand: vllmServe\n")


def test_a_tensor_int_refuses_sets_no_tp():
    text = f'modelArtifacts:\n  uri: "hf://{MODEL}"\ndecode:\n  parallelism:\n    tensor: "²"\n' + SERVING
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.tp) == ("vllm", MODEL, "EAGLE3", None)

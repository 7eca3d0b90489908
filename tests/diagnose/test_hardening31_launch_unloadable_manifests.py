"""A compose file or Kubernetes manifest whose speculative config is JSON in an unquoted value is not
YAML: a plain scalar holds no `: ` (YAML 1.2, 7.3.3), so `"method": "eagle3"` starts a mapping, and
docker compose ("yaml: line 5: mapping values are not allowed in this context") or kubectl refuses
the file; the server never starts. The audit read such a file as a command `image: ...` with no
speculative decoding and said nothing; now it is one clear error naming the line. The same files,
quoted as the hint says, are read as before."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

SPEC = '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'

# the vLLM docs' docker deployment (deployment/docker.md: image vllm/vllm-openai, the flags as its
# command) written as a compose service, the flags one string
COMPOSE = """services:
  vllm:
    image: vllm/vllm-openai:v0.10.1
    ipc: host
    command: {command}
"""
# the vLLM docs' Kubernetes Deployment (deployment/k8s.md), its args one `--flag=value` item each
DEPLOYMENT = """apiVersion: apps/v1
kind: Deployment
metadata:
  name: vllm-server
spec:
  template:
    spec:
      containers:
      - name: vllm
        image: vllm/vllm-openai:latest
        command: ["vllm", "serve"]
        args:
        - --model=meta-llama/Llama-3.1-8B-Instruct
        - --tensor-parallel-size=2
        - {item}
"""


@pytest.mark.parametrize("text, runtime, line", [
    (COMPOSE.format(command=f"--model meta-llama/Llama-3.1-8B-Instruct --speculative-config '{SPEC}'"),
     "docker compose", 5),
    (DEPLOYMENT.format(item=f"--speculative-config={SPEC}"), "kubectl", 15),
], ids=["compose-command-string", "deployment-args-item"])
def test_json_in_a_plain_value_is_a_file_the_runtime_refuses(text, runtime, line):
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(text)
    message = str(raised.value)
    assert message.startswith(f"this {'compose file' if runtime == 'docker compose' else 'Kubernetes manifest'} "
                              f"is not valid YAML (line {line}, "), message
    assert f"{runtime} refuses to load it" in message and "starts a YAML mapping" in message


@pytest.mark.parametrize("text", [
    COMPOSE.format(command=f">-\n      --model meta-llama/Llama-3.1-8B-Instruct\n      --speculative-config '{SPEC}'"),
    DEPLOYMENT.format(item=f"'--speculative-config={SPEC}'"),
], ids=["compose-block-scalar", "deployment-quoted-item"])
def test_the_same_files_quoted_are_read(text):
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 3)


# llm-d / KServe-style args with the JSON as its own list item, left unquoted: YAML loads it as a
# mapping, and a container's args are strings (Kubernetes core/v1 Container.Args []string)
FLOW_ITEM = DEPLOYMENT.replace("        - {item}\n", "        - --speculative-config\n        - {item}\n")


def test_json_as_an_unquoted_list_item_is_a_mapping_the_runtime_refuses():
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(FLOW_ITEM.format(item=SPEC))
    message = str(raised.value)
    # (was: "is Python's dict syntax, not JSON", with a hint to write the JSON it already was)
    assert message.startswith('args: the item {"method": "eagle3", ') and "is a YAML mapping, not a string" in message
    assert "Python" not in message
    cfg = parse_launch_command(FLOW_ITEM.format(item=f"'{SPEC}'"))
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 3, 2)

"""The "not valid YAML" refusal of a compose file / Kubernetes manifest is for the file alone. A
shell script that writes one with a heredoc (`cat > docker-compose.yml <<'YAML' ... YAML`,
`kubectl apply -f - <<EOF ... EOF`) and then starts the server is not YAML as a whole, yet it is a
script the audit reads: it was refused as "this compose file is not valid YAML", the server command
after it lost. Compose's own tags (`!override`, `!reset`: compose-spec 13-merge.md, docker compose
2.24+) are YAML that docker compose loads; PyYAML's safe loader stops at them (a ConstructorError),
and the file was refused as "not valid YAML"."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command

DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
SPEC = f'{{"method": "eagle3", "model": "{DRAFT}", "num_speculative_tokens": 3}}'
SERVE = f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{SPEC}'\n"

COMPOSE_HEREDOC = """cat > docker-compose.yml <<'YAML'
services:
  vllm:
    image: vllm/vllm-openai:v0.10.1
    command: --model meta-llama/Llama-3.1-8B-Instruct
YAML
docker compose up -d
""" + SERVE
KUBECTL_HEREDOC = """kubectl apply -f - <<EOF
apiVersion: v1
kind: ConfigMap
metadata:
  name: vllm-settings
data:
  image: vllm/vllm-openai:v0.10.1
EOF
""" + SERVE
COMPOSE_TAGS = f"""services:
  vllm:
    image: vllm/vllm-openai:v0.10.1
    ports: !override
      - 8000:8000
    healthcheck: !reset null
    command: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-config", '{SPEC}']
"""


@pytest.mark.parametrize("text", [COMPOSE_HEREDOC, KUBECTL_HEREDOC, COMPOSE_TAGS],
                         ids=["compose-heredoc-script", "kubectl-heredoc-script", "compose-override-reset-tags"])
def test_valid_inputs_are_read_not_refused_as_invalid_yaml(text):
    cfg = parse_launch_command(text)
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps, cfg.draft_model) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 3, DRAFT)

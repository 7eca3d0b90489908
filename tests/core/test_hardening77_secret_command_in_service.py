"""A secret command run in a compose service's container or as another user: `docker compose exec
vllm cat /run/secrets/hf_token` (the secret a compose file's `secrets:` mounts, the first thing to
check when the server answers 401), `docker-compose exec -T vllm printenv VLLM_API_KEY`, `docker
container exec ...`, `sudo su - vllm -c 'cat ...'`, `gcloud compute ssh gpu02 --command 'cat ...'`.
secret_commands.py followed `docker exec`, `kubectl exec`, `ssh` and `bash -c` into the command
they run, not these, so the step was not one printing a secret and its output (the token) was
kept in clear in run.json and the reports. Now their command is read as the step's own;
`docker compose exec vllm nvidia-smi` keeps its output."""

from __future__ import annotations

import pytest

from spec_debug.secret_commands import prints_secret_value


@pytest.mark.parametrize(("command", "prints"), [
    ("docker compose exec vllm cat /run/secrets/hf_token", True),
    ("docker compose -f serve.yml --project-name llm exec -e X=1 vllm printenv VLLM_API_KEY", True),
    ("docker-compose exec -T vllm cat /run/secrets/hf_token", True),
    ("podman-compose exec vllm cat /run/secrets/hf_token", True),
    ("docker container exec vllm cat /run/secrets/hf_token", True),
    ("sudo su - vllm -c 'cat /run/secrets/hf_token'", True),
    ("gcloud compute ssh gpu02 --zone us-central1-a --command 'cat /run/secrets/hf_token'", True),
    ("gcloud compute ssh gpu02 --command='vault kv get -field=token secret/hf'", True),
    ("docker compose exec vllm nvidia-smi", False),
    ("docker compose logs vllm", False),
    ("docker compose exec vllm cat /run/secrets/hf_token | wc -c", False),
    ("gcloud compute ssh gpu02 --command 'nvidia-smi'", False),
    ("su - vllm -c 'ls /run/secrets'", False),
])
def test_a_secret_command_in_a_service_or_as_another_user(command, prints):
    assert prints_secret_value(command) is prints

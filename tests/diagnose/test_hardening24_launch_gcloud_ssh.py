"""A server started over `gcloud compute ssh VM --command=...` (session 15).

The vLLM TPU docs start the server as `gcloud compute tpus tpu-vm ssh $TPU_NAME ... --worker=all
--command="sudo docker run ... vllm serve ..."`: gcloud runs the string over ssh, with the remote
shell, as `ssh host "..."` does. It was 'not an SGLang or vLLM server command'.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SPEC = '\'{\\"method\\":\\"ngram\\",\\"num_speculative_tokens\\":1,\\"prompt_lookup_max\\":4}\''


@pytest.mark.parametrize("command", [
    "gcloud compute ssh gpu01 --zone us-central1-a --command 'vllm serve meta-llama/Llama-3.1-8B-Instruct "
    "--speculative-config \"{\\\"method\\\":\\\"ngram\\\",\\\"num_speculative_tokens\\\":1,\\\"prompt_lookup_max\\\":4}\"'",
    "gcloud compute tpus tpu-vm ssh $TPU_NAME --project $PROJECT --zone=$ZONE --worker=all "
    "--command=\"sudo docker run -t --rm --name vllm --privileged --net=host vllm/vllm-tpu:nightly vllm serve "
    f"meta-llama/Llama-3.1-8B-Instruct --max-model-len 2048 --speculative-config {SPEC}\"",
])
def test_the_command_string_is_the_server(command):
    cfg = parse_launch_command(command)
    assert (cfg.engine, cfg.target_model) == ("vllm", "meta-llama/Llama-3.1-8B-Instruct")
    assert cfg.speculative_config == {"method": "ngram", "num_speculative_tokens": 1, "prompt_lookup_max": 4}


def test_another_gcloud_command_is_no_server():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM server command"):
        parse_launch_command("gcloud compute instances list --filter='name~vllm serve'")

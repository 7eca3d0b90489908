"""curl and wget were a probe of the server ("health") whatever URL they fetched: downloading a
checkpoint from the Hugging Face Hub or a source file from GitHub read as polling the server.
Only the server's own health, metrics and model endpoints are (SGLang
python/sglang/srt/entrypoints/http_server.py; vLLM vllm/entrypoints/openai/api_server.py)."""

from __future__ import annotations

import pytest

from spec_debug.session.shell import categorize


@pytest.mark.parametrize("command", [
    "curl http://10.1.2.3:30000/v1/models",
    "curl -s http://gpu01:8000/health",
    "ssh gpu01 curl -sf localhost:30000/health_generate",
    "curl -s localhost:30000/get_server_info | jq .",
    "curl -s http://localhost:30000/get_model_info",
    "curl -s localhost:8000/metrics | grep spec_decode",
    "curl http://gpu01:8000/version",
    "wget -qO- http://localhost:30000/v1/models",
    "while ! curl -s localhost:30000; do sleep 5; done",
    "curl -s http://10.1.2.3:8000/",
])
def test_a_request_to_the_servers_own_endpoints_probes_the_server(command: str) -> None:
    assert categorize(command) == "health"


@pytest.mark.parametrize("command", [
    "curl -O https://huggingface.co/yuhuili/EAGLE3-LLaMA3.1-Instruct-8B/resolve/main/pytorch_model.bin",
    "curl -sSLo model.safetensors https://huggingface.co/org/draft/resolve/main/model.safetensors",
    "curl -L https://huggingface.co/org/draft/resolve/main/config.json --output config.json",
    "wget https://huggingface.co/org/draft/resolve/main/config.json",
])
def test_a_download_copies_files(command: str) -> None:
    assert categorize(command) == "transfer"


@pytest.mark.parametrize("command", [
    "curl https://raw.githubusercontent.com/sgl-project/sglang/main/python/sglang/srt/models/llama_eagle3.py",
    "curl -s https://api.github.com/repos/sgl-project/sglang/releases/latest",
    "curl -LsSf https://astral.sh/uv/install.sh | sh",
])
def test_a_fetch_from_elsewhere_is_no_probe_of_the_server(command: str) -> None:
    assert categorize(command) not in ("health", "transfer")


def test_a_file_named_like_an_endpoint_is_read_not_probed() -> None:
    assert categorize("cat /proc/version") == "inspect_config"

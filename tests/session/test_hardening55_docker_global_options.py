"""``docker exec`` with the CLI's own options before the subcommand (``docker --context gpu07
exec ...``, ``docker -H ssh://ubuntu@gpu07 exec ...``, docker/cli cli/flags/options.go) named no
container and no host: the command read as run where the session ran, its category from the
docker words. Now it is the container's, and a daemon reached by ssh is its host."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.chat_runs import write_chat_runs


def _chat(path: Path, runs: list[tuple[str, str]]) -> Path:
    return write_chat_runs(path, "The EAGLE-3 server in the sglang container on gpu07 is slow.", runs)


def test_docker_exec_after_the_clis_own_options_is_the_containers(tmp_path):
    doc = analyze_path(_chat(tmp_path / "chat.json", [
        ("docker --context gpu07 exec sglang nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)"),
        ("docker -H ssh://ubuntu@gpu07:2222 exec -it sglang nvidia-smi -L", "GPU 0: NVIDIA H100 80GB HBM3"),
        ("docker --host=ssh://gpu08 exec sglang cat /models/eagle3/config.json", '{"num_hidden_layers": 1}'),
        ("docker --log-level error ps", "CONTAINER ID   IMAGE"),
    ])).to_json()
    assert [(c["container"], c["host"], c["user"], c["port"], c["category"]) for c in doc["commands"]] == [
        ("docker:sglang", None, None, None, "gpu_status"),
        ("docker:sglang", "gpu07", "ubuntu", 2222, "gpu_status"),
        ("docker:sglang", "gpu08", None, None, "inspect_config"),
        (None, None, None, None, doc["commands"][3]["category"]),
    ]
    assert doc["commands"][0]["cwd"] is None  # ran in the container, not in the session's folder

"""`docker run --rm -e HF_TOKEN lmsysorg/sglang:latest printenv HF_TOKEN` (does the token reach
the container the server will run in?) prints the token bare, and `docker run --rm --entrypoint
cat -v /etc/vllm:/etc/vllm vllm/vllm-openai /etc/vllm/api-key.txt` the API key: secret_commands.py
followed `docker exec` into the command it runs, not `docker run`, and a real `--host local` run
kept the value in run.json and the reports. Now `docker run` (and `docker container run`, podman's,
nerdctl's) is read past its options, those that take a value too (`-e`, `-v`, `--gpus`,
`--shm-size`), and its image, with `--entrypoint` first: the command it runs prints what it would
print here. A detached run (`-d`) prints the container's id, and `printenv HF_HOME` no secret."""

from __future__ import annotations

import stat

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

TOKEN = "Zq4nW8rT2vLx9KmP3sYb"


def test_a_token_printed_in_a_new_container_is_masked(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    docker = bin_dir / "docker"  # the container's printenv: the value -e passed in, and a new line
    docker.write_text(f"#!/bin/sh\nprintf '%s\\n' '{TOKEN}'\n")
    docker.chmod(docker.stat().st_mode | stat.S_IEXEC)
    command = f"PATH={bin_dir}:$PATH docker run --rm --gpus all -e HF_TOKEN --shm-size 16g lmsysorg/sglang:latest printenv HF_TOKEN"
    (tmp_path / "p.yaml").write_text(f"name: b\nsteps:\n  - id: token\n    run: {command}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"].splitlines() == [MASK]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert TOKEN not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("docker run --rm -e HF_TOKEN lmsysorg/sglang:latest printenv HF_TOKEN", True),
    ("docker run --rm -it --entrypoint printenv vllm/vllm-openai:v0.8.5 HF_TOKEN", True),
    ("docker run --rm --entrypoint=cat -v /etc/vllm:/etc/vllm vllm/vllm-openai /etc/vllm/api-key.txt", True),
    ("docker run --rm --entrypoint bash vllm/vllm-openai -c 'echo $VLLM_API_KEY'", True),
    ("docker container run --rm -e HF_TOKEN img printenv HF_TOKEN", True),
    ("podman run --rm -e HF_TOKEN lmsysorg/sglang printenv HF_TOKEN", True),
    ("docker run -d --name sg -e HF_TOKEN lmsysorg/sglang printenv HF_TOKEN", False),
    ("docker run -itd lmsysorg/sglang printenv HF_TOKEN", False),
    ("docker run --rm -e HF_TOKEN lmsysorg/sglang printenv HF_HOME", False),
    ("docker run --rm -e HF_TOKEN lmsysorg/sglang printenv HF_TOKEN | wc -c", False),
    ("docker run --rm lmsysorg/sglang", False),
])
def test_docker_run_followed_into_its_command(command, prints):
    assert prints_secret_value(command) is prints

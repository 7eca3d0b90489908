"""A secret command run through another: `ssh gpu02 cat /run/secrets/hf_token`, `docker exec
vllm cat /run/secrets/hf_token` (the serving container's mounted secret, the first thing to check
when the server answers 401), `kubectl exec vllm-0 -- cat ...`, `bash -c 'vault kv get
-field=password ...'`. The command the step names is ssh, docker or bash, so the step was not read
as one printing a secret, and a real `--host local` run kept the value in clear in run.json and the
reports. Now the command they run is read as the step's own: its output is masked whole when that
command prints a secret; `ssh gpu02 nvidia-smi` and `docker exec vllm nvidia-smi` keep theirs."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"


def test_bash_c_of_a_secret_file_is_masked(tmp_path):
    secret = tmp_path / "db_password"
    secret.write_text(VALUE + "\n")
    (tmp_path / "p.yaml").write_text(f"name: b\nsteps:\n  - id: read\n    run: bash -c 'cat {secret}'\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ('bash -c "vault kv get -field=password secret/db"', True),
    ('bash -lc "aws secretsmanager get-secret-value --secret-id x --query SecretString --output text"', True),
    ("ssh gpu02 cat /run/secrets/hf_token", True),
    ('ssh -p 2222 -o BatchMode=yes ops@gpu02 "vault kv get -field=token secret/x"', True),
    ("docker exec vllm cat /run/secrets/hf_token", True),
    ("docker exec -it -e X=1 vllm cat /run/secrets/hf_token", True),
    ("kubectl exec -n llm vllm-0 -- cat /var/run/secrets/api/api-key", True),
    ("ssh gpu02 nvidia-smi", False),
    ("docker exec vllm nvidia-smi", False),
    ('bash -c "echo hi"', False),
    ("kubectl exec vllm-0 -- ls /run/secrets", False),
    ("ssh gpu02", False),
    ("bash check_secret.sh", False),
])
def test_commands_run_elsewhere(command: str, prints: bool) -> None:
    assert prints_secret_value(command) is prints

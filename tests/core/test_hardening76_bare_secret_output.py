"""A step whose command prints a secret's value alone, as a secret manager's CLI does when asked
for the value: `aws secretsmanager get-secret-value --query SecretString --output text`, `az
keyvault secret show --query value -o tsv`, `gcloud secrets versions access latest --secret=X`,
`vault kv get -field=password`, `terraform output -raw db_password`, `kubectl get secret -o
jsonpath='{.data.token}' | base64 -d`. The value has no token's shape and no name before it, and
a real `--host local` run kept it in clear in run.json, report.md, report.html, --show-output and
the step's artifact. Now the command's shape says its output is a secret: its stdout is masked
whole, line by line (the line ends kept), in the record, the reports, the shown output and the
spilled artifact, and the value is masked wherever else it shows (a fact captured from it under
any name, a later step's echo). A command whose output goes elsewhere (`TOKEN=$(...)`, `> file`,
`| docker login --password-stdin`) keeps its output; --no-redact shows it.

The CLIs here are fakes on PATH (a shell script per name, printing a value), as the runner sees a
real one: a program that prints on its stdout.
"""

from __future__ import annotations

import os
import random
import stat

import pytest

from spec_debug.redact import MASK, LineMaskingRedactor, mask_lines
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"  # a database password: no token shape, no name before it
KEY_LINES = [f"line{i:03d}-{VALUE}-{'x' * 40}" for i in range(200)]  # a service account key, 200 lines

PLAYBOOK = """\
name: secrets
steps:
  - id: aws
    run: aws secretsmanager get-secret-value --secret-id vllm/api-key --query SecretString --output text
    capture:
      - regex: '(?P<value>\\S+)'
  - id: az
    run: az keyvault secret show --vault-name kv --name hf-token --query value -o tsv
  - id: vault
    run: vault kv get -field=password secret/db
  - id: gcloud
    run: gcloud secrets versions access latest --secret=sa-key
  - id: length
    run: TOKEN=$(vault kv get -field=password secret/db) && test -n "$TOKEN" && echo "token read"
  - id: later
    run: echo "connecting with {{ facts.value }}"
"""


def _fakes(tmp_path) -> dict[str, str]:
    """Fake CLIs named aws, az and vault (printing VALUE) and gcloud (printing KEY_LINES), first on PATH."""
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    for name, lines in (("aws", [VALUE]), ("az", [VALUE]), ("vault", [VALUE]), ("gcloud", KEY_LINES)):
        path = bin_dir / name
        path.write_text("#!/bin/sh\n# a fake CLI for this test\ncat <<'EOF'\n" + "\n".join(lines) + "\nEOF\n")
        path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}


def _run(tmp_path, *extra: str):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out), "--capture-limit", "2000",
                     *extra, env=_fakes(tmp_path))
    run_dir, record = only_run(out)
    return result, run_dir, record


def test_a_bare_secret_is_masked_everywhere(tmp_path):
    result, run_dir, record = _run(tmp_path, "--show-output")
    assert result.code == 0, result.stderr
    steps = {s["id"]: s for s in record["steps"]}
    assert [steps[i]["stdout"] for i in ("aws", "az", "vault")] == [f"{MASK}\n"] * 3
    assert steps["length"]["stdout"] == "token read\n"  # the value went to a variable
    assert steps["later"]["stdout"] == f"connecting with {MASK}\n"
    assert steps["later"]["command"] == f'echo "connecting with {MASK}"'
    assert record["facts"]["local"]["value"] == MASK
    # 200 lines, over the capture limit: the record's head and tail, the artifact whole, each line masked
    gcloud = steps["gcloud"]
    assert gcloud["truncated"] is True
    assert set(gcloud["stdout"].replace("\n", "").split("... [")[0].split(MASK)) == {""}
    assert "bytes truncated; " in gcloud["stdout"]
    (artifact,) = [a for a in gcloud["artifacts"] if a.endswith("stdout.log")]
    assert (run_dir / artifact).read_text() == f"{MASK}\n" * 200
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stdout, result.stderr):
        assert VALUE not in text and "mZ2vLw9x" not in text


def test_with_no_redact_the_value_is_shown(tmp_path):
    result, _, record = _run(tmp_path, "--no-redact")
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{VALUE}\n"
    assert record["steps"][5]["stdout"] == f"connecting with {VALUE}\n"


@pytest.mark.parametrize("command", [
    "aws secretsmanager get-secret-value --secret-id vllm/api-key --query SecretString --output text",
    "aws secretsmanager get-secret-value --secret-id x --query SecretString",  # JSON's "value", bare
    "AWS_PROFILE=prod aws --region us-east-1 secretsmanager get-secret-value --secret-id x --output text",
    "aws ssm get-parameter --name /llm/hf_token --with-decryption --query Parameter.Value --output text",
    "aws ssm get-parameter --name /llm/hf_token --with-decryption --output yaml",
    "az keyvault secret show --vault-name kv --name hf-token --query value -o tsv",
    "timeout 10 az keyvault secret show --vault-name kv -n x --query value -o tsv 2>/dev/null",
    "gcloud secrets versions access latest --secret=hf-token",
    "gcloud secrets versions access latest --secret=x --format='get(payload.data)' | tr '_-' '/+' | base64 -d",
    "vault kv get -field=password secret/db",
    "sudo -u app vault read -field=token auth/approle/login",
    "terraform output -raw db_password",
    "terraform -chdir=infra output db_password",
    "kubectl get secret x -o jsonpath='{.data.token}' | base64 -d",
    "kubectl -n llm get secret/hf -o jsonpath={.data.HF_TOKEN} | base64 --decode; echo",
    "kubectl get secret x -o json | jq -r .data.token | base64 -d",
    "aws secretsmanager get-secret-value --secret-id x --query SecretString --output text | jq -r .password",
    'echo "$(vault kv get -field=password secret/db)"',
    "set -e\nnvidia-smi\naws secretsmanager get-secret-value --secret-id x --query SecretString --output text",
    "if vault kv get -field=password secret/db; then echo ok; fi",
    "jq -r '.api_key' /etc/vllm/config.json",
])
def test_commands_that_print_a_secret(command):
    assert prints_secret_value(command)


@pytest.mark.parametrize("command", [
    "aws secretsmanager get-secret-value --secret-id x",  # JSON: "SecretString": ... (redact.py reads it)
    "aws secretsmanager get-secret-value --secret-id x --query Name --output text",
    "aws secretsmanager describe-secret --secret-id x --output text",
    'TOKEN=$(aws secretsmanager get-secret-value --secret-id x --query SecretString --output text) && curl -H "Authorization: Bearer $TOKEN" http://127.0.0.1:8000/v1/models',
    "aws secretsmanager get-secret-value --secret-id x --query SecretString --output text > /tmp/k",
    "aws secretsmanager get-secret-value --secret-id x --query SecretString --output text >/dev/null 2>&1 && echo ok",
    "aws secretsmanager get-secret-value --secret-id x --query SecretString --output text | docker login -u AWS --password-stdin x",
    "aws secretsmanager get-secret-value --secret-id x --query SecretString --output text | wc -c",
    "aws ssm get-parameter --name /llm/model --query Parameter.Value --output text",  # not decrypted
    "az keyvault secret show --vault-name kv --name hf-token",
    "az keyvault secret list --vault-name kv -o tsv",
    "gcloud secrets versions access latest --secret=x --out-file=/tmp/x",
    "gcloud secrets versions access latest --secret=x --format=json",
    "vault kv get secret/db",
    "terraform output -raw instance_ip",  # the host to reach, no secret
    "terraform output",
    "kubectl get secret x -o jsonpath='{.metadata.name}'",
    "kubectl get pods -o jsonpath='{.items[*].metadata.name}'",
    "jq -r .eos_token tokenizer_config.json",
    "vllm serve m --api-key $(vault kv get -field=key secret/x)",
    "nvidia-smi",
    "echo 'unclosed",
])
def test_commands_that_do_not(command):
    assert not prints_secret_value(command)


def test_stream_masking_is_mask_lines_in_any_chunks():
    rng = random.Random(7)
    for text in ("abc\n", "abc\r\n\r\nxyz", "\n\n a\n", "a\rb\r\n", "\r\n", "x", "\r", "ab\r", "a\r\r\n"):
        expected = mask_lines(text).encode()
        for _ in range(50):
            redactor, data, out, at = LineMaskingRedactor(), text.encode(), b"", 0
            while at < len(data):
                step = rng.randint(1, 3)
                out += redactor.feed(data[at:at + step])
                at += step
            assert out + redactor.close() == expected
    assert mask_lines("abc\r\n\r\nxyz") == f"{MASK}\r\n\r\n{MASK}"

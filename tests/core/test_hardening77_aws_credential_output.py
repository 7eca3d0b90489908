"""An AWS CLI command that prints a credential bare, outside Secrets Manager and SSM: `aws ecr
get-login-password` (the registry password a host pulls the serving image with, run alone to see
that it works), `aws configure get aws_secret_access_key`, `aws sts get-session-token --query
Credentials.SessionToken --output text`, `aws codeartifact get-authorization-token --query
authorizationToken --output text`. secret_commands.py read only secretsmanager and ssm, so these
steps were not ones printing a secret and a real `--host local` run kept the value in clear in
run.json and the reports (an ECR password is base64 with no shape a pattern knows). Now they print
a secret and the step's output is masked whole; `get-login-password | docker login
--password-stdin`, `aws configure get region` and a query of a non-secret field keep theirs."""

from __future__ import annotations

import os
import stat

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "eyJwYXlsb2FkIjoiUHE3bVoydkx3OXhSdDRLIn0Pq7mZ2vLw9xRt4K"


def test_an_ecr_password_printed_is_masked(tmp_path):
    bin_dir = tmp_path / "fake-bin"
    bin_dir.mkdir()
    aws = bin_dir / "aws"  # a fake aws CLI for this test, printing the password as ECR's does
    aws.write_text(f"#!/bin/sh\necho '{VALUE}'\n")
    aws.chmod(aws.stat().st_mode | stat.S_IXUSR)
    (tmp_path / "p.yaml").write_text(
        "name: b\nsteps:\n  - id: ecr\n    run: aws ecr get-login-password --region us-east-1\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out),
                     env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("aws ecr get-login-password --region us-east-1", True),
    ("aws ecr-public get-login-password --region us-east-1", True),
    ("aws configure get aws_secret_access_key", True),
    ("aws configure get profile.prod.aws_session_token", True),
    ("aws sts get-session-token --query Credentials.SessionToken --output text", True),
    ("aws sts assume-role --role-arn arn:aws:iam::1:role/r --role-session-name s"
     " --query Credentials.SecretAccessKey", True),
    ("aws codeartifact get-authorization-token --domain d --query authorizationToken --output text", True),
    ("aws ecr get-login-password --region us-east-1 | docker login --username AWS --password-stdin"
     " 1234.dkr.ecr.us-east-1.amazonaws.com", False),
    ("aws configure get region", False),
    ("aws configure get aws_access_key_id", False),
    ("aws sts get-caller-identity --query Account --output text", False),
    ("aws secretsmanager list-secrets --query 'SecretList[].Name' --output text", False),
])
def test_aws_credential_output(command, prints):
    assert prints_secret_value(command) is prints

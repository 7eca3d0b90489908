"""`AWS_DEFAULT_OUTPUT=text` (or `export AWS_DEFAULT_OUTPUT=text` earlier in the step's script)
makes `aws secretsmanager get-secret-value --secret-id vllm/api-key` print its fields as a
tab-separated row, the SecretString among them, with no --output on the command (docs.aws.amazon.com
/cli, "Setting the output format": the environment variable, when no --output is given). The
command alone said JSON (which names the value), so the step was not read as printing a secret
bare, and the row kept it in clear. Now the script's AWS_DEFAULT_OUTPUT counts where --output is
not given; an explicit --output wins, and JSON stays to the patterns."""

from __future__ import annotations

import pytest

from spec_debug.secret_commands import prints_secret_value


@pytest.mark.parametrize(("command", "prints"), [
    ("AWS_DEFAULT_OUTPUT=text aws secretsmanager get-secret-value --secret-id vllm/api-key", True),
    ("export AWS_DEFAULT_OUTPUT=text\naws secretsmanager get-secret-value --secret-id vllm/api-key", True),
    ("export AWS_DEFAULT_OUTPUT=text; aws ssm get-parameter --name /llm/key --with-decryption", True),
    ("AWS_DEFAULT_OUTPUT=text aws secretsmanager get-secret-value --secret-id x --output json", False),
    ("AWS_DEFAULT_OUTPUT=json aws secretsmanager get-secret-value --secret-id x", False),
    ("AWS_DEFAULT_OUTPUT=text aws s3 ls s3://checkpoints/", False),
])
def test_aws_default_output(command: str, prints: bool) -> None:
    assert prints_secret_value(command) is prints

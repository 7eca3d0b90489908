"""AWS names a Secrets Manager secret by its ARN, `arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME-
AbCdEf`: an AccessDeniedException says which secret a GPU host's role may not read, an IAM policy
which it may, and get-secret-value's "ARN" field which it read. The "secret:" in it was read as a
secret's name and what followed as its value: the message became `...:123456789012:secret:
***REDACTED***`, the one thing a 403 postmortem needs (which secret) gone, though the ARN holds no
secret. Now an ARN's resource stays; a `secret: VALUE` of its own is still masked."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text

DENIED = ("An error occurred (AccessDeniedException) when calling the GetSecretValue operation: User: "
          "arn:aws:sts::123456789012:assumed-role/gpu-node/i-0abc is not authorized to perform: "
          "secretsmanager:GetSecretValue on resource: arn:aws:secretsmanager:us-east-1:123456789012:secret:hf-token-AbCdEf "
          "because no identity-based policy allows the secretsmanager:GetSecretValue action")


@pytest.mark.parametrize("text", [
    DENIED,
    '"Resource": "arn:aws:secretsmanager:us-east-1:123456789012:secret:prod/llm/*"',
    '"ARN": "arn:aws-cn:secretsmanager:cn-north-1:123456789012:secret:vllm/api-key-AbCdEf",',
])
def test_arn_stays(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("text, masked", [
    ("secret: abc123", f"secret: {MASK}"),
    ("client_secret=Zq8abc", f"client_secret={MASK}"),
    ('{"ARN": "arn:aws:secretsmanager:us-east-1:123456789012:secret:hf-AbCdEf", "SecretString": "Zq8abc"}',
     f'{{"ARN": "arn:aws:secretsmanager:us-east-1:123456789012:secret:hf-AbCdEf", "SecretString": "{MASK}"}}'),
])
def test_secret_values_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked

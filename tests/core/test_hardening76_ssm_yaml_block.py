"""`aws ssm get-parameter --with-decryption --output yaml` of a multi-line SecureString (a PEM key,
a multi-line secret) prints `Value: |-` and the secret as an indented block. Before, the single-line
`Value: <secret>` was masked but the block stood in clear; now the block's lines are masked, the
keys around it (Name, Type, Version) stay."""

from spec_debug.redact import MASK, redact_text

SECRET_LINES = ("zq9Lw3mNpR7tUvXy2AbCdEfGhIjKlMnOpQrStUvWxYz0123", "Q2hlY2tNZUlmWW91Q2FuOTg3NjU0MzIxMGFiY2RlZmdo")

YAML = (
    "Parameter:\n"
    "  ARN: arn:aws:ssm:us-east-1:111122223333:parameter/prod/tls-key\n"
    "  Name: /prod/tls-key\n"
    "  Type: SecureString\n"
    "  Value: |-\n"
    "    -----BEGIN EC PARAMETERS-----\n"
    f"    {SECRET_LINES[0]}\n"
    f"    {SECRET_LINES[1]}\n"
    "    -----END EC PARAMETERS-----\n"
    "  Version: 1\n"
)


def test_block_value_of_secure_string_is_masked():
    out = redact_text(YAML)
    for line in SECRET_LINES:
        assert line not in out
    assert out == (
        "Parameter:\n"
        "  ARN: arn:aws:ssm:us-east-1:111122223333:parameter/prod/tls-key\n"
        "  Name: /prod/tls-key\n"
        "  Type: SecureString\n"
        "  Value: |-\n"
        f"    {MASK}\n"
        "  Version: 1\n"
    )


def test_folded_block_in_parameters_list_is_masked():
    text = (
        "Parameters:\n"
        "- Name: /llm/hf\n"
        "  Type: SecureString\n"
        "  Value: >-\n"
        f"    {SECRET_LINES[0]}\n"
        "  Version: 3\n"
        "- Name: /llm/region\n"
        "  Type: String\n"
        "  Value: us-east-1\n"
    )
    out = redact_text(text)
    assert SECRET_LINES[0] not in out
    assert f"  Value: >-\n    {MASK}\n  Version: 3\n" in out
    assert "  Value: us-east-1\n" in out


def test_single_line_value_still_masked():
    text = "Parameter:\n  Name: /a\n  Type: SecureString\n  Value: hf_abcdefghijklmnopqrstuvwxyz012345\n  Version: 1\n"
    assert redact_text(text) == f"Parameter:\n  Name: /a\n  Type: SecureString\n  Value: {MASK}\n  Version: 1\n"

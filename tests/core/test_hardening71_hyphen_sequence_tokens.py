"""A sequence token, a special token or a page cursor named with hyphens, as a command line's flag
is (`--next-token 42`, `--eos-token "</s>"`, `--page-token abc`): no secret, as `next_token`,
`nextToken` and `eos_token` already were not. It was masked (`--next-token ***REDACTED***`), and
is_secret_name("next-token") said a secret while is_secret_name("next_token") did not."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value, secret_spans


@pytest.mark.parametrize("text", [
    "python replay.py --next-token 1234 --draft-token 99",
    'python serve.py --eos-token "</s>" --pad-token "<pad>"',
    "--im-start-token '<|im_start|>'",
    "aws logs filter-log-events --next-token abcdEFGH1234",
    "gcloud list --page-token=CAESBggDEAEYAQ",
    "--accepted-token=the --rejected-tokens=a",
])
def test_hyphenated_sequence_token_flags_stay(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("name", ["next-token", "eos-token", "im-start-token", "next-page-token", "draft-tokens-2"])
def test_hyphenated_names_are_no_secret_names(name: str) -> None:
    assert is_secret_name(name) is False
    assert is_secret_name(name.replace("-", "_")) is False


def test_argv_flag_is_kept() -> None:
    assert redact_value(["replay.py", "--next-token", "1234", "--api-key", "sekrit"]) == \
        ["replay.py", "--next-token", "1234", "--api-key", MASK]


@pytest.mark.parametrize("text, masked", [
    ("--hf-token abcdef", f"--hf-token {MASK}"),
    ("--new-token abcdef", f"--new-token {MASK}"),
    ("--auth-token=abcdef", f"--auth-token={MASK}"),
    ("my-next-token-secret: abc", f"my-next-token-secret: {MASK}"),
])
def test_secret_flags_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", ["--next_token=1234", "--page_token=CAESBggDEAEYAQ", "--eos_token=</s>"])
def test_flag_with_equals_and_underscores_stays(text: str) -> None:
    # NAME=value read the flag's dashes as part of the name, which no tokenizer name then matched
    assert redact_text(text) == text

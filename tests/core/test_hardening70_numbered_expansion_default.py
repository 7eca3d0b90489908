"""A default typed into a parameter expansion of a numbered secret name (`${HF_TOKEN_2:-hf_...}`).

The two `${...}` patterns wanted the name to end in the secret word right before the `:-`, so
`echo ${HF_TOKEN_2:-sekrit}` and `HF_TOKEN_2=${OTHER:-sekrit}` kept the default in clear, while
`HF_TOKEN_2=sekrit` (NAME=value) and redact_value under that name mask it.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text

SECRET = "Wd3nT8rQ1yHs"


@pytest.mark.parametrize("text, masked", [
    (f"echo ${{HF_TOKEN_2:-{SECRET}}}", f"echo ${{HF_TOKEN_2:-{MASK}}}"),
    (f'export DB_PASSWORD2="${{DB_PASSWORD2:={SECRET}}}"', f'export DB_PASSWORD2="${{DB_PASSWORD2:={MASK}}}"'),
    (f"HF_TOKEN_2=${{OTHER:-{SECRET}}} python3 serve.py", f"HF_TOKEN_2=${{OTHER:-{MASK}}} python3 serve.py"),
    (f"vllm serve m --api-key-2 ${{K:-{SECRET}}}", f"vllm serve m --api-key-2 ${{K:-{MASK}}}"),
])
def test_a_default_of_a_numbered_name_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "${MAX_TOKENS_2:-512}",
    "${HF_TOKEN_2}",
    "${HF_TOKEN_2:-$HF_TOKEN}",
    "${TOKEN_1234:-abcdef}",
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text

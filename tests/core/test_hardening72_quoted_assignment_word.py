"""A NAME=value written as one quoted shell word whose value holds a space.

Before: `docker run -e 'DB_PASSWORD=my pass phrase' img` read `-e 'DB_PASSWORD=***REDACTED*** pass
phrase'`: the value stopped at the first space and the rest of the password stayed in clear,
though the shell passes the quoted word whole. A `$VAR` inside the word stays.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text


@pytest.mark.parametrize("text, masked", [
    ("docker run -e 'DB_PASSWORD=my pass phrase' img", f"docker run -e 'DB_PASSWORD={MASK}' img"),
    ('kubectl create secret generic db --from-literal="password=a b c"',
     f'kubectl create secret generic db --from-literal="password={MASK}"'),
    ("env 'HF_TOKEN=abc 123' python3 x.py", f"env 'HF_TOKEN={MASK}' python3 x.py"),
    ("-e 'HF_TOKEN=abc'", f"-e 'HF_TOKEN={MASK}'"),
])
def test_value_masked_to_closing_quote(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", ['x = "HF_TOKEN=$HF_TOKEN other"', "'max_tokens=5 x'", '"eos_token=</s> x"'])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text

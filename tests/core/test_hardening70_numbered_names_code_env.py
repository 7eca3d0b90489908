"""A numbered secret name set in Python code or in an environment list (`os.environ["API_KEY_2"] =
"..."`, `{"name": "HF_TOKEN_2", "value": "..."}`, an escaped JSON body's `\\"api_key_2\\"`).

Those patterns (and their gates _KEY_IN_CODE, _ENV_PAIR) wanted the name to end in the secret
word, so the value stood as typed, while `HF_TOKEN_2=...` and redact_value under the name mask it.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text

SECRET = "Wd3nT8rQ1yHs"


@pytest.mark.parametrize("text, masked", [
    (f'os.environ["API_KEY_2"] = "{SECRET}"', f'os.environ["API_KEY_2"] = "{MASK}"'),
    (f"os.environ.setdefault('HF_TOKEN_2', '{SECRET}')", f"os.environ.setdefault('HF_TOKEN_2', '{MASK}')"),
    (f'env["DB_PASSWORD2"] = "{SECRET}"', f'env["DB_PASSWORD2"] = "{MASK}"'),
    (f'{{"name": "HF_TOKEN_2", "value": "{SECRET}"}}', f'{{"name": "HF_TOKEN_2", "value": "{MASK}"}}'),
    (f"        - name: OPENAI_API_KEY_3\n          value: {SECRET}\n",
     f"        - name: OPENAI_API_KEY_3\n          value: {MASK}\n"),
    (f"helm install x --set env[0].name=HF_TOKEN_2,env[0].value={SECRET}",
     f"helm install x --set env[0].name=HF_TOKEN_2,env[0].value={MASK}"),
    (f'curl -d "{{\\"api_key_2\\":\\"{SECRET}\\"}}" http://127.0.0.1:8000',
     f'curl -d "{{\\"api_key_2\\":\\"{MASK}\\"}}" http://127.0.0.1:8000'),
])
def test_a_numbered_name_in_code_or_an_env_list_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    'os.environ["MAX_TOKENS_2"] = "512"',
    'os.environ["API_KEY_2"] = "512"',
    "- name: HF_TOKEN_2\n  valueFrom:\n    secretKeyRef: {name: hf, key: token}",
    '{"name": "HF_TOKEN_2", "value": "$HF_TOKEN"}',
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text

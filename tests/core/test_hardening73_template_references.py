"""A template's reference under a secret's name is no secret: a playbook's `hf_token: "{{ hf_token
}}"`, an Ansible group_vars file, a Helm values reference, spec-debug's own `--var` templating in a
command (`--api-key {{ api_key }}`, `-H "Authorization: Bearer {{ api_key }}"`), and the playbooks
distill writes. Bare, the mask stopped at the space inside the braces: `token: {{ hf_token }}` read
`token: ***REDACTED*** hf_token }}` (the reference mangled, a reader sees a secret where the text
holds the name it is filled from); quoted, the name was masked whole. Now the reference stays;
a default typed inside one, and a value that only starts with braces, are still masked."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, secret_spans


@pytest.mark.parametrize("text", [
    "token: {{ hf_token }}",
    'api_key: "{{ api_key }}"',
    "hf_token: '{{ lookup(\"env\", \"HF_TOKEN\") }}'",
    "password={{ db_password }}",
    "apiKey: {{ .Values.apiKey }}",
    "export HF_TOKEN=\"{{ hf_token }}\"",
    "python -m sglang.launch_server --model-path m --api-key {{ api_key }} --port 30000",
    'python -m sglang.launch_server --model-path m --api-key "{{ api_key }}" --port 30000',
    'curl -H "Authorization: Bearer {{ api_key }}" http://127.0.0.1:30000/v1/models',
    '  - {name: HF_TOKEN, value: "{{ hf_token }}"}',
    "token={{ t }},model=llama",
    "HF_TOKEN: ${{ secrets.HF_TOKEN }}",
])
def test_reference_kept(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("text, masked", [
    ("api_key: \"{{ api_key | default('sk-local') }}\"", f'api_key: "{MASK}"'),  # a literal inside
    ('token: "{{abc"', f'token: "{MASK}"'),  # no reference: braces typed in a value
    ("password={{x}}tail", f"password={MASK}"),
    ("hf_token: hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456", f"hf_token: {MASK}"),
])
def test_values_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_playbook_stream() -> None:
    playbook = ("vars:\n  hf_token: \"{{ hf_token }}\"\n  api_key: '{{ api_key }}'\nsteps:\n"
                "  - run: huggingface-cli login --token {{ hf_token }}\n") * 200
    stream = StreamRedactor()
    data = playbook.encode()
    out = b"".join(stream.feed(data[at:at + 2048]) for at in range(0, len(data), 2048)) + stream.close()
    assert out == data

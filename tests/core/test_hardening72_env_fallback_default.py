"""A literal a secret falls back on when its environment variable is unset is masked: Python's
`os.environ.get("X") or "sk-local"` and `os.getenv("X", "sk-local")`, JS `process.env.API_KEY ||
"dev"` / `?? "dev"`, Ruby `ENV["HF_TOKEN"] || "..."` / `ENV.fetch("API_KEY", "...")`, and
Laravel's `env('DB_PASSWORD', 'secret')`. The read is no secret and stays."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

DEFAULT = "local-Secr3t"


@pytest.mark.parametrize("template", [
    "api_key = os.environ.get('X') or '{d}'",
    "api_key = os.getenv('X') or '{d}'",
    "api_key = os.environ.get('OPENAI_BASE', '{d}')",
    "api_key = os.getenv('X', default='{d}')",
    "'password' => env('DB_PASSWORD', '{d}'),",
    "const apiKey = process.env.API_KEY || '{d}';",
    'const apiKey = process.env.API_KEY ?? "{d}";',
    'token = ENV["HF_TOKEN"] || "{d}"',
    'api_key = ENV.fetch("API_KEY", "{d}")',
])
def test_fallback_default_masked(template: str) -> None:
    text = template.format(d=DEFAULT)
    assert redact_text(text) == template.format(d=MASK)
    (start, end), = secret_spans(text)
    assert text[start:end].strip("'\"") == DEFAULT


@pytest.mark.parametrize("text", [
    "api_key = os.environ.get('X') or ''",
    "api_key = os.environ.get('X') or None",
    "token = os.environ['HF_TOKEN']",
    "api_key = os.environ.get('X'); mode = a or 'fast'",
    "max_tokens = os.environ.get('X') or '512'",
    "hf_token=os.environ.get('HF_TOKEN'), revision='main'",
    "model = os.environ.get('MODEL') or 'meta-llama/Llama-3.1-8B'",
])
def test_no_default_secret_stays(text: str) -> None:
    assert redact_text(text) == text

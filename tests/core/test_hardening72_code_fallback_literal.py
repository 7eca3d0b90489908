"""A secret's literal fallback after a value of code (`api_key = args.key or "sk-local"`, `...
else "hf_..."`, JS `?? "dev-key"`, `kwargs.pop("api_key", "...")`) is masked, as the literal
alone (`api_key = "sk-local"`) is: the read before it kept it in clear."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

SECRET = "local-Secr3t"


@pytest.mark.parametrize("template", [
    "api_key = args.key or '{s}'",
    'api_key = args.api_key or "{s}"',
    'token = cfg.token if cfg.token else "{s}"',
    'const apiKey = opts.apiKey ?? "{s}";',
    'const apiKey = opts.apiKey || "{s}";',
    'api_key = get_key("x") or "{s}"',
    'api_key = args.api_key or os.environ.get("OPENAI_API_KEY") or "{s}"',
    'client = OpenAI(api_key=args.key or "{s}", base_url="http://127.0.0.1:8000/v1")',
    'api_key = kwargs.pop("api_key", "{s}")',
])
def test_literal_fallback_masked(template: str) -> None:
    text = template.format(s=SECRET)
    assert redact_text(text) == template.format(s=MASK)
    at = text.index(SECRET)
    assert (at - 1, at + len(SECRET) + 1) in secret_spans(text)


@pytest.mark.parametrize("text", [
    'token = args.token or input("Token: ")',
    'token = args.token or ""',
    'export HF_TOKEN=$(cat ~/.hf) || echo "no token"',
    'max_tokens = args.max_tokens or "512"',
    'if token == "x" or y: print("a")',
])
def test_no_literal_fallback_stays(text: str) -> None:
    assert redact_text(text) == text


def test_fallbacks_on_several_lines_masked_each() -> None:
    # the pattern runs on the lines that hold an operator before a quote, each at its own place
    text = ("import os\n# a key or two\napi_key = args.key or 'k1-Secr3t'\nprint('ok')\n"
            "token = cfg.token if cfg.token else \"k2-Secr3t\"\nx = a or b")
    assert redact_text(text) == text.replace("k1-Secr3t", MASK).replace("k2-Secr3t", MASK)

"""A token in the Python an agent writes to load a gated model: `token=False` / `use_auth_token=True`
(whether a token was passed at all: the question of a 401 postmortem) and `token=os.environ["HF_TOKEN"]`
(read from the environment, as `$HF_TOKEN` in a shell) are no secrets; masked, the first read as a
token typed in and the second was cut in half (`token=***REDACTED***"HF_TOKEN"])`). The default typed
into `os.getenv("HF_TOKEN", "...")` is one, and was kept."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, redact_value, secret_spans


@pytest.mark.parametrize("text", [
    "model = AutoModelForCausalLM.from_pretrained(path, use_auth_token=True)",
    "snapshot_download(repo_id, token=False)",
    "hf_token: null",
    '{"hf_token": null, "api_key": null}',
    "HF_TOKEN: false",
    "python train.py --use_auth_token True --model_name_or_path m",
    'model = AutoModel.from_pretrained(path, token=os.environ["HF_TOKEN"])',
    "tok = AutoTokenizer.from_pretrained(path, token=os.environ['HF_TOKEN'])",
    'client = OpenAI(api_key=os.environ.get("VLLM_API_KEY"), base_url=url)',
    'login(token=os.getenv("HF_TOKEN"))',
    "api_key = environ['OPENAI_API_KEY']",
])
def test_no_secret_in_code_stays_readable(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("text, masked", [
    ('x = os.getenv("HF_TOKEN", "hf-local-sekrit")', f'x = os.getenv("HF_TOKEN", "{MASK}")'),
    ("key = os.environ.get('OPENAI_API_KEY', 'sekrit-123')", f"key = os.environ.get('OPENAI_API_KEY', '{MASK}')"),
    ('login(token=os.environ.get("HF_TOKEN", "sekrit"))', f'login(token=os.environ.get("HF_TOKEN", "{MASK}"))'),
    ('pw = cfg.get("db_password", "hunter2")', f'pw = cfg.get("db_password", "{MASK}")'),
    # strings and anything else typed in are masked as before
    ('from_pretrained(path, token="None")', f'from_pretrained(path, token="{MASK}")'),
    ("from_pretrained(path, token=Nonesuch)", f"from_pretrained(path, token={MASK})"),
    ("HF_TOKEN=True1x python x.py", f"HF_TOKEN={MASK} python x.py"),
    ("--api-key Truely", f"--api-key {MASK}"),
    ("token=osenviron", f"token={MASK}"),
])
def test_secrets_in_code_are_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_argv_flag_values() -> None:
    assert redact_value(["train.py", "--use_auth_token", "True", "--hub_token", "null"]) == \
        ["train.py", "--use_auth_token", "True", "--hub_token", "null"]
    assert redact_value(["train.py", "--hub_token", "Truely", "--api-key", "null1"]) == \
        ["train.py", "--hub_token", MASK, "--api-key", MASK]

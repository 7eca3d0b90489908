"""`wandb.login(key="...")`, the Python call a notebook or a training script makes (wandb's own
quickstart: `wandb.login(key=...)`), kept the W&B API key in clear in the run's output and the
transcript's postmortem: `key` is no secret's name to the NAME=value pattern, and the `wandb login
KEY` pattern reads the command line only. Now the literal is masked; a key read from elsewhere
(`key=os.environ["WANDB_API_KEY"]`, `key=args.wandb_key`) holds none and stays."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

_KEY = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize("text, masked", [
    (f'wandb.login(key="{_KEY}")', f'wandb.login(key="{MASK}")'),
    (f"wandb.login(key='{_KEY}', relogin=True)", f"wandb.login(key='{MASK}', relogin=True)"),
    (f'wandb.login(anonymous="never", host="https://api.wandb.ai", key="local-{_KEY}")',
     f'wandb.login(anonymous="never", host="https://api.wandb.ai", key="{MASK}")'),
    (f'wandb.login(relogin=bool(1), key = "{_KEY}")', f'wandb.login(relogin=bool(1), key = "{MASK}")'),
    (f'python -c \'import wandb; wandb.login(key="{_KEY}"); wandb.init(project="eagle3")\'',
     f'python -c \'import wandb; wandb.login(key="{MASK}"); wandb.init(project="eagle3")\''),
])
def test_the_literal_key_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    'wandb.login(key=os.environ["WANDB_API_KEY"])',
    "wandb.login(key=args.wandb_key)",
    'wandb.login(key="$WANDB_API_KEY")',
    "wandb.login()",
    'wandb.login(relogin=True); d = {"key": "value"}',
    'wandb.login(); sorted(rows, key="name")',
])
def test_no_literal_key_nothing_masked(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []

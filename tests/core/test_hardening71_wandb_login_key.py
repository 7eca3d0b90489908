"""`wandb login KEY` with the key of a W&B server of one's own (`local-` + 40 characters), a key
longer than 40, or after `--host URL` was kept in clear: the pattern took 40 hex digits right after
`login` and its bare flags only. wandb checks a key as: an optional prefix up to the last "-", then
40 or more letters, digits or underscores (wandb/sdk/lib/auth/validation.py, check_api_key), and
`wandb login` takes `--host URL` (wandb/cli/cli.py, login)."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

_HEX = "0123456789abcdef0123456789abcdef01234567"
_LONG = "Xy9_" * 15  # 60 word characters


@pytest.mark.parametrize("text, masked", [
    (f"wandb login local-{_HEX}", f"wandb login local-{MASK}"),
    (f"wandb login --relogin local-{_HEX} && python train.py", f"wandb login --relogin local-{MASK} && python train.py"),
    (f"wandb login --host https://wandb.corp.example {_HEX}", f"wandb login --host https://wandb.corp.example {MASK}"),
    (f"wandb login --host=http://10.0.0.5:8080 --relogin {_HEX}", f"wandb login --host=http://10.0.0.5:8080 --relogin {MASK}"),
    (f"wandb login {_LONG}", f"wandb login {MASK}"),
    (f"wandb login {_HEX}", f"wandb login {MASK}"),
])
def test_the_key_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "wandb login",
    "wandb login --relogin",
    "wandb login --host https://wandb.corp.example",
    "wandb login $WANDB_API_KEY",
    "run wandb login first, then retry the training job",
    f"wandb login --host https://{_HEX}.example",
])
def test_no_key_nothing_masked(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []

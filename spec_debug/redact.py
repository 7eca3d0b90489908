"""Redact secrets before anything reaches run.json or a report.

Engineers paste launch commands with `--api-key`, environments with `HF_TOKEN=...`, and the
odd private key; incident reports get pasted into channels. Redaction is on by default.
"""

from __future__ import annotations

import re
from typing import Any

MASK = "***REDACTED***"

_PATTERNS: list[tuple[re.Pattern[str], str]] = [
    # PEM private keys (whole block).
    (re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S), f"-----BEGIN PRIVATE KEY----- {MASK} -----END PRIVATE KEY-----"),
    # NAME=value for secret-looking names (HF_TOKEN=..., OPENAI_API_KEY=..., password=...). The name
    # must END in the secret word: num_draft_tokens=4 or max_tokens: 512 are not secrets.
    (re.compile(r"(?i)\b([A-Z0-9_]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_KEY|APIKEY|ACCESS_KEY))\b(\s*[=:]\s*)(?!\d{1,11}\b)(\"[^\"]*\"|'[^']*'|[^\s\"',;]+)"), rf"\1\2{MASK}"),
    # --api-key VALUE, --token=VALUE, --password VALUE, --hf-token VALUE.
    (re.compile(r"(?i)(--(?:[a-z0-9-]*-)?(?:api-key|token|password|secret)(?:[= ]+))(\"[^\"]*\"|'[^']*'|\S+)"), rf"\1{MASK}"),
    # Authorization headers.
    (re.compile(r"(?i)(authorization:\s*(?:bearer|basic|token)\s+)\S+"), rf"\1{MASK}"),
    # Well-known token shapes anywhere in text.
    (re.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), MASK),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{20,}\b"), MASK),
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"), MASK),
    (re.compile(r"\bAKIA[0-9A-Z]{16}\b"), MASK),
]

_SECRET_KEY_NAME = re.compile(r"(?i)(^|[_-])(token|secret|password|passwd|api_?key|access_?key|private_?key)$")


def redact_text(text: str) -> str:
    if not text:
        return text
    for pattern, replacement in _PATTERNS:
        text = pattern.sub(replacement, text)
    return text


def redact_value(value: Any, key: str | None = None) -> Any:
    """Redact strings inside any JSON-like value; values under secret-looking keys entirely."""
    if key is not None and _SECRET_KEY_NAME.search(key) and isinstance(value, str) and value != "":
        return MASK
    if isinstance(value, str):
        return redact_text(value)
    if isinstance(value, list):
        return [redact_value(v) for v in value]
    if isinstance(value, dict):
        return {k: redact_value(v, k if isinstance(k, str) else None) for k, v in value.items()}
    return value

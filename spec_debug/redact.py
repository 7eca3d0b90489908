"""Redact secrets before anything reaches run.json or a report.

Engineers paste launch commands with `--api-key`, environments with `HF_TOKEN=...`, and the
odd private key; incident reports get pasted into channels. Redaction is on by default.
"""

from __future__ import annotations

import re
from typing import Any, Callable

MASK = "***REDACTED***"

_PATTERNS: list[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]]] = [
    # PEM private keys (whole block).
    (re.compile(r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(-----END [A-Z0-9 ]*PRIVATE KEY-----|\Z)", re.S), f"-----BEGIN PRIVATE KEY----- {MASK} -----END PRIVATE KEY-----"),
    # NAME=value for secret-looking names (HF_TOKEN=..., OPENAI_API_KEY=..., password=...). The name
    # must END in the secret word: num_draft_tokens=4 or max_tokens: 512 are not secrets.
    # Also a JSON key ("hf_token": "...") and an HTTP header spelt with hyphens (x-api-key: ...,
    # GitLab's PRIVATE-TOKEN: ...).
    (re.compile(r"(?i)\b([A-Z0-9_-]*(?:TOKEN|SECRET|PASSWORD|PASSWD|API[_-]KEY|APIKEY|ACCESS[_-]KEY))\b([\"']?\s*[=:]\s*)(?!\d{1,11}\b)(\"[^\"]*\"|'[^']*'|[^\s\"',;]+)"), lambda m: m[1] + m[2] + _masked(m[3])),
    # The password in a URL's userinfo: HTTPS_PROXY=http://user:pass@proxy:3128,
    # postgresql://admin:pass@db/x, git clone https://oauth2:TOKEN@gitlab.example/x (RFC 3986 3.2.1).
    (re.compile(r"(?i)\b([a-z][a-z0-9+.-]*://[^\s:/@'\"]*:)([^\s/@'\"]+)(@)"), rf"\1{MASK}\3"),
    # sshpass -p PASSWORD ssh host (the password is on the command line by design).
    (re.compile(r"\b(sshpass\s+-p\s*)(\"[^\"]*\"|'[^']*'|\S+)"), rf"\1{MASK}"),
    # wandb login <40-hex API key>.
    (re.compile(r"\b(wandb\s+login\s+(?:--?\S+\s+)*)([0-9a-f]{40})\b"), rf"\1{MASK}"),
    # --api-key VALUE, --token=VALUE, --password VALUE, --hf-token VALUE.
    (re.compile(r"(?i)(--(?:[a-z0-9-]*-)?(?:api-key|token|password|secret)(?:[= ]+))(\"[^\"]*\"|'[^']*'|\S+)"), rf"\1{MASK}"),
    # Authorization headers.
    (re.compile(r"(?i)(authorization:\s*(?:bearer|basic|token)\s+)\S+"), rf"\1{MASK}"),
    # Well-known token shapes anywhere in text.
    (re.compile(r"\bhf_[A-Za-z0-9]{20,}\b"), MASK),
    (re.compile(r"\bsk-[A-Za-z0-9_-]{20,}\b"), MASK),
    # GitHub classic and fine-grained tokens (github.blog 2021-04-05 "Behind GitHub's new
    # authentication token formats"; fine-grained PATs start github_pat_), GitLab PATs (glpat-),
    # Slack tokens (xoxb-, xoxp-, ...), AWS access key ids (AKIA long-term, ASIA temporary),
    # Google API keys (AIza). Prefixes as listed in gitleaks/gitleaks config/gitleaks.toml.
    (re.compile(r"\bgh[pousr]_[A-Za-z0-9]{20,}\b"), MASK),
    (re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}\b"), MASK),
    (re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}"), MASK),
    (re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}"), MASK),
    (re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), MASK),
    (re.compile(r"\bAIza[0-9A-Za-z_-]{35}\b"), MASK),
]

def _masked(value: str) -> str:
    """MASK, inside the value's own quotes (a redacted JSON or YAML line stays parseable)."""
    return value[0] + MASK + value[0] if value[:1] in ("'", '"') and len(value) > 1 else MASK


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

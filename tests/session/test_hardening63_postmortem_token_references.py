"""postmortem: a token passed by reference (`HF_TOKEN=$HF_TOKEN`, `$(cat FILE)`, `Bearer $VLLM_API_KEY`)
is shown as it was typed; a token typed literally is still masked.

The on-call engineer's agent could not download the gated draft on gpu01: it ran the check with
`HF_TOKEN=$HF_TOKEN` (empty in its shell), then `export HF_TOKEN=$(cat ~/.cache/huggingface/token)`
(no such variable in the remote shell either), then logged in with the token typed out. The
postmortem is about the reference that held nothing, yet it read `HF_TOKEN=***REDACTED***` for
the first and `HF_TOKEN=***REDACTED*** ~/.cache/huggingface/token)` for the second (the mask
ended at the first space, leaving half a command). Distill already kept these as references
(test_hardening8_postmortem.py::test_a_secret_passed_by_reference_stays_a_reference); the
postmortem masked them with spec_debug/redact.py's NAME=value, --flag and Authorization rules,
which took any word after the `=` for the secret.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from markupsafe import escape

from spec_debug.redact import redact_text
from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123"
BY_ENV = "HF_TOKEN=$HF_TOKEN huggingface-cli whoami"
BY_FILE = "export HF_TOKEN=$(cat ~/.cache/huggingface/token) && huggingface-cli whoami"
BEARER = 'curl -s -H "Authorization: Bearer $VLLM_API_KEY" http://localhost:8000/v1/models'


def _session(tmp_path: Path) -> Path:
    m = _Writer("5e5e0000-0000-4000-8000-000000006302", None, datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc))
    m.prompt("The draft download from the Hub fails on gpu01; check the token first.")
    unset = "Not logged in"
    m.bash(f"ssh gpu01 '{BY_ENV}'", unset, exit_code=1)
    m.bash("ssh gpu01 'ls -la ~/.cache/huggingface'", "token")
    m.bash(f"ssh gpu01 '{BY_FILE}'", unset, exit_code=1)
    m.bash(f"ssh gpu01 '{BEARER}'", '{"error": "Unauthorized"}')
    m.bash(f"ssh gpu01 'huggingface-cli login --token {TOKEN} && huggingface-cli whoami'", "Login successful\nalice")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return path


def test_the_postmortem_shows_a_token_passed_by_reference_as_typed(tmp_path):
    analysis = analyze_path(_session(tmp_path))
    md = render_postmortem(analysis, "md")
    html = render_postmortem(analysis, "html")
    for typed in (BY_ENV, BY_FILE, BEARER):
        assert typed in md, typed
    assert "huggingface/token)" not in md.replace(BY_FILE, ""), md
    for typed in (BY_ENV, BY_FILE, BEARER):  # HTML escapes its quotes and &s
        assert str(escape(typed)) in html, typed
    # the token typed out is still masked, in both
    assert TOKEN not in md and TOKEN not in html
    assert "huggingface-cli login --token \\*\\*\\*REDACTED\\*\\*\\*" in md, md


def test_what_is_still_a_secret():
    """Only what the shell fills in is a reference: a `$` word in single quotes is literal, a
    lower-case `$ecret` names no environment variable, and a `$6$...` crypt hash is a value."""
    assert redact_text("HF_TOKEN='$HF_TOKEN' x") == "HF_TOKEN='***REDACTED***' x"
    assert redact_text("password=$ecret1 x") == "password=***REDACTED*** x"
    assert redact_text("password: $6$rounds=5000$abc") == "password: ***REDACTED***"
    assert redact_text("vllm serve m --api-key $(cat /run/secrets/key)") == \
        "vllm serve m --api-key $(cat /run/secrets/key)"
    assert redact_text('HF_TOKEN="${HF_TOKEN}" x') == 'HF_TOKEN="${HF_TOKEN}" x'
    assert redact_text("--hf-token `cat ~/.hf`") == "--hf-token `cat ~/.hf`"

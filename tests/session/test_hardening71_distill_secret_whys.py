"""A distilled step's why names the var a secret the agent quoted became, as its title does.

A Claude Code session whose agent wrote "I will check the Hub login with the token hf_... the
user gave" before `ssh root@gpu01 'HF_TOKEN=hf_... huggingface-cli whoami'` was distilled to
`run: HF_TOKEN={{ hf_token }} huggingface-cli whoami`, titled `HF_TOKEN=<hf_token> ...`, but its
why quoted the reasoning masked: "with the token ***REDACTED*** the user gave". The why now says
`<hf_token>`; a secret the playbook asks for as no var stays masked."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.redact import MASK
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook, dump_playbook
from tests.session.incident_story import _Writer

TOKEN = "hf_Zq9xK2mP7vL4Wd3nT8rQ1yHsKp4vB7nM"
OTHER = "hf_Lm3nB8vC2xZ9qW4eR7tY1uI6oP5aS0dF"
FAILED = ("ssh root@gpu01 'curl -sf http://localhost:30000/health'",
          "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused", 7)


def _whys(tmp_path, said: str) -> tuple[dict[str, str], str]:
    """The whys of the playbook of a session whose agent said ``said`` before its Hub login."""
    m = _Writer("9a1b0000-0000-4000-8000-00000000d071", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on gpu01 cannot download its draft.")
    m.bash(FAILED[0], FAILED[1], exit_code=FAILED[2])
    m.bash(f"ssh root@gpu01 'HF_TOKEN={TOKEN} huggingface-cli whoami'", "Invalid user token.", exit_code=1, text=said)
    m.bash("ssh root@gpu01 nvidia-smi -L", "GPU 0: NVIDIA H200 (UUID: GPU-5d1c)")
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    return {s["run"]: s["why"] for s in doc["steps"]}, dump_playbook(doc)


def test_the_why_names_the_var_the_step_asks_for(tmp_path) -> None:
    whys, text = _whys(tmp_path, f"The server is down; I will check the Hub login with the token {TOKEN} the user gave.")
    assert whys["HF_TOKEN={{ hf_token }} huggingface-cli whoami"].startswith(
        "The server is down; I will check the Hub login with the token <hf_token> the user gave. ")
    assert TOKEN not in text and MASK not in text


def test_a_secret_no_var_holds_stays_masked(tmp_path) -> None:
    whys, text = _whys(tmp_path, f"I will check the Hub login; the old token was {OTHER}.")
    assert whys["HF_TOKEN={{ hf_token }} huggingface-cli whoami"].startswith(
        f"I will check the Hub login; the old token was {MASK}. ")
    assert OTHER not in text and TOKEN not in text

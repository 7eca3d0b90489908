"""distill: a session whose first prompt ended in a question mark ("…dies right after loading
the draft model, why?") got the description "…why?. Run against the host the session used":
the sentence distill adds after the prompt now follows a "?" or "!" with a space alone."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_hardening19"


def test_a_prompt_that_asks_is_followed_by_one_space():
    doc = distill_playbook(analyze_path(DATA / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl"))
    assert "why?. " not in doc["description"]
    assert doc["description"].endswith("dies right after loading the draft model, why? Run against the host the "
                                       "session used, e.g. --host gpu01:2222."), doc["description"]

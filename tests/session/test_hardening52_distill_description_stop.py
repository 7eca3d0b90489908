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


def test_a_prompt_that_ends_in_a_colon_gets_a_full_stop_instead(tmp_path):
    """"The server log on gpu01 shows this:" was followed by ". Run against …" (``log:. Run``)."""
    from datetime import datetime, timezone

    from tests.session.incident_story import _Writer

    m = _Writer("s", None, datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 accepts nothing on gpu01, the server log shows this:")
    m.bash("ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000'",
           "ConnectionRefusedError: [Errno 111] Connection refused", exit_code=1)
    m.bash("ssh gpu01 'grep -n layers_to_capture /opt/sglang/python/sglang/srt/models/llama.py'",
           "512:        self.model.layers_to_capture = [val + 1 for val in layer_ids]")
    path = tmp_path / "s.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    doc = distill_playbook(analyze_path(path))
    assert "shows this. Run against the host the session used, e.g. --host gpu01." in doc["description"], \
        doc["description"]

"""distill and the postmortem: a password in a JSON body inside double quotes is never written.

`curl -s -d "{\\"password\\": \\"...\\"}" http://localhost:30000/...` is how a JSON body is typed
inside a double-quoted shell word: its quotes are escaped. The NAME=value pattern of redact stopped
at the backslash after the key, so the distilled playbook's `run:` and title, and the postmortem
(Markdown and HTML), held the password in clear, where `-d '{"password": "..."}'` was masked.
"""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import yaml

from spec_debug.redact import redact_text
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.postmortem import render_postmortem
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
PASSWORD = "jsonPass123"
INFO = ('{"speculative_algorithm": "EAGLE3", "speculative_num_steps": 1, "speculative_eagle_topk": 1, '
        '"speculative_num_draft_tokens": 2}')
PROBE = ('ssh gpu01 \'curl -s -d "{\\"user\\": \\"ops\\", \\"password\\": \\"' + PASSWORD
         + '\\"}" http://localhost:30000/get_server_info\'')


def _analysis(tmp_path: Path):
    m = _Writer("8a1b0000-0000-4000-8000-0000000070c1", None, START)
    m.prompt("EAGLE-3 on gpu01 is slow: 41 tok/s against a 90 tok/s baseline. Please find out why.")
    m.say("Let me read the speculative settings the server runs with.")
    seq = m.bash(PROBE, INFO)[0]
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    return analyze_path(path), seq


def test_the_distilled_step_takes_the_password_as_a_var(tmp_path):
    """Named after the JSON key, as `password=...` names its var (was `secret`)."""
    a, seq = _analysis(tmp_path)
    doc = distill_playbook(a)
    [step] = [s for s in doc["steps"] if s.get("provenance", {}).get("seq") == seq]
    assert step["run"] == ('curl -s -d "{\\"user\\": \\"ops\\", \\"password\\": \\"{{ password }}\\"}" '
                           "http://localhost:30000/get_server_info")
    assert step["requires"] == ["password"] and doc["vars"]["password"] == ""
    assert PASSWORD not in yaml.safe_dump(doc)


def test_the_postmortem_masks_it(tmp_path):
    a, _ = _analysis(tmp_path)
    for fmt in ("md", "html"):
        assert PASSWORD not in render_postmortem(a, fmt)
    assert redact_text(PROBE) == PROBE.replace(PASSWORD, "***REDACTED***")


def test_an_escaped_api_key_among_other_keys_and_a_count_left_alone():
    typed = 'curl -d "{\\"user\\":\\"bob\\",\\"api_key\\":\\"k-5f4e3d2c1b\\",\\"max_tokens\\": 16}"'
    assert redact_text(typed) == 'curl -d "{\\"user\\":\\"bob\\",\\"api_key\\":\\"***REDACTED***\\",\\"max_tokens\\": 16}"'
    # a reference to the shell's variable is no secret typed in clear
    assert redact_text('curl -d "{\\"password\\": \\"$PW\\"}"') == 'curl -d "{\\"password\\": \\"$PW\\"}"'

"""A typo in a finding's title, shown to the on-call mid-incident.

`title: "Accept length {{ facts.accept_lenght }} is low on {{ hots }}"` validated ("ok"), and
the run's finding, the line pasted into the incident channel, read "Accept length {{
facts.accept_lenght }} is low on {{ hots }} [template error: ... facts.accept_lenght is not set
...]". Validation checked only the syntax of finding texts; the names are known at load time
too: vars and the template built-ins, and a fact spelt like one a step captures."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = """\
name: accept
vars:
  min_accept_len: "2.0"
steps:
  - id: accept
    run: 'echo "accept len: 1.21"'
    capture:
      - regex: 'accept len: (?P<accept_len>[0-9.]+)'
        type: float
    expect:
      - that: facts.accept_len >= min_accept_len | float
        finding:
          code: SD502
          title: "{title}"
          evidence: ["{evidence}"]
"""


@pytest.mark.parametrize("title, evidence, said, hint", [
    ("Accept length {{ facts.accept_len }} is low on {{ hots }}", "accept_len={{ facts.accept_len }}",
     "undefined variable 'hots' in the title of the finding of step 'accept'", "did you mean 'host'?"),
    ("Accept length {{ facts.accept_lenght }} is low on {{ host }}", "accept_len={{ facts.accept_len }}",
     "step 'accept' reads facts.accept_lenght in the title of the finding, but no step captures 'accept_lenght'",
     "did you mean facts.accept_len? ('accept' captures it)"),
    ("Accept length {{ facts.accept_len }} is low", "wanted {{ min_accept_lenn }}",
     "undefined variable 'min_accept_lenn' in the evidence of the finding of step 'accept'", "did you mean 'min_accept_len'?"),
])
def test_a_typo_in_a_finding_text_is_refused_at_load(title, evidence, said, hint):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(PLAYBOOK.format(title=title, evidence=evidence), "accept.yaml")
    assert said in caught.value.message and caught.value.hint == hint, (caught.value.message, caught.value.hint)


def test_the_corrected_finding_reads_well_in_the_run(tmp_path):
    text = PLAYBOOK.format(title="Accept length {{ facts.accept_len }} is low on {{ host }}",
                           evidence="wanted {{ min_accept_len }}, got {{ stdout | trim }}")
    (tmp_path / "accept.yaml").write_text(text)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "accept.yaml", "--host", "local", "--out", "runs"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "SD502 Accept length 1.21 is low on local" in proc.stderr
    assert "template error" not in proc.stderr

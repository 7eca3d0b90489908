"""--junit: a finding's message and text quote what the step printed (a title or evidence rendered
from a captured fact). The test case's system-out showed the output as the terminal did, but the
failure kept its colour codes as "\\u001b[31m" litter, a raw bidi override (which reorders the
text in a CI page) and C0 controls as "\\u0001". They are now shown as system-out shows them.
Through the real CLI, a real local step; parsed with xml.etree."""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ET

# printf: an RLO (\342\200\256), a red colour code (\033[31m) and a U+0001 (\001).
PLAYBOOK = r'''name: junit_screened
steps:
  - id: cap
    run: "printf 'name: \\342\\200\\256txt.hsab \\033[31mred\\033[0m\\001\\n'"
    capture:
      - regex: 'name: (?P<nm>.*)'
    expect:
      - exit_code: 1
        finding:
          code: SD901
          severity: error
          title: "Model {{ facts.nm }} failed"
          remediation: "Remove {{ facts.nm }}"
          evidence:
            - "saw {{ facts.nm }}"
'''


def test_failure_message_and_text_are_shown_as_the_terminal_showed_them(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", "p.yaml", "--host", "local", "--junit", "j.xml"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 1, proc.stderr
    (failure,) = ET.parse(tmp_path / "j.xml").getroot().iter("failure")
    assert failure.get("message") == "SD901 Model <U+202E>txt.hsab red\u2401 failed"
    assert failure.text.startswith("saw <U+202E>txt.hsab red\u2401\n")
    assert failure.text.endswith("fix: Remove <U+202E>txt.hsab red\u2401")

"""A finding's title, remediation or evidence reading `steps.ID.facts.NAME` that step ID never
sets is refused by validate, as in run:, when: and that: (hardening65).

Before, `title: "Decode at {{ steps.bench.facts.sped }} tok/s"` validated ok; when the check
failed mid-incident the finding the on-call read was the raw template with
"[template error: step 'check', finding SD901: undefined variable: 'dict object' has no
attribute 'sped']" after it. Now `playbooks validate` (and `run`, before any host) says
where it is written and the name meant; a fact the step sets still renders.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: speed
steps:
  - id: bench
    run: echo 'speed=42 tok/s'
    capture: [{{regex: 'speed=(?P<speed>\\d+)', type: int}}]
  - id: check
    run: echo checked
    expect:
      - that: steps.bench.facts.speed > 100
        finding:
          code: SD901
          severity: warning
          title: "{title}"
          evidence:
            - "{evidence}"
"""


def _write(tmp_path: Path, title: str, evidence: str = "measured on {{ host }}") -> Path:
    playbook = tmp_path / "speed.yaml"
    playbook.write_text(PLAYBOOK.format(title=title, evidence=evidence), encoding="utf-8")
    return playbook


@pytest.mark.parametrize(("title", "evidence", "where", "message", "hint"), [
    ("Decode at {{ steps.bench.facts.sped }} tok/s", "measured on {{ host }}", "13:18 (at steps[1].expect[0].finding.title)",
     "the title of the finding of step 'check' reads steps.bench.facts.sped, but step 'bench' never sets 'sped'",
     "did you mean steps.bench.facts.speed?"),
    ("Decode too slow", "latency {{ steps.bench.facts.latency_ms }} ms",
     "15:15 (at steps[1].expect[0].finding.evidence[0])",
     "the evidence of the finding of step 'check' reads steps.bench.facts.latency_ms, but step 'bench' never sets "
     "'latency_ms'", "step 'bench' sets speed"),
])
def test_a_finding_text_reading_a_fact_the_step_never_sets_is_refused(
        tmp_path: Path, title: str, evidence: str, where: str, message: str, hint: str) -> None:
    playbook = _write(tmp_path, title, evidence)
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    assert validated.stderr.splitlines()[:2] == [f"error: {playbook}:{where.split(' ')[0]}: {message} {where.split(' ', 1)[1]}",
                                                 f"  hint: {hint}"]
    ran = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert ran.code == 2 and not (tmp_path / "runs").exists()  # refused before any host


def test_a_fact_the_step_sets_still_renders_in_the_finding(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "Decode at {{ steps.bench.facts.speed }} tok/s on {{ host }}")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr  # a warning
    (finding,) = json.loads(result.stdout)["findings"]
    assert (finding["code"], finding["title"]) == ("SD901", "Decode at 42 tok/s on local")

"""JUnit XML (`run --junit`): a finding's failure text is bounded as the reports bound it, and a
finding without a fix says none.

A finding whose evidence or remediation quoted a captured fact (`evidence: ["{{ facts.line }}"]`
over a 100,000-character line) put all of it in the <failure> text, each time: one such finding
made a JUnit file of hundreds of KB, a fleet's of hundreds of MB, while report.md and report.html
cut the same evidence at 20,000 characters (report/terminal.py, clip_middle) and system-out at its
last 10,000. A playbook's own code with no `remediation:` ended its failure text with a bare
"fix: "."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.conftest import run_cli

PLAYBOOK = """name: longfact
steps:
  - id: blob
    run: python3 -c 'print("ab" * 50000)'
    capture:
      - regex: '(?P<line>[ab]+)'
    expect:
      - that: facts.line | length < 10
        finding:
          code: SD991
          title: the line is long
          evidence:
            - "{{ facts.line }}"
          remediation: "shorten {{ facts.line }}"
  - id: plain
    run: echo hello
    expect:
      - contains: goodbye
        finding:
          code: SD992
          title: no goodbye
"""


def _failures(tmp_path) -> dict[str, str]:
    playbook = tmp_path / "longfact.yaml"
    playbook.write_text(PLAYBOOK)
    junit = tmp_path / "junit.xml"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--junit", str(junit))
    assert junit.is_file(), result.stdout + result.stderr
    root = ET.parse(junit).getroot()
    return {case.get("name"): case.find("failure").text for case in root.iter("testcase") if case.find("failure") is not None}


def test_a_long_evidence_and_fix_are_cut_in_the_middle_as_the_report_cuts_them(tmp_path):
    text = _failures(tmp_path)["blob"]
    assert len(text) < 45000, len(text)
    assert text.startswith("abab") and "characters left out of this report; run.json holds them" in text, text[:200]
    fix = text[text.index("\nfix: shorten abab"):]
    assert "characters left out of this report" in fix and fix.rstrip().endswith("abab"), fix[-200:]


def test_a_finding_without_a_fix_has_no_fix_line(tmp_path):
    text = _failures(tmp_path)["plain"]
    assert "fix:" not in text, text
    assert "expected output contains 'goodbye'" in text, text


def test_a_finding_without_evidence_starts_with_its_fix():
    from spec_debug.record import Finding
    from spec_debug.report.junit import failure_text

    finding = Finding(code="SD991", severity="warning", title="t", remediation="restart the server")
    assert failure_text(finding) == "fix: restart the server"
    assert failure_text(finding.model_copy(update={"evidence": ["a", "b"]})) == "a\nb\n\nfix: restart the server"
    assert failure_text(finding.model_copy(update={"remediation": ""})) == ""

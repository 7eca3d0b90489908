"""A finding's fix that quotes a captured fact is cut in report.md and report.html, as its
evidence and its title already are.

`remediation: "shorten {{ facts.line }}"` over a 100,000-character line wrote one 100,008-character
"**Fix:**" line into report.md (and the same paragraph into report.html), while the evidence of the
same finding was cut at 20,000 characters and its title at 300 (runner/attempt.py TITLE_LIMIT)."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: longfix
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
          remediation: "shorten {{ facts.line }}"
"""


def test_a_fix_quoting_a_long_fact_is_cut_in_the_middle_in_both_reports(tmp_path):
    playbook = tmp_path / "longfix.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    assert len(record["findings"][0]["remediation"]) == len("shorten ") + 100000  # run.json keeps it whole
    run_dir = tmp_path / "runs" / record["run_id"]
    markdown = (run_dir / "report.md").read_text()
    fix = markdown[markdown.index("**Fix:** shorten abab"):]
    fix = fix[:fix.index("\n\n")]
    assert len(fix) < 5000 and "characters left out of this report; run.json holds them" in fix, fix[:300]
    assert fix.endswith("abab"), fix[-100:]
    html = (run_dir / "report.html").read_text()
    fix = html[html.index("<strong>Fix:</strong> shorten abab"):]
    fix = fix[:fix.index("</p>")]
    assert len(fix) < 5000 and "characters left out of this report; run.json holds them" in fix, fix[:300]

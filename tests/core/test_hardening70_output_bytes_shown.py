"""A byte of command output that is no UTF-8 (a Latin-1 file name, a log of a latin-1 tool)
was U+FFFD in run.json, the reports and the JUnit file, while docs/reports.md says such a byte
shows as `\\xe9`: an engineer could not tell which byte the host wrote, and a later step that
templated `{{ steps.show.stdout }}` sent U+FFFD back instead of the byte."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.conftest import only_run, run_cli

PLAYBOOK = r"""
name: latin
steps:
  - id: show
    run: printf 'caf\351 ok\n'; printf 'err \377\n' >&2
  - id: again
    run: printf '%s' "{{ steps.show.stdout }}" | od -An -b
"""


def test_undecodable_output_bytes_show_as_escapes(tmp_path):
    playbook = tmp_path / "latin.yaml"
    playbook.write_text(PLAYBOOK)
    junit = tmp_path / "junit.xml"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--junit", str(junit))
    assert result.code == 0, result.stderr
    run_dir, record = only_run(tmp_path / "runs")
    show, again = record["steps"]
    assert show["stdout"] == "caf\\xe9 ok\n"
    assert show["stderr"] == "err \\xff\n"
    # the later step got the byte itself back (octal 351), not U+FFFD's three bytes (357 277 275)
    assert again["stdout"].split() == ["143", "141", "146", "351", "040", "157", "153", "012"]
    markdown = (run_dir / "report.md").read_text(encoding="utf-8")
    assert "caf\\xe9 ok" in markdown and "err \\xff" in markdown and "\ufffd" not in markdown
    html = (run_dir / "report.html").read_text(encoding="utf-8")
    assert "caf\\xe9 ok" in html and "\ufffd" not in html
    [suite] = ET.parse(junit).getroot().findall("testsuite")
    case = suite.find("testcase[@name='show']")
    assert case.find("system-out").text == "caf\\xe9 ok\n"
    assert case.find("system-err").text == "err \\xff\n"

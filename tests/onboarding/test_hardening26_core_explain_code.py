"""`spec-debug explain CODE`: the code a report names gives its catalog entry.

A newcomer reads "SD101 Speculation capped..." in a report and types `spec-debug explain SD101`
(the command the README gives for walkthroughs). It was "no playbook file 'SD101' and no
shipped playbook by that name" with the list of playbooks, the entry never named. Now it is the
entry `findings SD101` prints (Markdown, --json, -o FILE.html); a code the catalog lacks (SD901
is host_smoke's own) says where such a code is explained, and `run SD101` says what SD101 is.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.cli_extra import _finding_code, _finding_text
from spec_debug.diagnose.catalog import CATALOG
from spec_debug.playbook.loader import PlaybookError, find_playbook
from tests.conftest import run_cli


def test_every_catalog_code_as_pasted_is_taken_for_its_entry(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for code in CATALOG:
        for typed in (code, code.lower(), f"[{code}]", f"SD-{code[2:]}"):
            assert _finding_code(typed) == code, typed
        text = _finding_text(code, "md")
        assert text.startswith(f"## {code}: ") and json.loads(_finding_text(code, "json"))["code"] == code
        assert "<script" not in _finding_text(code, "html")
    for other in ("host_smoke", "SD901", "perf_regression.yaml"):
        assert _finding_code(other) is None
    (tmp_path / "SD101").write_text("name: p\nsteps:\n  - id: a\n    run: 'true'\n")
    assert _finding_code("SD101") is None  # a file of that name is still the playbook given


def test_explain_prints_the_entry_and_writes_it_as_a_page(tmp_path):
    shown = run_cli("explain", "sd101", cwd=tmp_path)
    assert shown.code == 0 and shown.stdout.startswith("## SD101: Speculation capped"), shown.stderr
    page = tmp_path / "sd101.html"
    written = run_cli("explain", "SD101", "-o", str(page), cwd=tmp_path)
    assert written.code == 0, written.stderr
    assert page.read_text().startswith("<!doctype html>") and "<title>SD101</title>" in page.read_text()


@pytest.mark.parametrize("name, says", [
    ("SD101", "SD101 is a finding code: `spec-debug findings SD101` explains it"),
    ("sd901", "SD901 is not in the finding catalog"),
])
def test_a_code_where_a_playbook_goes_says_what_it_is(tmp_path, monkeypatch, name, says):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PlaybookError) as raised:
        find_playbook(name)
    assert says in raised.value.hint, raised.value.hint

"""`spec-debug explain` works for every shipped playbook and is built from the playbook itself."""

from __future__ import annotations

import json

import pytest

from spec_debug.playbook.loader import load_playbook, shipped_playbook_names
from tests.conftest import run_cli


@pytest.mark.parametrize("name", shipped_playbook_names())
def test_explain_every_shipped_playbook(name):
    loaded = load_playbook(name)
    result = run_cli("explain", name)
    assert result.code == 0, result.stderr
    for step in loaded.playbook.steps:
        assert f"(`{step.id}`)" in result.stdout
        if step.why:
            assert step.why.strip().split("\n")[0] in result.stdout
    as_json = json.loads(run_cli("explain", name, "--format", "json").stdout)
    assert [s["id"] for s in as_json["steps"]] == [s.id for s in loaded.playbook.steps]
    html = run_cli("explain", name, "--format", "html").stdout
    assert html.startswith("<!DOCTYPE html>")


def test_explain_lists_codes_with_catalog_text(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nsteps:\n  - id: flags\n    why: Num steps decides the draft depth.\n    run: echo\n"
        "    expect:\n      - that: 'false'\n        finding:\n          code: SD101\n"
    )
    result = run_cli("explain", str(playbook))
    assert result.code == 0, result.stderr
    from spec_debug.diagnose.catalog import CATALOG

    assert "SD101" in result.stdout
    assert CATALOG["SD101"].title in result.stdout
    assert any(url in result.stdout for url in CATALOG["SD101"].sources)


def test_explain_html_lists_the_vars_like_the_markdown(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nvars:\n  model: /data/<llama>&co\n  token: ''\n  steps_n: 3\nsteps:\n"
        "  - id: a\n    run: echo {{ model }} {{ steps_n }}\n")
    from html.parser import HTMLParser

    class Cells(HTMLParser):
        def __init__(self):
            super().__init__()
            self.rows, self.heading, self.in_h2, self.in_table = [], [], False, False

        def handle_starttag(self, tag, attrs):
            if tag == "tr":
                self.rows.append([])
            self.in_h2 = tag == "h2"
            self.in_table = self.in_table or tag == "table"

        def handle_data(self, data):
            if self.in_h2:
                self.heading.append(data)
            elif self.in_table and self.rows and data.strip():
                self.rows[-1].append(data.strip())

        def handle_endtag(self, tag):
            self.in_h2 = False if tag == "h2" else self.in_h2
            self.in_table = False if tag == "table" else self.in_table

    html = run_cli("explain", str(playbook), "--format", "html").stdout
    parser = Cells()
    parser.feed(html)
    assert "Inputs (vars)" in parser.heading
    # token: no step requires it, so nothing is skipped for it (the table said so of every empty var)
    assert parser.rows == [["var", "default", "what it is"], ["model", "/data/<llama>&co"],
                           ["token", "(empty)"], ["steps_n", "3"]]
    assert "<llama>" not in html  # escaped, not a tag


def test_explain_and_findings_outputs_that_cannot_be_written_are_one_line(cli, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    for args in (("explain", "perf_regression", "-o", str(tmp_path)),
                 ("explain", "perf_regression", "-o", str(blocker / "x.md")),
                 ("findings", "--markdown", str(blocker / "f.md"))):
        result = cli(*args)
        assert result.code == 3 and result.stderr.startswith("error: cannot "), (args, result.stderr)
        assert "Traceback" not in result.stderr

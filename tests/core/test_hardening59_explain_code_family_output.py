"""`spec-debug explain SD1 -o codes.md` (or `--format html`): the start of several finding codes,
which `explain SD1` answers with the codes it starts (exit 0). Written to a file or as a page it
still took the old road: "error: SD1: no playbook file 'SD1' and no shipped playbook by that
name", exit 2, the codes only in the hint. Now the same answer is written there, in the format
asked. Through the real CLI."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("name", ["codes.md", "codes.html", "codes.json"])
def test_a_code_family_is_written_to_the_output_file(tmp_path, name):
    output = tmp_path / name
    result = run_cli("explain", "SD1", "-o", str(output))
    assert result.code == 0, result.stderr
    assert "no playbook file" not in result.stderr and f"wrote {output}" in result.stderr
    text = output.read_text(encoding="utf-8")
    if name.endswith(".json"):
        assert [entry["code"] for entry in json.loads(text)][:2] == ["SD101", "SD102"]
    else:
        assert "SD101" in text and "SD104" in text and "is the start of" in text
    if name.endswith(".html"):
        assert text.startswith("<!doctype html>")


def test_a_code_family_as_a_page_on_stdout(tmp_path):
    result = run_cli("explain", "SD1", "--format", "html")
    assert result.code == 0, result.stderr
    assert result.stdout.startswith("<!doctype html>") and "SD101" in result.stdout

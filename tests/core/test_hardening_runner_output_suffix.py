"""`-o incident.pdf` (or .docx) wrote Markdown text under a name no reader of that format opens,
and said "wrote incident.pdf": the format follows -o's suffix only for .html/.json, else md.
A document or image suffix is now refused with the .html name to use; --format md keeps the name."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.core.test_hardening_runner_report_template import run_dir  # noqa: F401 - the fixture: one small run


@pytest.mark.parametrize("name", ["incident.pdf", "incident.DOCX"])
def test_report_to_a_document_suffix_is_refused_with_the_html_name(tmp_path, run_dir, name):
    target = tmp_path / name
    result = run_cli("report", str(run_dir), "-o", str(target))
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert not target.exists()
    assert str(target.with_suffix(".html")) in result.stderr, result.stderr


def test_format_md_keeps_the_name_and_txt_is_markdown(tmp_path, run_dir):
    target = tmp_path / "incident.pdf"
    assert run_cli("report", str(run_dir), "-o", str(target), "--format", "md").code == 0
    assert target.read_text().startswith("# Incident report")
    text = tmp_path / "incident.txt"
    assert run_cli("report", str(run_dir), "-o", str(text)).code == 0
    assert text.read_text().startswith("# Incident report")

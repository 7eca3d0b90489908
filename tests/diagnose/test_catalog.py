"""The finding catalog is a documented contract: every code the issue names, with sources."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from spec_debug.diagnose.catalog import CATALOG, UnknownFindingCode, get_doc, make_finding, render_catalog_markdown
from spec_debug.diagnose.findings_cli import findings_command

ISSUE_CODES = (
    "SD101 SD102 SD103 SD104 SD201 SD202 SD203 SD204 SD301 SD302 SD303 "
    "SD401 SD402 SD403 SD501 SD502 SD503 SD601 SD701 SD702 SD703 SD704 SD705 SD706 SD707 SD708 SD709 SD710 SD711"
).split()
REPO = Path(__file__).resolve().parents[2]


RUNNER_CODES = "SD001 SD002 SD003 SD004 SD005".split()


def test_every_issue_code_is_documented_in_ruff_form():
    assert sorted(CATALOG) == sorted(ISSUE_CODES + RUNNER_CODES)
    for doc in CATALOG.values():
        assert doc.severity in ("info", "warning", "error")
        for part in (doc.title, doc.detects, doc.why, doc.fix, doc.example):
            assert len(part) > 10, (doc.code, part)
        # the runner's own codes describe the run, not a public failure mode: no sources
        if doc.code not in RUNNER_CODES:
            assert doc.sources and all(s.startswith("https://") for s in doc.sources), doc.code


def test_make_finding_uses_catalog_defaults_and_overrides():
    f = make_finding("sd202", host="gpu01", step="layers", evidence=["served [3,31,59]"], facts={"shift": 1})
    assert (f.code, f.severity, f.host, f.step) == ("SD202", "error", "gpu01", "layers")
    assert f.references == list(CATALOG["SD202"].sources)
    assert f.remediation == CATALOG["SD202"].fix
    g = make_finding("SD201", host=None, step=None, evidence=[], facts={}, severity="info", title="t", remediation="")
    assert (g.severity, g.title, g.remediation) == ("info", "t", "")


def test_unknown_code_is_a_usage_error_with_a_hint():
    with pytest.raises(UnknownFindingCode) as exc:
        get_doc("SD209")
    assert "SD201" in str(exc.value)


def test_docs_findings_md_is_generated_from_the_catalog():
    current = (REPO / "docs" / "findings.md").read_text()
    assert current == render_catalog_markdown(), (
        "docs/findings.md is stale: regenerate with "
        "python -c 'from spec_debug.diagnose.catalog import render_catalog_markdown as r; "
        "open(\"docs/findings.md\",\"w\").write(r())'"
    )


def _run(code, as_json):
    buf = io.StringIO()
    rc = findings_command(code, as_json, console=Console(file=buf, width=120))
    return rc, buf.getvalue()


def test_findings_command_lists_explains_and_emits_json():
    rc, text = _run(None, False)
    assert rc == 0 and all(c in text for c in ISSUE_CODES)
    rc, text = _run("SD101", False)
    assert rc == 0 and "How to fix" in text and "speculative-num-steps" in text
    rc, text = _run("SD301", True)
    assert rc == 0 and json.loads(text)["code"] == "SD301"
    rc, text = _run(None, True)
    assert [d["code"] for d in json.loads(text)] == RUNNER_CODES + ISSUE_CODES
    assert _run("SD999", False)[0] == 2

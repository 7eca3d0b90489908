"""`--json --format md` (explain, report, analyze): --json won silently, so a reader who asked
for Markdown got JSON (`-o notes.md` then held JSON). Two flags asking for different formats are
a usage error naming both; `--json --format json` and each flag alone work as before."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from spec_debug.cli_common import output_format
from spec_debug.errors import UsageError


def _explain(*flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "spec_debug", "explain", "host_smoke", *flags], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "COLUMNS": "200", "NO_COLOR": "1"})


def test_json_and_format_md_is_a_usage_error():
    proc = _explain("--json", "--format", "md")
    said = proc.stdout + proc.stderr
    assert proc.returncode == 2, said
    assert "error: --json and --format md ask for different formats" in said
    assert "Traceback" not in said and "{" not in proc.stdout


@pytest.mark.parametrize("fmt, as_json, output, expected", [
    (None, True, None, "json"), ("json", True, None, "json"), ("html", False, None, "html"),
    (None, False, None, "md"), (None, False, "x.html", "html"), (None, True, "x.json", "json"),
])
def test_one_flag_or_agreeing_flags_still_work(fmt, as_json, output, expected):
    from pathlib import Path
    assert output_format(fmt, as_json, None if output is None else Path(output)) == expected


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_output_format_refuses_disagreeing_flags(fmt):
    with pytest.raises(UsageError, match="ask for different formats"):
        output_format(fmt, True)


def test_an_unknown_format_is_still_named():
    with pytest.raises(UsageError, match="--format 'pdf': choose md, html, json"):
        output_format("pdf", True)

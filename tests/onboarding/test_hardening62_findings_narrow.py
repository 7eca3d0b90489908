"""`spec-debug findings` in a 60-column terminal cut SD702's title: "Draft max_position_emb…",
the config key the finding is about (rich's table cells default to overflow "ellipsis"). A word
wider than its cell now goes on at the start of the next line."""

from __future__ import annotations

import re

from spec_debug.diagnose.catalog import CATALOG
from tests.conftest import run_cli


def test_no_title_is_cut_in_a_narrow_terminal() -> None:
    result = run_cli("findings", env={"COLUMNS": "60"})
    assert result.code == 0
    assert "…" not in result.stdout
    rows = [line.split("│") for line in result.stdout.splitlines() if line.startswith("│")]
    titles, current = [], ""
    for row in rows:
        if row[1].strip():  # a new code
            titles.append(current)
            current = ""
        current += row[4]
    titles.append(current)
    joined = [re.sub(r"\s+", " ", t).strip() for t in titles[1:]]
    squeezed = [t.replace(" ", "") for t in joined]
    assert CATALOG["SD702"].title.replace(" ", "") in squeezed

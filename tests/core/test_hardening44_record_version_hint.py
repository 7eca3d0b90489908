"""A run.json whose schema_version is no whole number of 1 or more (`"1"` after a jq or YAML
round trip, 0, null) was refused with "unknown run record schema_version '1'" and nothing on
what to do; the line now has a hint with the fix."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import only_run, run_cli


@pytest.mark.parametrize(("version", "shown"), [("1", "'1'"), (0, "0"), (None, "None")])
def test_a_rewritten_schema_version_says_how_to_mend_it(tmp_path: Path, version: object, shown: str) -> None:
    assert run_cli("run", "host_smoke", "--host", "local", "--out", str(tmp_path)).code in (0, 1)
    run_dir, record = only_run(tmp_path)
    data = json.loads((run_dir / "run.json").read_text())
    data["schema_version"] = version
    (run_dir / "run.json").write_text(json.dumps(data))
    result = run_cli("report", str(run_dir))
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {run_dir / 'run.json'}: unknown run record schema_version {shown}",
        "  hint: spec-debug writes a whole number, 1 or more (this one writes 1): was run.json edited or "
        "rewritten by another tool? set \"schema_version\": 1 if the rest is this run's record",
    ]

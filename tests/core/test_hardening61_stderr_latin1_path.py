"""A path with a byte that is not UTF-8 (a Latin-1 `r\\xe9s/` folder; Python holds it as the
surrogate U+DCE9, PEP 383) was shown on stderr as `r\\udce9s` (stderr's backslashreplace),
while run.json and the reports show `r\\xe9s` (record.shown_surrogate). Errors, warnings and
the run's own lines now show it as the records do."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.conftest import run_cli


@pytest.fixture
def latin1_folder(tmp_path: Path) -> Path:
    folder = tmp_path / os.fsdecode(b"r\xe9s")
    try:
        folder.mkdir()
    except (OSError, UnicodeEncodeError):
        pytest.skip("this file system takes no non-UTF-8 name")
    return folder


def test_an_error_names_the_path_as_the_records_do(latin1_folder: Path) -> None:
    playbook = latin1_folder / "p.yaml"
    playbook.write_text("name: t\nsteps:\n  - id: a\n    run: echo hi\n    bogus: 1\n")
    for args in (("run", str(playbook), "--host", "local", "--out", str(latin1_folder / "runs")),
                 ("playbooks", "validate", str(playbook))):
        done = run_cli(*args, real_process=True)
        assert done.code != 0
        assert "r\\xe9s/p.yaml:5:5: unknown key 'bogus'" in done.stderr, done.stderr
        assert "\\udce9" not in done.stderr


def test_a_run_and_its_warning_name_the_folder_as_run_json_does(latin1_folder: Path) -> None:
    playbook = latin1_folder / "p.yaml"
    playbook.write_text("""\
name: t
steps:
  - id: a
    run: echo none here
    capture: [{regex: 'n=(?P<n>\\d+)'}]
    expect: [{that: "facts.n is not defined or facts.n > 1"}]
""")
    done = run_cli("run", str(playbook), "--host", "local", "--out", str(latin1_folder / "runs"), real_process=True)
    assert "\\udce9" not in done.stderr, done.stderr
    assert "warning: " in done.stderr and "r\\xe9s/p.yaml:6:" in done.stderr
    (record_path,) = (latin1_folder / "runs").glob("*/run.json")
    record = json.loads(record_path.read_text(encoding="utf-8"))
    assert record["playbook"]["path"].endswith("r\\xe9s/p.yaml")  # the form stderr now uses
    assert "report: " in done.stderr and "r\\xe9s/runs/" in done.stderr

"""README: "the start of a code (`explain SD1`) names the codes it starts". It did so only in the
hint of an error ("error: SD1: no playbook file 'SD1'...", exit 2), so a script or a newcomer
asking for the family got a failure. Now the family is the answer: on stdout, exit 0, as
Markdown (or the catalog entries with --json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

SD1_FAMILY = """\
SD1 is the start of 4 finding codes:

- SD101: Speculation capped at one drafted token per round
- SD102: Draft-token budget inconsistent with steps and topk
- SD103: Speculative algorithm does not match the draft checkpoint
- SD104: Draft and target dtypes differ and no --dtype is set

`spec-debug explain SD101` explains one, `spec-debug findings` lists them all
"""


def test_explain_of_a_code_prefix_lists_the_family_and_succeeds() -> None:
    result = run_cli("explain", "SD1")
    assert (result.code, result.stdout, result.stderr) == (0, SD1_FAMILY, "")


def test_with_json_the_family_is_its_catalog_entries() -> None:
    result = run_cli("explain", "sd 2", "--json")
    assert result.code == 0
    entries = json.loads(result.stdout)
    assert [e["code"] for e in entries] == ["SD201", "SD202", "SD203", "SD204"]
    assert entries[0] == json.loads(run_cli("findings", "SD201", "--json").stdout)


@pytest.mark.parametrize("typed", ["SD1010", "SD9"])
def test_what_starts_no_catalog_code_is_still_refused(typed: str) -> None:
    assert run_cli("explain", typed).code == 2


def test_a_playbook_file_of_that_name_is_still_the_playbook(tmp_path: Path) -> None:
    (tmp_path / "SD1").write_text("name: sd1\nsteps:\n  - id: one\n    run: echo hi\n", encoding="utf-8")
    result = run_cli("explain", "SD1", cwd=tmp_path)
    assert result.code == 0
    assert "SD101" not in result.stdout and "sd1" in result.stdout

"""A newcomer asking `explain` for its topics typed `spec-debug explain --list` ("error: no such
option: --list", exit 2) or `explain list` / `explain index` ("no playbook file 'list'" and the
list of playbooks, exit 2): only `explain concepts` (or topics, glossary) gave the index. They
now give it too; and the index, which named only the concepts, says by a command to copy what else
explain takes (a playbook, one of its steps, a finding code)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug import glossary
from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["--list", "list", "LIST", "index", "--index", "--topics"])
def test_asking_for_the_list_gives_the_index(tmp_path: Path, typed: str) -> None:
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert result.stdout == run_cli("explain", "concepts", cwd=tmp_path).stdout
    assert result.stdout.startswith("# Concepts `spec-debug explain` knows\n")


def test_the_index_as_json(tmp_path: Path) -> None:
    result = run_cli("explain", "--list", "--json", cwd=tmp_path)
    assert result.code == 0, result.stderr
    assert [c["name"] for c in json.loads(result.stdout)["concepts"]] == [c.name for c in glossary.CONCEPTS]


def test_the_index_names_the_other_kinds_of_topic(tmp_path: Path) -> None:
    last = run_cli("explain", "concepts", cwd=tmp_path).stdout.rstrip("\n").splitlines()[-1]
    assert last == ("Also: a shipped playbook (`spec-debug playbooks list` names them; `spec-debug explain perf_regression` "
                    "walks through one), one of its steps (`spec-debug explain hidden_layout`), a finding code "
                    "(`spec-debug explain SD101`; `spec-debug findings` lists them all).")
    # each command it names answers
    for command in (["playbooks", "list"], ["explain", "perf_regression"], ["explain", "hidden_layout"],
                    ["explain", "SD101"], ["findings"]):
        assert run_cli(*command, cwd=tmp_path).code == 0, command


def test_a_playbook_file_named_list_is_still_the_playbook(tmp_path: Path) -> None:
    (tmp_path / "list").write_text("name: list\nsteps:\n  - id: look\n    run: echo hi\n", encoding="utf-8")
    result = run_cli("explain", "list", cwd=tmp_path)
    assert result.code == 0 and result.stdout.startswith("# Walkthrough: `list`")

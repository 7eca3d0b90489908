"""`spec-debug explain help`, `explain gpu`, `explain SD8`: a word near no playbook, step, code
or concept got the loader's hint, "shipped playbooks: drafter_accuracy, ...", as `run` gets it.
explain takes four kinds of topic, and a newcomer told only of playbooks took the word for
something that had to be one. The hint now names each kind and the command that lists it;
`run` (which takes only playbooks) and a path that is not there keep the playbook list."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOKS = "drafter_accuracy, hidden_state_format, host_smoke, perf_regression"
KINDS = (f"  hint: explain takes a playbook (a file, or shipped: {PLAYBOOKS}), a step of one (`spec-debug "
         "explain perf_regression` names them), a finding code (`spec-debug findings` lists them) or a concept "
         "(`spec-debug explain concepts` lists them)")


@pytest.mark.parametrize("typed", ["help", "gpu", "SD8", "pe"])
def test_a_word_near_nothing_is_told_every_kind_of_topic(tmp_path, typed):
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {typed}: no playbook file {typed!r} and no shipped playbook by that name", KINDS]


def test_every_command_the_hint_names_answers(tmp_path):
    for command in (("explain", "perf_regression"), ("findings",), ("explain", "concepts")):
        assert run_cli(*command, cwd=tmp_path).code == 0, command


@pytest.mark.parametrize("typed", ["./mine.yaml", "incidents/mine.yml", "mine.yaml"])
def test_a_path_that_is_not_there_keeps_the_file_hint(tmp_path, typed):
    result = run_cli("explain", typed, cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == f"  hint: shipped playbooks: {PLAYBOOKS}"


def test_run_keeps_the_playbook_list(tmp_path):
    result = run_cli("run", "help", "--host", "local", cwd=tmp_path)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == f"  hint: shipped playbooks: {PLAYBOOKS}"


@pytest.mark.parametrize("typed, hint", [
    ("accept lenght", "  hint: the concept 'accept length'? `spec-debug explain 'accept length'`; shipped playbooks: "
                      + PLAYBOOKS),
    ("perf_regresion", "  hint: did you mean 'perf_regression'?"),
    ("SD2O1", "  hint: did you mean the finding code SD201? `spec-debug explain SD201` explains it"),
])
def test_a_word_near_something_still_gets_that(tmp_path, typed, hint):
    assert run_cli("explain", typed, cwd=tmp_path).stderr.splitlines()[-1] == hint

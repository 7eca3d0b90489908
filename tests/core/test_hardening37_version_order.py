"""An expression that orders a value against a version written as text.

`that: facts.v >= '0.4'` with a text capture compares character by character: '0.10.1' >=
'0.4' is False, so the newer release failed the check (a false SD001, "observed False") on
every host with nothing to say why. The playbook is refused at load time now, with the form
that compares the parts as numbers; that form runs and orders releases right.
"""

from __future__ import annotations

import pytest

from tests.conftest import only_run

STEP = """\
name: ver
steps:
  - id: s
    run: echo "vllm {version}"
    capture:
      - regex: 'vllm (?P<v>\\S+)'
        type: str
{captures}    expect:
      - that: "{that}"
"""


@pytest.mark.parametrize(("that", "word", "op"), [
    ("facts.v >= '0.4'", "0.4", ">="),
    ("facts.v < '0.10.2'", "0.10.2", "<"),
    ("'v0.5.0' > facts.v", "v0.5.0", ">"),
    ("facts.v is ge('0.4.1')", "0.4.1", ">="),
])
def test_ordering_against_a_quoted_version_is_refused(cli, write_playbook, tmp_path, that: str, word: str, op: str) -> None:
    playbook = write_playbook(STEP.format(version="0.10.1", captures="", that=that))
    done = cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert done.code == 2, done.stderr  # was 1: a false SD001 ("observed False")
    first = done.stderr.splitlines()[0]
    assert f"compares with the version '{word}' by {op}: texts are ordered character by character" in first
    assert "hint: capture the parts as numbers" in done.stderr and "type: int" in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "runs").exists()


def test_the_hinted_form_orders_releases_right(cli, write_playbook, tmp_path) -> None:
    playbook = write_playbook(STEP.format(version="0.10.1", that="(facts.major, facts.minor) >= (0, 4)", captures=(
        "      - regex: 'vllm (?P<major>\\d+)\\.(?P<minor>\\d+)'\n        type: int\n")))
    done = cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    _, record = only_run(tmp_path / "runs")
    assert record["steps"][0]["status"] == "passed", record["steps"][0]
    assert done.code == 0


@pytest.mark.parametrize("that", ["facts.v == '0.4'", "'0.4' in facts.v", "facts.v != '0.10.1'"])
def test_equality_and_substring_tests_with_a_version_still_load(cli, write_playbook, tmp_path, that: str) -> None:
    playbook = write_playbook(STEP.format(version="0.4", captures="", that=that))
    done = cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"))
    assert done.code in (0, 1), done.stderr

"""A capture's JSON path that this reader cannot follow is refused when the playbook loads.

The path's parts were picked out of its text and the rest skipped: `gpus[*].name` (JSONPath's
wildcard) read `gpus` then `name` of a list, `$..accept_len` (recursive descent) the top-level
key, `gpus[0` the key `0`. Each gave the fact None, or the capture's default, on every host,
and the checks on it were skipped. Now the playbook error names the line, the column and the
character where the path cannot be read; every path that was read right still is."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: paths
steps:
  - id: bench
    run: |
      echo '{{"gpus": [{{"name": "H200"}}], "a": {{"b.c": [7]}}, "accept_len": 3.1}}'
    capture:
      - json: {path}
        name: value
"""


@pytest.mark.parametrize("path, character", [("'gpus[*].name'", 5), ("'$..accept_len'", 3), ("'gpus..name'", 6),
                                             ("'gpus[0'", 5), ("'gpus[0]name'", 8), ("'accept_len.'", 11)])
def test_a_path_that_cannot_be_read_is_a_playbook_error_with_its_position(tmp_path, path, character):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK.format(path=path))
    for command in (["run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs")], ["playbooks", "validate", str(playbook)]):
        result = run_cli(*command)
        assert result.code == 2, (result.stdout, result.stderr)
        assert "Traceback" not in result.stderr
        assert f"{playbook}:7:15: json path {path} cannot be read at character {character}" in result.stderr, result.stderr
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("path, value", [("gpus[0].name", "H200"), ("$.gpus[-1].name", "H200"), (".accept_len", 3.1),
                                         ("""'a["b.c"][0]'""", 7), ("$", None)])
def test_a_path_that_can_be_read_still_is(tmp_path, path, value):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK.format(path=path))
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "passed", step["message"]
    if value is not None:
        assert step["facts"]["value"] == value
    else:
        assert step["facts"]["value"]["gpus"] == [{"name": "H200"}]

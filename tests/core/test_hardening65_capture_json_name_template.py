"""A capture's `json:` path and `name:` are used as written, like its regex and default.
`json: "weights.{{ layer }}"` validated ok and read a key named with the braces: the fact was
None on every host; `name: "{{ metric }}_p50"` set a fact named with the braces, which no
later `facts.ttft_p50` found. Both are now refused where they are written; the hint's way to
pick by a var (capture the whole value, index it where it is read) runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: weights
vars:
  layer: fc
steps:
  - id: shapes
    run: |
      echo '{{"weights": {{"fc": 4096, "lm_head": 32000}}}}'
    capture:
      - {capture}
  - id: show
    run: echo {use}
"""


def _write(tmp_path: Path, capture: str, use: str = "done") -> Path:
    path = tmp_path / "weights.yaml"
    path.write_text(PLAYBOOK.format(capture=capture, use=use), encoding="utf-8")
    return path


@pytest.mark.parametrize(("capture", "key", "where", "said"), [
    ('{json: "weights.{{ layer }}", name: width}', "json", "9:16", "it reads the path 'weights.{{ layer }}' itself"),
    ('{json: weights.fc, name: "{{ layer }}_width"}', "name", "9:34", "the fact is named '{{ layer }}_width' itself"),
])
def test_a_var_in_a_json_path_or_a_fact_name_is_refused(tmp_path: Path, capture: str, key: str, where: str, said: str) -> None:
    playbook = _write(tmp_path, capture)
    validated = run_cli("playbooks", "validate", str(playbook))
    assert validated.code == 2
    first = validated.stderr.splitlines()[0]
    assert first == (f"error: {playbook}:{where}: the {key}: of a capture in step 'shapes' is used as written, not a "
                     f"template: {said}, not the value of layer (at steps[0].capture[0].{key})"), first


def test_the_whole_value_indexed_by_the_var_where_it_is_read_works(tmp_path: Path) -> None:
    playbook = _write(tmp_path, "{json: weights, name: weights, type: json}", "{{ facts.weights[layer] }}")
    assert run_cli("playbooks", "validate", str(playbook)).code == 0
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][1]["stdout"] == "4096\n"

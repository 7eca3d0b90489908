"""A list or mapping var written into a `run:` command came out as Python's repr:
`--speculative-config '{{ spec }}'` gave vLLM `{'method': 'eagle3', 'enabled': True}`, which its
json.loads refuses, and `echo {{ layers }}` `['2', '16']`, while `--var` takes the same values
as JSON and `| tojson` writes JSON. Now a list or mapping is written as JSON (one shell word,
quoted as any value is), bare, in the author's '...' and in "..."; scalars as before."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import run_cli

PLAYBOOK = """name: list_vars
vars:
  layers: [2, 16, 29]
  names: [a b, "it's"]
  spec: {method: eagle3, num_speculative_tokens: 3, enabled: true, extra: null}
  flag: true
steps:
  - id: show
    run: |
      printf '<%s>\\n' {{ layers }} {{ names }}
      printf '<%s>\\n' '{{ spec }}' "{{ spec }}"
      python3 -c 'import json, sys; print(json.loads(sys.argv[1])["num_speculative_tokens"])' {{ spec }}
      printf '<%s>\\n' {{ flag }} {{ layers[1] }}
"""


def test_list_and_mapping_vars_are_json_in_a_command(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 0, result.stderr
    step = json.loads(result.stdout)["steps"][0]
    spec = '{"method": "eagle3", "num_speculative_tokens": 3, "enabled": true, "extra": null}'
    assert step["stdout"].splitlines() == [
        "<[2, 16, 29]>",
        '<["a b", "it\'s"]>',
        f"<{spec}>",
        f"<{spec}>",
        "3",
        "<true>",
        "<16>",
    ]


def test_a_var_from_the_command_line_is_json_too(tmp_path: Path) -> None:
    (tmp_path / "p.yaml").write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json",
                     "--var", 'names=["x", "y z"]')
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["steps"][0]["stdout"].splitlines()[1] == '<["x", "y z"]>'

"""A capture's `default:` when the value is there but empty: a JSON null, or a regex group that
took no part in the match.

`{"port": null}` captured with `json: port, default: 30000` gave the fact None (the default was
used only for a missing key), and the next step's `{{ facts.port }}` then failed telling the
author to give the capture a default, which it had. Likewise `port=(?P<port>\\d+)?` on a line
`port=` read None. Now both take the default; without a default the fact is None as before."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _steps(tmp_path, find: str) -> dict[str, dict]:
    (tmp_path / "p.yaml").write_text(f"""name: null_default
steps:
  - id: find
    run: |
      echo '{{"port": null, "host": "gpu01"}}'
      echo 'port='
{find}
  - id: use
    run: echo "using {{{{ facts.port }}}}"
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    return {step["id"]: step for step in json.loads(result.stdout)["steps"]}


@pytest.mark.parametrize("find", [
    """    capture:
      - json: port
        name: port
        default: 30000""",
    """    capture:
      - regex: '^port=(?P<port>\\d+)?$'
        default: 30000""",
    """    capture:
      - regex: '^port=(\\d+)?$'
        name: port
        default: 30000""",
], ids=["json-null", "regex-named-group", "regex-group-1"])
def test_an_empty_value_takes_the_capture_default(tmp_path, find):
    steps = _steps(tmp_path, find)
    assert steps["find"]["status"] == "passed", steps["find"]["message"]
    assert steps["find"]["facts"]["port"] == 30000
    assert steps["use"]["status"] == "passed", steps["use"]["message"]
    assert steps["use"]["stdout"].strip() == "using 30000"


def test_without_a_default_a_json_null_is_still_none_and_named(tmp_path):
    steps = _steps(tmp_path, """    capture:
      - json: port
        name: port""")
    assert steps["find"]["facts"]["port"] is None
    assert steps["use"]["status"] == "error"
    assert "facts.port is None: step 'find' captured it" in steps["use"]["message"]

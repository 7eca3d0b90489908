"""A JSON capture of output nested hundreds of levels deep fails its step with the reason, and the
host runs on.

The value became a fact, which the run walks recursively to mask secrets (redact.redact_value),
to write run.json and to render templates: at 500 levels that ran into RecursionError, caught as
"host local error: internal error: RecursionError: maximum recursion depth exceeded", and the
host's later steps never ran; output 100,000 levels deep broke json.loads itself the same way.
A fact is bounded as a playbook, a --var-file and an inventory are (yaml_nodes.MAX_DEPTH, 64)."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _deep_step(step_id: str, depth: int, capture: str) -> str:
    return f"""  - id: {step_id}
    run: |
      python3 -c 'print("{{\\"a\\": " + "[" * {depth} + "]" * {depth} + "}}")'
    capture:
{capture}
"""


JSON_PATH = "      - json: a\n        name: nested\n"
REGEX_JSON = "      - regex: '(?P<doc>.+)'\n        type: json\n"

PLAYBOOK = ("name: deepjson\nsteps:\n"
            + _deep_step("shallow", 60, JSON_PATH)
            + _deep_step("deep", 500, JSON_PATH)
            + _deep_step("deeper", 100000, JSON_PATH)
            + _deep_step("deep_regex", 100000, REGEX_JSON)
            + "  - id: after\n    run: echo ok\n")


def test_a_deep_json_capture_fails_its_step_and_the_host_runs_on(tmp_path):
    playbook = tmp_path / "deep.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    assert record["hosts"][0]["status"] != "error" and record["hosts"][0]["error"] is None, record["hosts"][0]
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["shallow"]["status"] == "passed", steps["shallow"]["message"]
    nested = steps["shallow"]["facts"]["nested"]
    for _ in range(59):
        nested = nested[0]
    assert nested == []
    assert steps["deep"]["status"] == "error"
    assert steps["deep"]["message"] == (
        "capture failed: nested (json: a): the value nests more than 64 levels deep (lists and objects within each "
        "other); capture a part of it with a longer json: path")
    assert steps["deeper"]["status"] == "error"
    assert steps["deeper"]["message"] == (
        "capture failed: the output is JSON nested too deep to read (lists and objects within each other, more than "
        "64 levels deep)")
    assert steps["deep_regex"]["status"] == "error"
    assert steps["deep_regex"]["message"].startswith(
        "capture failed: doc (type: json): cannot read '{\"a\": [[[[")
    assert steps["deep_regex"]["message"].endswith(
        "as JSON: it nests lists and objects within each other more than 64 levels deep"), steps["deep_regex"]["message"]
    assert steps["after"]["status"] == "passed"
    assert "internal error" not in result.stdout + result.stderr

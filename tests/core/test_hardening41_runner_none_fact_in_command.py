"""A fact whose capture matched nothing (None) written into a later step's command.

`echo "using {{ facts.port }}"` ran as `echo "using "` and passed, and
`curl http://localhost:{{ facts.port }}/health` asked port 80: the None rendered as '' in a
`run:` command (and as the path `None` in a `fetch:` src), where a fact never set at all fails
the step naming it. Now the step errors naming the fact and the step whose capture matched
nothing; a default filter, a capture `default:`, an `is not none` guard and `when:` still work."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

FIND = """name: none_fact
steps:
  - id: find
    run: echo no port printed here
    capture:
      - regex: 'port=(?P<port>\\d+)'
"""


def _steps(tmp_path, rest: str, head: str = FIND) -> dict[str, dict]:
    (tmp_path / "p.yaml").write_text(head + rest)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    return {step["id"]: step for step in json.loads(result.stdout)["steps"]}


@pytest.mark.parametrize("run", ['echo "using {{ facts.port }}"', "echo http://localhost:{{ facts.port }}/health",
                                 "echo port {{ facts.port | raw }}", "echo 'port {{ facts.port }}'",
                                 "echo {{ facts.port | length }}", "echo {{ facts.port | first }}"])
def test_a_fact_that_matched_nothing_in_a_command_fails_the_step_naming_it(tmp_path, run):
    steps = _steps(tmp_path, f"""  - id: use
    run: {json.dumps(run)}
""")
    assert steps["find"]["status"] == "passed"
    use = steps["use"]
    assert use["status"] == "error", use
    assert "facts.port is None: step 'find' captured it, but its capture matched nothing" in use["message"], use["message"]
    assert "using" not in (use["stdout"] or "") and "localhost" not in (use["stdout"] or "")


@pytest.mark.parametrize("rest, printed", [
    ("""  - id: use
    run: echo "using {{ facts.port | default(30000) }}"
""", "using 30000"),
    ("""  - id: use
    run: echo "using {{ facts.port if facts.port is not none else 'none' }}"
""", "using none"),
    ("""  - id: use
    run: echo "using {% if facts.port %}{{ facts.port }}{% else %}nothing{% endif %}"
""", "using nothing"),
    # JSON's own word for nothing: the author asked for JSON (was: "_NoFact is not JSON serializable").
    ("""  - id: use
    run: echo "port {{ facts.port | tojson }}"
""", "port null"),
])
def test_a_command_that_handles_the_none_still_runs(tmp_path, rest, printed):
    use = _steps(tmp_path, rest)["use"]
    assert use["status"] == "passed", use["message"]
    assert use["stdout"].strip() == printed


def test_a_guarded_step_is_skipped_and_a_capture_default_is_used(tmp_path):
    steps = _steps(tmp_path, """  - id: guarded
    when: facts.port is not none
    run: echo "using {{ facts.port }}"
""")
    assert steps["guarded"]["status"] == "skipped"
    defaulted = FIND.replace("'port=(?P<port>\\d+)'", "'port=(?P<port>\\d+)'\n        default: '8000'")
    use = _steps(tmp_path, """  - id: use
    run: echo "using {{ facts.port }}"
""", head=defaulted)["use"]
    assert use["status"] == "passed" and use["stdout"].strip() == "using 8000"


def test_a_fact_that_matched_nothing_in_a_fetch_path_names_it(tmp_path):
    get = _steps(tmp_path, """  - id: get
    fetch: {src: "/var/log/{{ facts.port }}.log", dest: logs}
""")["get"]
    assert get["status"] == "error"
    assert "facts.port is None: step 'find' captured it, but its capture matched nothing" in get["message"], get["message"]


@pytest.mark.parametrize("run, printed", [("echo hi {{ extra | raw }}", "hi"), ('echo "hi{{ extra }}"', "hi"),
                                          ("echo hi {{ facts.port | string }}", None)])
def test_a_var_that_is_none_still_renders_empty(tmp_path, run, printed):
    # `extra_flags: ~` is an author's empty value (requires: counts it as not given), not a
    # capture that matched nothing.
    head = FIND.replace("steps:\n", "vars:\n  extra: ~\nsteps:\n")
    use = _steps(tmp_path, f"""  - id: use
    run: {json.dumps(run)}
""", head=head)["use"]
    if printed is None:  # a fact through | string is still refused
        assert use["status"] == "error" and "facts.port is None" in use["message"], use
    else:
        assert use["status"] == "passed" and use["stdout"].strip() == printed, use

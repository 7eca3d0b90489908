"""A check written with a comma (`that: facts.tps > 1,000`, a thousands separator) is refused
when the playbook is loaded, as the run refuses it.

`playbooks validate` parses a `that:`, `when:` or `until:` inside `{{ }}`, where Jinja reads
`facts.tps > 1,000` as a tuple of two values; the run compiles it as one expression
(jinja2 Environment.compile_expression), which refuses what follows the first: "bad expression
'facts.tps > 1,000': chunk after expression". So validate said ok, and the step failed on every
host (SD003), the run PASSED with "nothing was checked"."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: th
steps:
  - id: bench
    run: echo tps=2000
    capture:
      - regex: 'tps=(?P<tps>\\d+)'
    {field}: "{expression}"
"""


@pytest.mark.parametrize(("expression", "said"), [
    ("facts.tps > 1,000", "a ',' between digits is no thousands separator to Jinja: 1,000 reads as two values, 1 "
                          "and 000; write 1000"),
    ("facts.tps > 12,500,000", "a ',' between digits is no thousands separator to Jinja: 12,500,000 reads as three "
                               "values, 12, 500 and 000; write 12500000"),
    ("facts.tps > 1, facts.tps < 5", "a ',' ends the expression here: a check is one expression; join conditions "
                                      "with and / or"),
])
def test_validate_refuses_a_comma_the_run_would_refuse(tmp_path, expression, said):
    playbook = tmp_path / "th.yaml"
    playbook.write_text(PLAYBOOK.format(field="expect:\n      - that", expression=expression))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2, result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert message.startswith(f"error: {playbook}:8:15: template syntax error in step 'bench': {said} "
                              "(at steps[0].expect[0].that)"), message


def test_when_with_a_thousands_comma_is_refused_too(tmp_path):
    playbook = tmp_path / "th.yaml"
    playbook.write_text(PLAYBOOK.format(field="when", expression="2 > 1,000"))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2 and "write 1000" in result.stderr, result.stdout + result.stderr


@pytest.mark.parametrize("expression", ["facts.tps in (1, 2000)", "facts.tps in [1, 2000]", "(facts.tps, 1) | length == 2"])
def test_a_comma_inside_brackets_still_validates_and_runs(tmp_path, expression):
    playbook = tmp_path / "th.yaml"
    playbook.write_text(PLAYBOOK.format(field="expect:\n      - that", expression=expression))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0, result.stdout + result.stderr

"""`| float` and `| int` of a captured text that is no number (a unit, a thousands separator, a
version) fail the check, naming the value, instead of reading it as 0.

Jinja's filters return their default, 0, for any text they cannot read (jinja2/filters.py,
do_float and do_int): `that: facts.latency_ms | float < 50` passed on a host at `75ms`, and
`facts.free | float > 10` raised its finding on one with `12GB` free."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _step(tmp_path, printed: str, that: str) -> dict:
    (tmp_path / "p.yaml").write_text(f"""name: numbers
steps:
  - id: bench
    run: echo "value={printed}"
    capture:
      - regex: 'value=(?P<value>\\S+)'
    expect:
      - that: {json.dumps(that)}
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    return step


@pytest.mark.parametrize("printed, that, kind", [
    ("75ms", "facts.value | float < 50", "float"),     # passed: 0.0 < 50
    ("12GB", "facts.value | float > 10", "float"),     # failed: 0.0 > 10
    ("1,024", "facts.value | int < 1000", "int"),      # passed: 0 < 1000
    ("0.5.4", "facts.value | float < 0.4", "float"),   # passed: a version read as 0
])
def test_a_text_that_is_no_number_is_not_read_as_zero(tmp_path, printed, that, kind):
    step = _step(tmp_path, printed, that)
    assert step["status"] == "error", step
    assert f"{kind}() of '{printed}', which is not a number" in step["message"], step["message"]


@pytest.mark.parametrize("printed, that, status", [
    ("12.5", "facts.value | float > 10", "passed"),
    ("12.5", "facts.value | int == 12", "passed"),
    ("12GB", "facts.value | float(0) == 0", "passed"),  # the author's own default
    ("75", "facts.value | float < 50", "failed"),
])
def test_a_number_or_an_explicit_default_reads_as_before(tmp_path, printed, that, status):
    assert _step(tmp_path, printed, that)["status"] == status

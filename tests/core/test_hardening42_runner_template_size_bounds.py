"""A playbook expression that would build a huge string or number.

The sandbox bounds `range()` but not `*` and `**`: `when: "'x' * 10**10"` took 10 GB until the
kernel killed the run (its run.json left "running", no report), and `10 ** 100000000` computed
for minutes; a report --template could do the same. Now such an operation fails its step (or the
report) naming the size, the run goes on, and ordinary uses (`'=' * 80`, `2 ** 64`) are as
before. The sizes here are large enough to be refused but small enough to be computed without
the bound."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _steps(tmp_path, expression: str) -> dict[str, dict]:
    (tmp_path / "p.yaml").write_text(f"""name: sizes
steps:
  - id: big
    when: {json.dumps(expression)}
    run: echo ran
  - id: after
    run: echo "{{{{ '=' * 8 }}}} {{{{ 2 ** 64 }}}}"
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    return {step["id"]: step for step in json.loads(result.stdout)["steps"]}


@pytest.mark.parametrize("expression, said", [
    ("('x' * 20000000) | length > 0", "'*' would make 20,000,000 items; at most 10,000,000"),
    ("2 ** 10000000 > 0", "'**' would make a number of about 20,000,000 bits; at most 1,000,000"),
])
def test_a_huge_product_fails_its_step_and_the_run_goes_on(tmp_path, expression, said):
    steps = _steps(tmp_path, expression)
    assert steps["big"]["status"] == "error", steps["big"]
    assert said in steps["big"]["message"], steps["big"]["message"]
    assert "\n" not in steps["big"]["message"]
    assert steps["after"]["status"] == "passed", steps["after"]["message"]
    assert steps["after"]["stdout"] == "======== 18446744073709551616\n"


def test_a_report_template_is_bounded_too(tmp_path):
    (tmp_path / "p.yaml").write_text("name: sizes\nsteps:\n  - id: a\n    run: echo hi\n")
    run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    (run_dir,) = (tmp_path / "runs").iterdir()
    template = tmp_path / "big.md.j2"
    template.write_text("{{ ('x' * 20000000) | length }} {{ '=' * 8 }}\n")
    result = run_cli("report", str(run_dir), "--template", str(template), "-o", str(tmp_path / "out.md"))
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert "'*' would make 20,000,000 items; at most 10,000,000" in result.stderr, result.stderr
    assert not (tmp_path / "out.md").exists()
    template.write_text("{{ '=' * 8 }}\n")
    assert run_cli("report", str(run_dir), "--template", str(template)).stdout.strip() == "========"

"""--var keeps the type of the var's default. `--var n=abc` for a number var was an SD003
TypeError inside a finding and exit 0; `--var suffix=5` for a text var became the int 5 and a
`suffix.startswith(...)` check errored; `--var dry=no` for a yes/no var was the text 'no'."""

from __future__ import annotations

import pytest

from tests.conftest import only_run, run_cli

PLAYBOOK = """
name: typed_vars
vars:
  min_tokens: 3
  suffix: "v1"
  dry: false
  gpus: [0, 1]
  limits: {mem: 1}
  extra: ~
  baseline: ""
steps:
  - id: show
    run: "echo min={{ min_tokens }} suffix={{ suffix }} gpus={{ gpus | join(',') }} extra={{ extra }} baseline={{ baseline }}"
    expect:
      - that: min_tokens >= 0
      - that: suffix.startswith(suffix)
  - id: wet
    when: not dry
    run: echo wet
"""


def _run(tmp_path, write_playbook, *assignments):
    playbook = write_playbook(PLAYBOOK)
    out = tmp_path / "runs"
    args = [a for assignment in assignments for a in ("--var", assignment)]
    return run_cli("run", str(playbook), "--host", "local", "--out", str(out), *args), out


@pytest.mark.parametrize("assignment, message, hint", [
    ("min_tokens=abc", "--var min_tokens=abc: min_tokens is a number in the playbook (default 3), and 'abc' is not a number",
     "write a number: --var min_tokens=3"),
    ("min_tokens=", "--var min_tokens=: min_tokens is a number in the playbook (default 3), and the empty value is not a number",
     "write a number: --var min_tokens=3"),
    ("min_tokens=true", "--var min_tokens=true: min_tokens is a number in the playbook (default 3), and 'true' is not a number",
     "write a number: --var min_tokens=3"),
    ("dry=maybe", "--var dry=maybe: dry is a yes/no in the playbook (default false), and 'maybe' is neither",
     "write true or false: --var dry=true"),
    ("gpus=0", "--var gpus=0: gpus is a list in the playbook (default [0, 1]), and '0' is not one",
     "write it as JSON, quoted for the shell"),
    ("limits=mem", "--var limits=mem: limits is a mapping in the playbook (default {\"mem\": 1}), and 'mem' is not one",
     "write it as JSON, quoted for the shell"),
])
def test_a_value_that_is_not_of_the_defaults_type_is_refused_before_any_host(tmp_path, write_playbook, assignment, message, hint):
    result, out = _run(tmp_path, write_playbook, assignment)
    assert result.code == 2, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines[0] == f"error: {message}"
    assert lines[1].strip().startswith(f"hint: {hint}")
    assert not out.exists() or not any(out.iterdir())  # no run folder, no host touched


@pytest.mark.parametrize("assignment, name, value", [
    ("suffix=5", "suffix", "5"), ("suffix=true", "suffix", "true"), ("suffix=[1]", "suffix", "[1]"),
    ("dry=false", "dry", False), ("dry=no", "dry", False), ("dry=OFF", "dry", False), ("dry=0", "dry", False),
    ("dry=yes", "dry", True), ("dry=True", "dry", True),
    ("min_tokens=08", "min_tokens", 8), ("min_tokens=0.50", "min_tokens", 0.5), ("min_tokens=7", "min_tokens", 7),
    ("gpus=[2, 3]", "gpus", [2, 3]), ("limits={\"mem\": 2}", "limits", {"mem": 2}),
    # no type to keep: `~` and the empty text ("no default") take the guess, as before
    ("extra=5", "extra", 5), ("baseline=90", "baseline", 90), ("baseline=gpu01", "baseline", "gpu01"),
])
def test_a_value_takes_the_type_of_its_default(tmp_path, write_playbook, assignment, name, value):
    result, out = _run(tmp_path, write_playbook, assignment)
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    assert record["vars"][name] == value
    assert type(record["vars"][name]) is type(value)
    assert [s["status"] for s in record["steps"]][0] == "passed"


def test_dry_false_skips_what_dry_true_runs(tmp_path, write_playbook):
    result, out = _run(tmp_path, write_playbook, "dry=no")
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    assert [s["status"] for s in record["steps"]] == ["passed", "passed"]
    (tmp_path / "again").mkdir()
    result, out = _run(tmp_path / "again", write_playbook, "dry=yes")
    _, record = only_run(out)
    assert [s["status"] for s in record["steps"]] == ["passed", "skipped"]


def test_a_var_without_equals_is_a_usage_error(tmp_path, write_playbook):
    result, _ = _run(tmp_path, write_playbook, "dry")
    assert result.code == 2
    assert "error: --var 'dry' is not KEY=VALUE" in result.stderr

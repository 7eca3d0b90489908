"""The on-call engineer's question when `that: facts.tps > vars.min_tps` fails: by how much?

A failed `that:` check said only "expected that facts.tps > vars.min_tps, observed False": the
throughput it measured and the floor it compared with were in run.json's facts and vars, not in
the step's line, the finding or the report. A failed check now names the value of each fact and
var it read (long values cut, values named like secrets masked)."""

from __future__ import annotations

import json

from spec_debug.playbook.templating import NOT_SET, values_read
from tests.conftest import run_cli


def _run(tmp_path, output: str, expect: str, vars_yaml: str = "") -> dict:
    (tmp_path / "p.yaml").write_text(
        "name: tps\n" + vars_yaml + "steps:\n  - id: bench\n    run: |\n"
        + "".join(f"      echo '{line}'\n" for line in output.splitlines())
        + "    capture:\n"
        "      - regex: 'tok/s: (?P<tps>[\\d.]+)'\n        type: float\n"
        "      - regex: 'token: (?P<api_token>\\S+)'\n"
        "      - regex: 'version: (?P<version>\\S+)'\n"
        "      - regex: 'log: (?P<log>\\S+)'\n"
        "    expect:\n" + expect)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert "Traceback" not in result.stderr, result.stderr
    assert result.code == 1, result.stderr
    return json.loads(result.stdout)


def test_a_failed_check_names_the_fact_and_the_var_it_compared(tmp_path):
    record = _run(tmp_path, "tok/s: 12.5", "      - that: facts.tps > vars.min_tps\n", "vars:\n  min_tps: 80\n")
    (step,) = record["steps"]
    said = "expected that facts.tps > vars.min_tps, observed False (facts.tps = 12.5, vars.min_tps = 80)"
    assert step["message"] == said
    assert step["expectations"] == [{"expect": "that facts.tps > vars.min_tps", "passed": False,
                                     "observed": "False (facts.tps = 12.5, vars.min_tps = 80)"}]
    (finding,) = record["findings"]
    assert finding["title"] == f"Step 'bench': {said}"
    assert finding["evidence"][0] == said


def test_a_bare_var_the_exit_code_and_a_fact_not_set_are_named(tmp_path):
    record = _run(tmp_path, "tok/s: 12.5",
                  "      - that: facts.tps > min_tps and exit_code == 0 and facts.ttft is defined\n",
                  "vars:\n  min_tps: 8\n")
    assert record["steps"][0]["expectations"][0]["observed"] == (
        "False (facts.tps = 12.5, min_tps = 8, exit_code = 0, facts.ttft not set)")


def test_a_text_fact_is_quoted_and_a_method_on_it_shows_the_fact(tmp_path):
    record = _run(tmp_path, "version: 0.5.4", "      - that: facts.version.split('.')[1] | int >= 6\n")
    assert record["steps"][0]["expectations"][0]["observed"] == "False (facts.version = '0.5.4')"


def test_a_long_value_is_cut(tmp_path):
    log = "x" * 1000
    record = _run(tmp_path, f"log: {log}", "      - that: facts.log | length < 10\n")
    observed = record["steps"][0]["expectations"][0]["observed"]
    assert observed == f"False (facts.log = '{'x' * 199}… (802 characters more))"


def test_a_value_named_like_a_secret_is_masked(tmp_path):
    secret = "sk-live-4f9a8b7c6d5e"
    record = _run(tmp_path, f"token: {secret}", "      - that: facts.api_token == 'expected-token'\n")
    assert record["steps"][0]["expectations"][0]["observed"] == "False (facts.api_token not shown (named like a secret))"
    assert secret not in json.dumps(record["findings"])
    assert secret not in record["steps"][0]["message"]


def test_a_check_that_reads_only_one_fact_does_not_repeat_it(tmp_path):
    record = _run(tmp_path, "tok/s: 0", "      - that: facts.tps\n")
    assert record["steps"][0]["expectations"][0]["observed"] == "0.0"


def test_the_values_read_by_an_expression_in_order():
    context = {"facts": {"tps": 12.5, "server": {"port": 30000}}, "vars": {"min_tps": 80}, "min_tps": 80,
               "exit_code": 1, "stdout": "x" * 50,
               "steps": {"warmup": {"exit_code": 137, "stdout": "killed"}}}
    assert values_read("steps.warmup.exit_code == 0 and facts.server.port == vars.min_tps and 'ok' in stdout"
                       " and facts[vars.key] and facts.gone", context) == [
        ("steps.warmup.exit_code", 137), ("facts.server.port", 30000), ("vars.min_tps", 80), ("vars.key", NOT_SET),
        ("facts.gone", NOT_SET)]
    assert values_read("'tps' in facts and exit_code > 0", context) == [("exit_code", 1)]

"""A capture left at type auto reads nan and inf as the floats they are.

A diverged drafter's training log prints `loss=nan` (Python's and C printf's spelling; -inf
for a log-probability). Captured without a type, the fact stayed the text 'nan', and
`that: facts.loss < 5` ended the step as SD003 "TypeError: '<' not supported between instances
of 'str' and 'int'": the run said PASSED, "nothing was checked", exit 0. Read as floats the
comparison is false and the expectation fails (SD001, exit 1) with the value shown. run.json
stays strict JSON: such a fact is written as the string "NaN" / "-Infinity" (record.py's
ser_json_inf_nan="strings"), never as the bare NaN token Python's json writes. A word that
only starts like one (info, nano) stays text. Through the real CLI.
"""

from __future__ import annotations

import json

from tests.conftest import only_run, run_cli


def _strict(token: str) -> None:
    raise AssertionError(f"run.json holds the non-JSON token {token}")


def test_nan_and_inf_captures_are_numbers(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nsteps:\n  - id: train\n    run: |\n"
        "      echo 'loss=nan logp=-inf peak=Infinity mode=info unit=nano'\n"
        "    capture:\n"
        "      - regex: 'loss=(?P<loss>\\S+) logp=(?P<logp>\\S+) peak=(?P<peak>\\S+) mode=(?P<mode>\\S+) unit=(?P<unit>\\S+)'\n"
        "    expect:\n      - that: facts.loss < 5\n      - that: facts.logp < 0\n"
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    run_dir, _ = only_run(out)
    record = json.loads((run_dir / "run.json").read_text(), parse_constant=_strict)
    step = record["steps"][0]
    assert step["facts"] == {"loss": "NaN", "logp": "-Infinity", "peak": "Infinity", "mode": "info", "unit": "nano"}
    assert step["status"] == "failed", step
    assert [(e["passed"], e["observed"]) for e in step["expectations"]] == [
        (False, "False (facts.loss = nan)"),
        (True, "True"),
    ]
    assert result.code == 1, result.stderr
    assert "TypeError" not in result.stderr and "SD001" in result.stderr

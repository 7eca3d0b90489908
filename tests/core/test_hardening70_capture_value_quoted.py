"""A capture that cannot convert its value quotes the value cut, and names the fact.

`(?P<tps>\\S+)` with `type: int` over a line that held a 3,000-digit run (a hash, a base64
blob) put the whole match in the step's message and its SD003 evidence: 3,000 characters in
run.json, the report's findings and the console, where a `type: json` capture's text was
already cut at 80 characters. A `json:` path that named a whole object with `type: float`
quoted the object whole. A `type: bool` refusal named neither the fact nor what it reads.
The value is now quoted as the json conversion quotes it: its first 80 characters and its
length. Through the real CLI for the record, and convert() for each kind.
"""

from __future__ import annotations

import pytest

from spec_debug.runner.capture import CaptureError, convert
from tests.conftest import only_run, run_cli

DIGITS = "9" * 3000 + "x"


@pytest.mark.parametrize(("value", "kind", "said"), [
    (DIGITS, "int", f"tps (type: int): cannot read {'9' * 80!r}... (3001 characters) as an int "
                    "(a unit, a thousands separator or a decimal point in it?): capture the number alone, "
                    "e.g. (?P<tps>[0-9.]+) tok/s"),
    ({"a": list(range(100))}, "float", "tps (type: float): cannot read "
     f"{repr({'a': list(range(100))})[:80]}... ({len(repr({'a': list(range(100))}))} characters) as a float "
     "(a unit, a thousands separator or a decimal point in it?): capture the number alone, e.g. (?P<tps>[0-9.]+) tok/s"),
    ("maybe", "bool", "tps (type: bool): cannot read 'maybe' as a boolean (true/false, yes/no, on/off or 1/0)"),
    ("1,024", "int", "tps (type: int): cannot read '1,024' as an int (a unit, a thousands separator or a decimal "
                     "point in it?): capture the number alone, e.g. (?P<tps>[0-9.]+) tok/s"),
], ids=["long-match", "json-object", "bool-word", "short-match"])
def test_the_refused_value_is_quoted_cut(value, kind, said):
    with pytest.raises(CaptureError) as caught:
        convert(value, kind, "tps")
    assert str(caught.value) == said


def test_the_record_keeps_the_message_short(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text("name: p\nsteps:\n  - id: bench\n    run: |\n"
                        "      python3 -c \"print('tps=' + '9' * 3000 + 'x')\"\n"
                        "    capture:\n      - regex: 'tps=(?P<tps>\\S+)'\n        type: int\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    _, record = only_run(out)
    assert result.code == 0, result.stderr
    (step,) = record["steps"]
    assert step["status"] == "error"
    assert step["message"].startswith(f"capture failed: tps (type: int): cannot read {'9' * 80!r}... (3001 characters) as an int")
    assert len(step["message"]) < 400  # was 3,170
    assert record["findings"][0]["evidence"] == [step["message"]]
    assert DIGITS in step["stdout"]  # the output itself is kept

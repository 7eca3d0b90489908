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


TOKEN = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"
LINE = f"401 Unauthorized: the token you gave was rejected by the hub: {TOKEN}"


@pytest.mark.parametrize("kind", ["json", "int"])
def test_a_token_at_the_cut_is_not_left_in_part(tmp_path, kind):
    # The quote is masked after it is made (engine._clean): cut at 80 characters, the token kept
    # its first 16 after hf_, which no pattern knows for one (redact.py wants 20), and run.json
    # and the report held them. A cut inside a secret is made at its start.
    playbook = tmp_path / "p.yaml"
    playbook.write_text(f"name: p\nsteps:\n  - id: whoami\n    run: |\n      echo '{LINE} (check HF_HOME)'\n"
                        f"    capture:\n      - regex: '(?P<status>.*)'\n        type: {kind}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    (step,) = record["steps"]
    assert (f"cannot read '401 Unauthorized: the token you gave was rejected by the hub: '... "
            f"({len(LINE) + len(' (check HF_HOME)')} characters)") in step["message"], step["message"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert "hf_AbCd" not in text


def test_a_cut_outside_a_secret_stays_at_the_limit():
    from spec_debug.runner.capture import _clipped
    assert _clipped("a" * 3000) == f"{'a' * 80!r}... (3000 characters)"
    assert _clipped("x " * 100) == f"{('x ' * 40)!r}... (200 characters)"
    assert _clipped("b" * 79 + "c" * 30) == f"{'b' * 79 + 'c'!r}... (109 characters)"

"""`type: int` over nan or inf says what the value is, not "a unit, a thousands separator
or a decimal point in it?".

A diverged loss prints `loss=nan`; captured with type: int, the step errored with "cannot read
'nan' as an int (a unit, a thousands separator or a decimal point in it?): capture the number
alone", a search for a separator that is not there. It now says no int holds a value that is
not finite and names the fix (type: float, or auto, which reads it as the float). Through the
real CLI, and convert() for each spelling.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.runner.capture import CaptureError, convert
from tests.conftest import run_cli


def test_an_int_capture_of_nan_says_why(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "name: p\nsteps:\n  - id: train\n    run: echo 'loss=nan'\n"
        "    capture:\n      - regex: 'loss=(?P<loss>\\S+)'\n        type: int\n"
    )
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "error"
    assert step["message"] == ("capture failed: loss (type: int): 'nan' is not a finite number, and no int holds it: "
                               "use type: float (or leave type out)")


@pytest.mark.parametrize("value", ["inf", "-inf", "+Infinity", "NaN", "-nan", " nan "])
def test_each_spelling(value):
    with pytest.raises(CaptureError) as caught:
        convert(value, "int", "x")
    assert str(caught.value) == (f"x (type: int): {value!r} is not a finite number, and no int holds it: "
                                 "use type: float (or leave type out)")


@pytest.mark.parametrize("value", ["info", "nano", "12.5"])
def test_other_words_keep_the_general_message(value):
    with pytest.raises(CaptureError) as caught:
        convert(value, "int", "x")
    assert "(a unit, a thousands separator or a decimal point in it?)" in str(caught.value)

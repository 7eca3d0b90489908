"""The ASCII copy of _SPEC_DECODE_READINGS is used only on all-ASCII texts: a text holding
Unicode digits (which Unicode \\d reads and ASCII \\d does not) is still read as before."""
from spec_debug.session import metrics as M

_LINE = ("[2025-01-01 00:00:00] Decode batch. #running-req: 1, #token: 10, token usage: 0.01, "
         "accept len: {}, accept rate: {}, cuda graph: True, gen throughput (token/s): {}, #queue-req: 0\n")


def test_ascii_log_reads_every_line():
    text = _LINE.format("2.98", "0.49", "54.08") + _LINE.format("3.10", "0.52", "1,060.5")
    assert text.isascii()
    assert M._spec_decode_readings(text) == (("54.08", "1,060.5"), ("2.98", "3.10"), ("0.49", "0.52"))


def test_unicode_digits_still_read_by_the_unicode_pattern():
    text = _LINE.format("\u0662.98", "0.49", "54.08") + _LINE.format("3.10", "0.52", "\u0661\u0660.5")
    assert not text.isascii()
    assert M._spec_decode_readings(text) == (("54.08", "\u0661\u0660.5"), ("\u0662.98", "3.10"), ("0.49", "0.52"))


def test_non_ascii_elsewhere_reads_the_same():
    text = _LINE.format("2.98", "0.49", "54.08") + _LINE.format("3.10", "0.52", "60.5") + "caf\u00e9\n"
    assert M._spec_decode_readings(text) == (("54.08", "60.5"), ("2.98", "3.10"), ("0.49", "0.52"))


def test_patterns_agree_but_for_the_flag():
    assert M._SPEC_DECODE_READINGS_ASCII.pattern == M._SPEC_DECODE_READINGS.pattern
    assert M._SPEC_DECODE_READINGS_ASCII.flags & 256  # re.ASCII

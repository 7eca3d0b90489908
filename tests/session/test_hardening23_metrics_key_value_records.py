"""A speed printed as a key=value field is the number after the key.

A comparison script prints one record a run, its fields as key=value:
"baseline (prod today)  mean_accept_len=2.841 per_pos=[...] accept_rate=0.612 tok/s=152.3 ...".
The unit before "=152.3" was read as the unit of the number before it: a throughput of 0.612
tok/s (the acceptance rate), and 152.3 was lost. The unit is the key; the record's label names
the run without speculation.
"""

from spec_debug.session.metrics import extract_metrics

RECORDS = (
    "baseline (prod today)    mean_accept_len=2.841 per_pos=[0.81, 0.62, 0.4] accept_rate=0.612 tok/s=152.3 tokens=10240\n"
    "mtp_k4                   mean_accept_len=2.987 per_pos=[0.83, 0.65, 0.44] accept_rate=0.641 tok/s=160.9 tokens=10240\n"
    "relative change in mean accept len: +5.1%\n"
)


def _speeds(text, prose=False):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=prose) if m.unit == "tok/s")


def test_each_record_gives_its_speed():
    for prose in (False, True):
        assert _speeds(RECORDS, prose) == [("baseline_throughput", 152.3), ("throughput", 160.9)]


def test_the_number_before_the_key_is_no_speed():
    assert _speeds("step=120 accept_rate=0.58 tok/s=88.4") == [("throughput", 88.4)]
    assert _speeds("run=eagle3 tokens/s=45.2, ttft_ms=120") == [("throughput", 45.2)]


def test_a_reading_before_its_unit_is_unchanged():
    assert _speeds("EAGLE3: 120 tok/s") == [("throughput", 120.0)]
    assert _speeds("tokens/s: 50.58") == [("throughput", 50.58)]

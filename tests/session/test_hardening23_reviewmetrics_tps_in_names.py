""""45tps" is a speed in prose, but a piece of a name when a name goes around it.

Reading "tps" written against its number (ggml-org/llama.cpp#10664, "took it from 45tps to
103.9 tps") made every run tag, branch, file and URL with such a piece a speed: "RUN=bench-100tps"
was a throughput of 100 tok/s, "v2-45tps" one of 45.
"""

import pytest

from spec_debug.session.metrics import extract_metrics


def _speeds(text):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=True) if m.unit == "tok/s")


@pytest.mark.parametrize("text", [
    "export RUN=bench-100tps; python bench.py",
    "git checkout v2-45tps && make",
    "results are at http://10.0.0.5/runs/45tps/summary",
    "wrote eagle_45tps.json and model_45tps.log",
    "tagged run@45tps for the dashboard",
])
def test_a_piece_of_a_name_is_no_speed(text):
    assert _speeds(text) == []


@pytest.mark.parametrize("text, value", [
    ("Reached 45tps with eagle.", 45.0),
    ("EAGLE3 decode (45tps) is slow", 45.0),
    ("speed=45tps at bs=1", 45.0),
    ("it did ~45tps", 45.0),
])
def test_prose_keeps_its_speed(text, value):
    assert _speeds(text) == [("throughput", value)]

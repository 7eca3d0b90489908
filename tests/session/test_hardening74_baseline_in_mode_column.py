"""A run named "no-spec" or "baseline" in a column after the model's is the baseline.

A comparison table often names the model first and the run in a column of its own: "| model |
mode | Output throughput (tok/s) |" over "| llama3-8b | no-spec | 96.8 |" and "| llama3-8b |
eagle3 | 201.4 |". Only the first cell was looked at for the baseline's name, so the no-spec
run's 96.8 tok/s was read as a drafting run's throughput: no baseline, no speedup to compare.
Now a cell that is the run's name ("no-spec", "baseline", "vanilla", "AR") in any label column
makes the row the baseline; a note about it ("baseline+85%") does not.
"""

from spec_debug.session.metrics import extract_metrics

MODE = """\
| model     | mode    |   Output throughput (tok/s) |   accept length |
|-----------|---------|-----------------------------|-----------------|
| llama3-8b | no-spec |                        96.8 |            1    |
| llama3-8b | eagle3  |                       201.4 |            3.12 |
"""


def _got(text):
    return [(m.name, m.value) for m in extract_metrics(text)]


def test_no_spec_in_the_mode_column_is_the_baseline():
    assert _got(MODE) == [("baseline_throughput", 96.8), ("throughput", 201.4), ("accept_length", 3.12)]


def test_baseline_with_a_note_in_brackets():
    text = MODE.replace("| no-spec |", "| baseline (AR) |").replace("|---------|", "|---------------|")
    assert _got(text) == [("baseline_throughput", 96.8), ("throughput", 201.4), ("accept_length", 3.12)]


def test_a_note_about_the_baseline_is_no_baseline():
    text = """\
| model     | vs         |   Output throughput (tok/s) |
|-----------|------------|-----------------------------|
| eagle3    | baseline+85% |                       201.4 |
"""
    assert _got(text) == [("throughput", 201.4)]

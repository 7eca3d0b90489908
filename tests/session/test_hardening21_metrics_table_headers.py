"""Tables whose header is two rows, llama.cpp's "T/s" column, and llama.cpp's accept summary.

- A header wrapped over two rows (the metric's name over its unit) above the delimiter row, or
  the units in a row under it: only the row next to the delimiter was the header, so a column
  named "Accept" over "length" was no accept length, and "Output" over "tok/s" was read only
  by chance of which row held the unit.
- "| draft-n-max | T/s (CUDA) | draft rate |" (LostRuins/koboldcpp#2262, llama-server with an
  MTP draft): "T/s (CUDA)" was no throughput column (only "T/s" alone or at the end was), and
  the "none" row is the run without a draft.
- llama.cpp's speculative example ends with "n_drafted = 245 / n_accept = 231 / accept =
  94.286%" (examples/speculative/speculative.cpp; ggml-org/llama.cpp#3006 posts it): the
  acceptance rate was not read.
"""

from spec_debug.session.metrics import extract_metrics


def _readings(text, prose=True):
    return sorted((m.name, m.value) for m in extract_metrics(text, prose=prose))


def test_a_header_of_two_rows_above_the_delimiter():
    text = ("| Method | Output | Accept |\n| | tok/s | length |\n|---|---|---|\n"
            "| baseline | 90.1 | - |\n| EAGLE-3 | 131.5 | 2.8 |\n")
    assert _readings(text) == [("accept_length", 2.8), ("baseline_throughput", 90.1), ("throughput", 131.5)]


def test_a_unit_row_under_the_delimiter():
    text = ("| Method | Output | Acceptance |\n|---|---|---|\n| | tok/s | length |\n"
            "| baseline | 90.1 | - |\n| EAGLE-3 | 131.5 | 2.8 |\n")
    assert _readings(text) == [("accept_length", 2.8), ("baseline_throughput", 90.1), ("throughput", 131.5)]


def test_a_row_of_another_table_above_is_no_header_line():
    # three pipe rows in a row: the last data row of a table above (no blank line between)
    text = ("| a | b | c |\n| x | y | z |\n| Method | Output tok/s | Accept length |\n|---|---|---|\n"
            "| EAGLE-3 | 131.5 | 2.8 |\n")
    assert _readings(text) == [("accept_length", 2.8), ("throughput", 131.5)]


def test_a_first_data_row_of_numbers_is_no_unit_row():
    text = "| bs | tok/s |\n|---|---|\n| | 54.8 |\n| 4 | 120.5 |\n"
    assert ("throughput", 120.5) in _readings(text)


KOBOLD_2262 = """\
| draft-n-max | T/s (CUDA) | draft rate |
|-------------|------------|------------|
| none        | 36.00      | N/A        |
| 0           | 44.37      | 0.44       |
| 1           | 47.77      | 0.47       |
| 8           | 30.89      | 0.11       |
"""


def test_t_per_s_with_a_note_is_a_throughput_column_and_none_is_the_baseline():
    assert _readings(KOBOLD_2262) == [("baseline_throughput", 36.0), ("throughput", 30.89),
                                      ("throughput", 44.37), ("throughput", 47.77)]


def test_units_that_merely_end_in_t_per_s_are_none():
    assert _readings("| run | pt/s |\n|---|---|\n| a | 12.5 |\n") == []


LLAMA_3006 = """\
## With heuristic
n_draft   = 53
n_predict = 266
n_drafted = 245
n_accept  = 231
accept    = 94.286%

decoded  266 tokens in   11.990 seconds, speed:   22.185 t/s
"""


def test_llama_cpp_speculative_accept_summary():
    assert _readings(LLAMA_3006, prose=False) == [("accept_rate", 94.286), ("throughput", 22.185)]
    nothing = LLAMA_3006.replace("n_drafted = 245", "n_drafted = 0").replace("94.286", "0.000")
    assert _readings(nothing, prose=False) == [("throughput", 22.185)]

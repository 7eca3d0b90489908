"""A value that starts with a quote and goes on after the closing quote.

`run: "{{ python }}" -c 'import torch'`, `that: "OK" in stdout`, `when: "sglang" == engine`:
YAML reads a quoted scalar up to its closing quote and fails on the rest with "expected <block
end>, but found '<scalar>'". Before, the hint blamed indentation: "when: at column 5 lines up with
no key above it: the nearest, run: on line 4, starts at column 5; move when: there" (the key was
already there), or, under a list item, "this '- ' at column 7 does not line up with the '- ' on
line 3". Now the hint says the quote ended the value and gives the line to write (quote the whole
value; a block for a command), as Ansible does for the same trap. `requires: "a", "b"` gets the
list in brackets. `title: 'Check the server's log'` (an apostrophe inside single quotes) was
told to quote the whole value again, quotes and all; now it gets the value in the other quotes.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

HEAD = "name: smoke\nvars:\n  python: python3\n  engine: sglang\nsteps:\n"


def _error(body: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + body, "smoke.yaml")
    return caught.value


def test_a_command_that_starts_with_a_quoted_template_is_told_to_use_a_block():
    error = _error("  - id: torch\n    run: \"{{ python }}\" -c 'import torch'\n")
    assert (error.line, error.column) == (7, 25)
    assert error.hint == (
        "the value of run: starts with a quote, so YAML reads only \"{{ python }}\" as the value and refuses the "
        "text after it: write 'run: |' and put the whole text on the next line, indented (it is then kept "
        "exactly as written, quotes and all)")


@pytest.mark.parametrize("body, where, written", [
    ("  - id: gpu\n    run: nvidia-smi\n    expect:\n      - that: \"OK\" in stdout\n", (9, 20),
     "that: '\"OK\" in stdout'"),
    ("  - id: gpu\n    run: nvidia-smi\n    when: \"sglang\" == engine\n", (8, 20),
     "when: '\"sglang\" == engine'"),
    ("  - id: gpu\n    title: \"GPU\" check\n    run: nvidia-smi\n", (7, 18),
     "title: '\"GPU\" check'"),
    ("  - id: gpu\n    title: 'GPU' check\n    run: nvidia-smi\n", (7, 18),
     "title: \"'GPU' check\""),
])
def test_a_quoted_start_is_told_to_quote_the_whole_value(body, where, written):
    error = _error(body)
    assert (error.line, error.column) == where
    assert error.hint is not None and error.hint.endswith(
        f"quote the whole value (the quotes inside stay part of it): {written}"), error.hint
    assert "line up" not in error.hint


def test_the_written_value_loads_as_the_author_meant():
    loaded = load_playbook_text(HEAD + "  - id: gpu\n    run: nvidia-smi\n    when: '\"sglang\" == engine'\n", "smoke.yaml")
    assert loaded.steps[0].when == '"sglang" == engine'


def test_quoted_values_separated_by_commas_are_told_to_write_a_list():
    error = _error("  - id: gpu\n    run: nvidia-smi\n    requires: \"python\", \"engine\"\n")
    assert (error.line, error.column) == (8, 23)
    assert error.hint == ("the value of requires: is several quoted values separated by ',': a list is written in "
                          "brackets: requires: [\"python\", \"engine\"]")


def test_a_key_out_of_line_keeps_its_indentation_hint():
    error = _error("  - id: gpu\n    run: nvidia-smi\n    expect:\n      - exit_code: 0\n   timeout: 30\n")
    assert "timeout: at column 4 lines up with no key above it" in (error.hint or "")


@pytest.mark.parametrize("line, where, hint", [
    # an apostrophe inside single quotes: the whole value was quoted, the inner quote ended it
    ("    title: 'Check the server's log'\n    run: nvidia-smi\n", (7, 30),
     "the ' inside the value of title: ends the quoted value early: write title: \"Check the server's log\""),
    ("    run: \"python -c \"import torch\"\"\n", (7, 22),
     "the \" inside the value of run: ends the quoted value early: write run: 'python -c \"import torch\"'"),
])
def test_a_quote_inside_a_quoted_value_is_told_how_to_keep_it(line, where, hint):
    error = _error("  - id: gpu\n" + line)
    assert (error.line, error.column) == where
    assert error.hint == hint


def test_the_apostrophe_fix_loads_the_text_meant():
    loaded = load_playbook_text(HEAD + "  - id: gpu\n    title: \"Check the server's log\"\n    run: nvidia-smi\n", "s.yaml")
    assert loaded.steps[0].title == "Check the server's log"

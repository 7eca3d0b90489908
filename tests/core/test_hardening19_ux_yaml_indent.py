"""A key or list item one or two columns out: the commonest first-playbook mistake.

PyYAML says "expected <block end>, but found '?'" ('?' is its token for a key), and the hint
said only "check indentation and quoting around this position". A key indented deeper than the
one above it is read as more of that key's value, and the hint for a ': ' inside a command
answered: "the value of run: holds ': ' ... write 'run: |'", advice that does not fix it."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

HEAD = "name: smoke\nsteps:\n"


@pytest.mark.parametrize("body, where, hint", [
    # the second key of a step lined up with the step's '- ' (col 3) instead of its first key
    ("  - id: gpu\n  run: nvidia-smi\n", (4, 3),
     "run: at column 3 lines up with the '- ' on line 3, not with id: (column 5): indent it to column 5, under id:"),
    # the same inside a capture item
    ("  - id: gpu\n    run: nvidia-smi\n    capture:\n      - regex: '(?P<gpu_name>[^,]+),'\n      type: str\n", (7, 7),
     "type: at column 7 lines up with the '- ' on line 6, not with regex: (column 9): indent it to column 9, under regex:"),
    # one space too deep: read as more of id:'s value
    ("  - id: gpu\n      run: nvidia-smi\n", (4, 10),
     ("run: (column 7) is indented deeper than id: on line 3 (column 5), so YAML reads it as more of id:'s value: "
      "start run: at column 5")),
    # one space too shallow after a nested list
    ("  - id: gpu\n    run: nvidia-smi\n    expect:\n      - exit_code: 0\n   timeout: 30\n", (7, 4),
     "timeout: at column 4 lines up with no key above it: the nearest, expect: on line 5, starts at column 5"),
    # the second step's '- ' one column in
    ("- id: gpu\n  run: nvidia-smi\n - id: disk\n   run: df -h\n", (5, 2),
     "this '- ' at column 2 does not line up with the '- ' on line 3 (column 1): items of one list start at the same column"),
])
def test_an_indentation_error_names_the_column_to_use(body, where, hint):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + body, "smoke.yaml")
    error = caught.value
    assert (error.line, error.column) == where, error.message
    assert hint in (error.hint or ""), error.hint


def test_a_colon_inside_a_command_keeps_its_own_advice():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + '  - id: api\n    run: curl -H "Content-Type: application/json" http://127.0.0.1:30000/v1/models\n',
                           "smoke.yaml")
    assert "the value of run: holds ': '" in (caught.value.hint or "")

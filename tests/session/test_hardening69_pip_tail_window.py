"""pip's give-up line ends a `| tail` of 500 to 1000 characters: it is found there too.

The check looked for "ERROR: " from ``len(output) - 1000``, which is negative under 1000
characters, and str.find counts a negative start from the end, as a slice does: an output of
900 characters was searched from its 800th, and a give-up line of 104 characters starting at
its 795th was missed (`pip install -r requirements.txt 2>&1 | tail -16`: fifteen "Building
wheel ... done" lines, then pip 24.0's "ERROR: Could not build wheels for flashinfer, ...").
"""

import pytest

from spec_debug.session.failures import extract_errors

GAVE_UP = ("ERROR: Could not build wheels for flashinfer, which is required to install pyproject.toml-based "
           "projects")
BUILT = "".join(f"  Building wheel for pkg{i:02d} (pyproject.toml) ... done\n" for i in range(40))


@pytest.mark.parametrize("lines", [0, 3, 10, 14, 15, 16, 17, 18, 20, 40])
def test_the_last_line_is_read_at_any_length(lines):
    output = "".join(BUILT.splitlines(keepends=True)[:lines]) + GAVE_UP + "\n"
    assert [(e.kind, e.message) for e in extract_errors(output, exit_code=0)] == [("tool_error", GAVE_UP)]

"""A step id with a line break at its end is refused like any other bad id.

The id check used re's `$`, which also matches before a final newline: `id: "gpu_check\\n"` (or
an id written as a `|` block) loaded, and the run wrote a step whose id held the newline into
run.json, the artifact folder names and every report row.
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("written", ['"gpu_check\\n"', "|\n      gpu_check"])
def test_a_step_id_ending_in_a_line_break_is_refused(write_playbook, written):
    result = run_cli("playbooks", "validate", str(write_playbook(f"name: p\nsteps:\n  - id: {written}\n    run: echo\n")))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    said = " ".join(result.stderr.split())
    assert "step id 'gpu_check\\n' must match [a-z0-9_]+" in said and "gpu_check)" in said, said

"""`- ""` (or `- '  '`) as a step: the bare-command hint took the empty text for a command and
said "write ... 'run: '" (an empty command). A step written as an empty value is told, like
`- 3`, that a step is a mapping of keys."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


@pytest.mark.parametrize("item", ['""', "'  '"])
def test_an_empty_text_step_is_told_a_step_is_a_mapping_not_an_empty_run(item):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(f"name: t\nsteps:\n  - id: ok\n    run: 'true'\n  - {item}\n", "empty.yaml")
    assert (caught.value.line, caught.value.column, caught.value.key_path) == (5, 5, "steps[1]")
    assert caught.value.hint == "a step is a mapping of keys: write '- id: step_2' and below it 'run: <command>'"

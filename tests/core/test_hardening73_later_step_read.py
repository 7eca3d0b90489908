"""A step that reads the result of a step written below it.

`run: echo {{ steps.smoke.stdout }}` in step `gpu`, with `smoke` the next step: validation said
"step 'gpu' uses steps.smoke, but no earlier step has that id" and "steps.ID names a step that
ran before this one: none yet", and the author went looking for a step that is plainly in the
file. Now it says the step runs after this one (steps run in the order written) and how to fix it.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


@pytest.mark.parametrize("field, where", [
    ("    run: echo {{ steps.smoke.stdout }}\n", (4, 10)),
    ("    run: nvidia-smi\n    when: steps.smoke.status == 'passed'\n", (5, 11)),
])
def test_a_later_step_is_named_as_later(field, where):
    text = f"name: p\nsteps:\n  - id: gpu\n{field}  - id: smoke\n    run: echo ok\n"
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "p.yaml")
    error = caught.value
    assert (error.line, error.column) == where
    assert error.bare_message == "step 'gpu' uses steps.smoke, but step 'smoke' runs after it (steps run in the order written)"
    assert error.hint == "move step 'smoke' above step 'gpu', or read steps.smoke in a step below 'smoke'"


def test_a_step_of_no_such_id_keeps_its_did_you_mean():
    text = "name: p\nsteps:\n  - id: gpu\n    run: nvidia-smi\n  - id: next\n    when: steps.gpus.status == 'failed'\n    run: echo\n"
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "p.yaml")
    assert caught.value.bare_message == "step 'next' uses steps.gpus, but no earlier step has that id"
    assert caught.value.hint == "did you mean steps.gpu?"

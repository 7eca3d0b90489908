"""`on_failure:` written with another word for the same thing: `abort` (a CI runner's), `ignore`
(Ansible's ignore_errors). The hint said "write on_failure: continue (or stop)", leaving the
author to guess which one `abort` is. Now it names the one meant and what it does; a near
spelling (`stpo`) keeps its did-you-mean.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


@pytest.mark.parametrize("written, hint", [
    ("abort", "write on_failure: stop (the rest of the steps on this host are skipped)"),
    ("Fail", "write on_failure: stop (the rest of the steps on this host are skipped)"),
    ("ignore", "write on_failure: continue (the next steps run)"),
    ("stpo", "write on_failure: stop"),
])
def test_an_on_failure_word_names_the_value_meant(written, hint):
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(f"name: p\nsteps:\n  - id: a\n    run: echo hi\n    on_failure: {written}\n", "p.yaml")
    assert (caught.value.line, caught.value.column) == (5, 17)
    assert caught.value.hint == hint

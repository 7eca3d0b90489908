"""`run: echo $'it\\'s' "x"  # note` (a plain YAML value with a comment after a bash ANSI-C
quote holding an escaped quote) was refused at load: "YAML ends this command at ' #' ...
inside a quote the command opened", because the quote scan read `\\'` inside `$'...'` as the
quote's end, as it is in '...'. bash runs it (`it's x`) and the comment is YAML's. Now the
scan knows `$'...'`; a comment inside a quote that is really open is still refused."""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.playbook import load_playbook_text
from spec_debug.playbook.loader import PlaybookError


def _playbook(run: str) -> str:
    return f"name: q\nsteps:\n  - id: a\n    run: {run}\n"


def test_an_ansi_c_quote_with_an_escaped_quote_before_a_comment_loads():
    playbook = load_playbook_text(_playbook("""echo $'it\\'s' "x"  # note"""), "q.yaml")
    [step] = playbook.steps
    assert step.run == """echo $'it\\'s' "x\""""
    assert subprocess.run(["bash", "-c", step.run], capture_output=True, text=True).stdout == "it's x\n"


# the second: an escaped `\$` before a quote makes it a plain '...' (closed by the `\'`), and
# the quote after it is open at the comment
@pytest.mark.parametrize("run", ["""echo 'it  # cut'""", """echo \\$'x\\' '  # c"""])
def test_a_comment_inside_an_open_quote_is_still_refused(run):
    with pytest.raises(PlaybookError) as err:
        load_playbook_text(_playbook(run), "q.yaml")
    assert "YAML ends this command at ' #'" in str(err.value)

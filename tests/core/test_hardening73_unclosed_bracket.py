"""A bracket, brace or quote left open.

`requires: [draft_model, hidden_states` (the `]` forgotten), `- {id: a, run: echo hi`,
`run: "echo hi`: PyYAML reads on and fails where the text stops making sense, often at the next
step's `id:` ("expected ',' or ']', but got ':'" at 8:7), and the hint said only "check
indentation and quoting around this position", on a line that is fine. Now the hint names the
line and column of the open bracket or quote and the line with it closed.
"""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

HEAD = "name: smoke\nvars:\n  draft_model: ''\n  hidden_states: ''\nsteps:\n"


def _error(body: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(HEAD + body, "smoke.yaml")
    return caught.value


@pytest.mark.parametrize("body, where, hint", [
    # the next step's id: is where PyYAML gives up
    ("  - id: a\n    run: echo hi\n    requires: [draft_model, hidden_states\n  - id: b\n    run: echo hi\n", (9, 7),
     "the [ on line 8, column 15 is never closed: end it with ] (write requires: [draft_model, hidden_states])"),
    # the last line of the file
    ("  - id: a\n    run: echo hi\n    requires: [draft_model, hidden_states\n", (8, 15),
     "the [ on line 8, column 15 is never closed: end it with ] (write requires: [draft_model, hidden_states])"),
    ("  - {id: a, run: echo hi\n", (6, 5),
     "the { on line 6, column 5 is never closed: end it with } (write - {id: a, run: echo hi})"),
    ("  - id: a\n    run: \"echo hi\n  - id: b\n    run: echo hi\n", (7, 10),
     "the \" on line 7, column 10 is never closed: end it with \" (write run: \"echo hi\")"),
    # a list spread over lines: no line to show, only the bracket
    ("  - id: a\n    run: echo hi\n    requires: [draft_model,\n      hidden_states\n  - id: b\n    run: echo hi\n", (10, 7),
     "the [ on line 8, column 15 is never closed: end it with ] after its last item"),
])
def test_the_open_bracket_or_quote_is_named(body, where, hint):
    error = _error(body)
    assert (error.line, error.column) == where, error.message
    assert error.hint == hint


def test_the_closed_line_loads():
    loaded = load_playbook_text(HEAD + "  - id: a\n    run: echo hi\n    requires: [draft_model, hidden_states]\n", "s.yaml")
    assert loaded.steps[0].requires == ["draft_model", "hidden_states"]

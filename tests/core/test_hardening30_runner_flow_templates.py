"""A template unquoted inside a flow collection: `with: {python: {{ python }}}`,
`requires: [{{ model }}]`. YAML reads the `{{ ... }}` as a mapping with a mapping for its key
(YAML 1.2.2, 7.4 flow collections), and the loader said only "a mapping cannot be a mapping
key": the quote-it hint was given for a template that starts a line's value, not one inside
[ ] or { }."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


@pytest.mark.parametrize("line, column, quoted", [
    ("    with: {python: {{ python }}}", 20, "'{{ python }}'"),
    ("    requires: [{{ python }}]", 16, "'{{ python }}'"),
])
def test_a_template_inside_braces_or_brackets_gets_the_quote_it_hint(line, column, quoted):
    text = f"name: t\nvars:\n  python: python3\nsteps:\n  - id: host\n    probe: host_info\n{line}\n"
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "flow.yaml")
    error = caught.value
    assert (error.line, error.column) == (7, column)
    assert "a value that starts with '{{' inside [ ] or { } is read by YAML as a mapping" in str(error)
    assert error.hint == f"quote it: {quoted}"

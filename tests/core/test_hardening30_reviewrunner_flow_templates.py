"""Round 30 review of the flow-collection template hint (63a4af3f). It fired on any mapping
that starts with '{{', template or not: `capture: [{{regex: 'engine=(?P<engine>\\w+)'}}]` (a
mapping wrapped twice, as a str.format source writes it) was "a value that starts with '{{' ...
not as a template" with "quote it", which turns the capture into text; it keeps "a mapping cannot
be a mapping key" at the inner key. And the quote it gave could not load: a template with a
single quote and a backslash was put in double quotes, where the backslash starts an escape."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

TEXT = "name: t\nvars:\n  p: python3\nsteps:\n  - id: a\n    probe: host_info\n    {line}\n"


def _error(line: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(TEXT.format(line=line), "flow.yaml")
    return caught.value


def test_a_mapping_wrapped_twice_is_no_template():
    error = _error("capture: [{{regex: 'v=(?P<v>\\w+)'}}]")
    assert str(error).splitlines()[0] == "flow.yaml:7:16: a mapping cannot be a mapping key (at steps[0].capture[0])"
    assert error.hint is None


def test_the_quoted_template_loads_when_it_holds_a_quote_and_a_backslash():
    error = _error("with: {python: {{ p ~ '\\n' }}}")
    assert (error.line, error.column) == (7, 20) and error.hint == "quote it: '{{ p ~ ''\\n'' }}'"
    fixed = load_playbook_text(TEXT.format(line="with: {python: " + error.hint.removeprefix("quote it: ") + "}"), "flow.yaml")
    assert fixed.steps[0].with_ == {"python": "{{ p ~ '\\n' }}"}

"""A check expression is parsed as `{{ expression }}`, and Jinja's message named the wrapper:
`that: facts.n >= (3` said "unexpected '}', expected ')'", a '}' that is nowhere in the file,
and a stray quote's "unexpected char at 14" counted the wrapper's three characters. The
message now speaks of the expression; the place is still the check's line:column."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

UNCLOSED = """name: unclosed
steps:
  - id: a
    run: echo 5
    capture:
      - regex: (?P<n>\\d+)
    expect:
      - that: facts.n >= (3
"""

STRAY_QUOTE = """name: stray
steps:
  - id: a
    run: echo 5
    when: "facts.n >= '3"
"""

OWN_BRACE = """name: own
steps:
  - id: a
    run: echo 5
    when: "facts.n == {'a': 1}}"
"""


@pytest.mark.parametrize(("text", "error"), [
    (UNCLOSED, "8:15: template syntax error in step 'a': unexpected end of expression, expected ')' "
               "(at steps[0].expect[0].that)"),
    (STRAY_QUOTE, "5:11: template syntax error in step 'a': unexpected char \"'\" at 11 (of the expression) "
                  "(at steps[0].when)"),
    (OWN_BRACE, "5:11: template syntax error in step 'a': unexpected '}' (at steps[0].when)"),
])
def test_an_expression_syntax_error_names_what_the_author_wrote(write_playbook, text: str, error: str) -> None:
    playbook = write_playbook(text)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines()[0] == f"error: {playbook}:{error}"

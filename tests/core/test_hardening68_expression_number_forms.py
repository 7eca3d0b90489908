"""A number written as Python or YAML allow it but Jinja does not (`.5`, `017`) is refused, as
before, with the number to write.

Jinja's lexer reads a number with a digit before its point and no leading zero
(jinja2/lexer.py: float_re, integer_re `0(_?0)*` or `[1-9]...`): `that: facts.ratio > .5` was
refused as "unexpected '.'" with no hint, and `facts.n > 017` (read as 0, then 17) was told to
"join the parts with and / or / an operator, or quote text", which fixes neither."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = """name: th
steps:
  - id: bench
    run: echo ratio=0.7
    expect:
      - that: "{expression}"
"""


@pytest.mark.parametrize(("expression", "message", "hint"), [
    ("facts.ratio > .5", "unexpected '.'", "Jinja reads a number with a digit before its point: write 0.5 for .5"),
    ("facts.ratio > -.25", "unexpected '.'", "Jinja reads a number with a digit before its point: write 0.25 for .25"),
    ("facts.n > 017", "expected token 'end of print statement', got 'integer'",
     "Jinja reads 017 as 0 and then 17: write 17 (or 0o17 for an octal number)"),
])
def test_a_number_jinja_cannot_read_gets_the_number_to_write(tmp_path, expression, message, hint):
    playbook = tmp_path / "th.yaml"
    playbook.write_text(PLAYBOOK.format(expression=expression))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2, result.stdout + result.stderr
    said = " ".join(result.stderr.split())
    assert f"template syntax error in step 'bench': {message} (at steps[0].expect[0].that)" in said, said
    assert said.endswith(f"hint: {hint}"), said


@pytest.mark.parametrize("expression", ["facts.ratio > 0.5", "facts.n > 0", "facts.v == '0.17'", "facts.r[0] > 1.5"])
def test_numbers_jinja_reads_still_validate(tmp_path, expression):
    playbook = tmp_path / "th.yaml"
    playbook.write_text(PLAYBOOK.format(expression=expression))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 0, result.stdout + result.stderr

"""A key out of line after a `run: |` script: the hint names a key of the playbook to line it up
with, never a line of the script. A heredoc in the script writes YAML of its own (`retries: 1`,
`- id: b`); the hint said "the nearest, retries: on line 7 ... move expect: there", which put
the key inside the script. The script's own indentation, however odd, still loads."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

SCRIPT_WRITES_YAML = """\
name: rewrite_config
description: Writes the router's config, then checks it
steps:
  - id: write
    run: |
      cat > /tmp/router.yaml <<EOF
      retries: 1
          - backend: a
        timeout: 3
      EOF
    {key}: []
"""


def test_a_key_out_of_line_after_a_script_is_lined_up_with_the_playbook_not_the_script():
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(SCRIPT_WRITES_YAML.replace("    {key}", "     expect"), "p.yaml")
    hint = caught.value.hint or ""
    assert "the nearest, run: on line 5, starts at column 5" in hint, hint
    assert "retries" not in hint and "timeout" not in hint


def test_the_script_with_its_own_indentation_loads():
    playbook = load_playbook_text(SCRIPT_WRITES_YAML.format(key="expect"), "p.yaml")
    assert "retries: 1\n    - backend: a\n  timeout: 3\n" in playbook.steps[0].run

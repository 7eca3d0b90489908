"""An Ansible filter that spec-debug's templates do not have is named as Ansible's, with the way
to do it here, not with the closest filter name.

Before: the closest name was offered, which for Ansible's filters pointed away from what the
author meant: `| from_json` "did you mean 'tojson'?" (the opposite), `| flatten` "did you mean
'float'?", `| combine` 'min', `| b64encode` 'urlencode', `| split` 'list', `| regex_replace`
'replace' (no pattern); `| basename` and `| mandatory` were told "Ansible's own filters and
tests do not exist here", which `bool` and `ternary` now contradict.

Now each says "(an Ansible filter, which spec-debug's templates do not have)" and, where there is
one, what to write here; a misspelt filter still gets its closest name.
"""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: filters
vars:
  model_dir: /models/llama
steps:
  - id: config
    run: |
      echo start
      cat {{{{ model_dir | {used} }}}}/config.json
"""

NOT_HERE = "(an Ansible filter, which spec-debug's templates do not have)"


def _validate(write_playbook, used: str) -> str:
    result = run_cli("playbooks", "validate", str(write_playbook(PLAYBOOK.format(used=used))))
    assert result.code == 2 and "Traceback" not in result.stderr, result.stderr
    return " ".join((result.stdout + result.stderr).split())


@pytest.mark.parametrize("used, said", [
    ("from_json", "No filter named 'from_json' (an Ansible filter, which spec-debug's templates do not have): read "
                  "JSON output with a capture of type: json (or json: PATH) (at steps[0].run)"),
    ("to_json", "No filter named 'to_json' (an Ansible filter, which spec-debug's templates do not have): write "
                "| tojson (at steps[0].run)"),
    ("basename", "No filter named 'basename' (an Ansible filter, which spec-debug's templates do not have): write "
                 "model_dir.split('/') | last (at steps[0].run)"),
    ("regex_replace('/', '_')", "No filter named 'regex_replace' (an Ansible filter, which spec-debug's templates "
                                "do not have): Jinja's | replace('old', 'new') replaces plain text; for a pattern, "
                                "capture the part you want with a capture regex (at steps[0].run)"),
    ("flatten", "No filter named 'flatten' (an Ansible filter, which spec-debug's templates do not have) "
                "(at steps[0].run)"),
    ("combine({'a': 1})", f"No filter named 'combine' {NOT_HERE} (at steps[0].run)"),
])
def test_an_ansible_filter_is_named_as_one_with_the_way_here(write_playbook, used, said):
    message = _validate(write_playbook, used)
    assert ":8:" in message and message.endswith(said), message
    assert "did you mean" not in message, message


def test_a_misspelt_filter_still_gets_the_closest_name(write_playbook):
    message = _validate(write_playbook, "lowr")
    assert message.endswith("No filter named 'lowr'; did you mean 'lower'? (at steps[0].run)"), message

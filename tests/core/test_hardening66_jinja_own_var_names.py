"""A var named like one of Jinja's own names is refused where it is written.

Jinja's parser reads `true`, `false`, `none` (and `True`, `False`, `None`) as its constants and
passes the template itself as `self`, whatever the render context holds. A playbook with
`vars: {none: abc}` validated and ran `echo "v={{ none }}"` as `echo "v="`; a var `self` reached
the host as `<TemplateReference None>`. Such a var is now refused at load (exit 2, file:line:col),
as a var named like spec-debug's own `host` or `facts` already was."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text
from tests.conftest import run_cli

PLAYBOOK = """\
name: flags
vars:
  port: 30000
  "{name}": abc  # quoted: YAML reads an unquoted true as a boolean
steps:
  - id: show
    run: echo "v={{{{ {name} }}}} {{{{ port }}}}"
"""


@pytest.mark.parametrize("name", ["none", "None", "true", "True", "false", "False", "self"])
def test_a_var_jinja_reads_as_its_own_is_refused_at_its_key(name):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(name=name), source="flags.yaml")
    error = raised.value
    assert (error.line, error.column) == (4, 3)
    assert f"var {name!r} is hidden by" in str(error)
    assert f"{{{{ {name} }}}} never renders this var" in str(error)
    assert f"{name.lower()}_value" in error.hint


@pytest.mark.parametrize("name", ["TRUE", "nones", "self_ip", "loop_count", "range_max"])
def test_names_jinja_does_not_take_still_load(name):
    playbook = load_playbook_text(PLAYBOOK.format(name=name), source="flags.yaml")
    assert playbook.vars[name] == "abc"


def test_the_first_such_var_as_written_is_named(tmp_path):
    text = "name: x\nvars:\n  self: a\n  none: b\nsteps:\n  - id: a\n    run: echo {{ self }}\n"
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(text, source="x.yaml")
    assert (raised.value.line, raised.value.column) == (3, 3) and "'self'" in str(raised.value)


def test_run_refuses_before_any_host_is_touched(tmp_path):
    playbook = tmp_path / "flags.yaml"
    playbook.write_text(PLAYBOOK.format(name="none"), encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert result.code == 2
    assert "flags.yaml:4:3: var 'none' is hidden by Jinja's constant none" in " ".join(result.stderr.split())
    assert not out.exists() or not any(out.iterdir())

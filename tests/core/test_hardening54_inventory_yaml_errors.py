"""A YAML inventory, or a group_vars file beside it, that is not valid YAML.

It was refused with PyYAML's own five-line text: "while scanning a quoted scalar / in
"<unicode string>", line 4, column 21: ... found unexpected end of stream / in "<unicode
string>", line 5, column 1:" and a caret under an empty line past the end of the file. A
playbook's or a --var-file's YAML error is one line at file:line:column with a hint; an
inventory's now is too. Through the real CLI; the hosts connect with ansible_connection=local.
"""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = "name: p\nvars:\n  where: nowhere\nsteps:\n  - id: a\n    run: echo {{ where }}\n"


def _refused(tmp_path, inventory) -> list[str]:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "-i", str(inventory), "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert "<unicode string>" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    assert not (tmp_path / "runs").exists()
    return result.stderr.strip().splitlines()


def test_an_unclosed_quote_in_a_yaml_inventory_is_one_line_at_its_place(tmp_path):
    inventory = tmp_path / "hosts.yml"
    inventory.write_text('all:\n  hosts:\n    gpu01:\n      ansible_host: "127.0.0.1\n')
    error, hint = _refused(tmp_path, inventory)
    assert error == f"error: {inventory}:4:21: not valid YAML: found unexpected end of stream", error
    assert hint == "  hint: the file ends inside a quote or a [ ] / { } that is never closed", hint


def test_a_tab_in_group_vars_is_named_with_the_spaces_hint(tmp_path):
    (tmp_path / "inv" / "group_vars").mkdir(parents=True)
    (tmp_path / "inv" / "hosts").write_text("[gpus]\ngpu01 ansible_connection=local\n")
    group_vars = tmp_path / "inv" / "group_vars" / "gpus.yml"
    group_vars.write_text("model: llama\n\tport: 30000\n")
    error, hint = _refused(tmp_path, tmp_path / "inv")
    assert error.startswith(f"error: {group_vars}:2:1: not valid YAML: found character '\\t'"), error
    assert "YAML indents with spaces only" in hint, hint


def test_a_misindented_key_in_group_vars_points_at_it(tmp_path):
    (tmp_path / "inv" / "group_vars").mkdir(parents=True)
    (tmp_path / "inv" / "hosts").write_text("[gpus]\ngpu01 ansible_connection=local\n")
    group_vars = tmp_path / "inv" / "group_vars" / "gpus.yml"
    group_vars.write_text("model: llama\n port: 30000\nengine: sglang\n")
    error, hint = _refused(tmp_path, tmp_path / "inv")
    assert error == f"error: {group_vars}:2:6: not valid YAML: mapping values are not allowed here", error
    assert hint == "  hint: check indentation and quoting around this position", hint

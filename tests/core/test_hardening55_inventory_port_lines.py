"""An inventory's ansible_port that is not a port, refused with the line that wrote it.

It was refused as "hosts.ini: host gpu01: ansible_port 'abc' is not a number": in an inventory
of a hundred hosts and groups the user had to search for the line. A playbook's errors and an
inventory's YAML errors name file:line; an INI inventory's bad port now does too (the host's
own line, or the [group:vars] line the host inherits it from), and a group_vars file that sets
the variable again is not blamed on the INI line it overrode. Through the real CLI.
"""

from __future__ import annotations

from tests.conftest import run_cli

PLAYBOOK = "name: p\nsteps:\n  - id: a\n    run: echo hi\n"


def _refusal(tmp_path, inventory) -> str:
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    result = run_cli("run", str(tmp_path / "p.yaml"), "-i", str(inventory), "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "runs").exists()
    return result.stderr.strip().splitlines()[0]


def test_a_host_lines_port_names_that_line(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu01 ansible_host=127.0.0.1\ngpu02 ansible_host=127.0.0.2 ansible_port=abc\n")
    assert _refusal(tmp_path, inventory) == f"error: {inventory}:3: host gpu02: ansible_port 'abc' is not a number"


def test_a_group_vars_section_port_names_its_line_and_the_older_variable_name(tmp_path):
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpu[01:02] ansible_host=127.0.0.1\n\n[gpus:vars]\nmodel=llama\nansible_ssh_port=70000\n")
    assert _refusal(tmp_path, inventory) == f"error: {inventory}:6: host gpu01: ansible_ssh_port 70000: Bad port"


def test_a_file_of_an_inventory_folder_is_named_not_the_folder(tmp_path):
    folder = tmp_path / "inv"
    folder.mkdir()
    (folder / "hosts").write_text("[gpus]\ngpu01 ansible_host=127.0.0.1 ansible_port=22x\n")
    assert _refusal(tmp_path, folder) == f"error: {folder / 'hosts'}:2: host gpu01: ansible_port '22x' is not a number"


def test_group_vars_that_set_the_port_again_are_not_blamed_on_the_ini_line(tmp_path):
    folder = tmp_path / "inv"
    (folder / "group_vars").mkdir(parents=True)
    (folder / "hosts").write_text("[gpus]\ngpu01 ansible_host=127.0.0.1\n\n[gpus:vars]\nansible_port=2222\n")
    (folder / "group_vars" / "gpus.yml").write_text("ansible_port: 80000\n")
    error = _refusal(tmp_path, folder)
    assert error == f"error: {folder}: host gpu01: ansible_port 80000: Bad port", error

"""A hand-written YAML inventory with one list where a mapping goes (`all: {children: [gpus]}`)
was read as `ansible-inventory --list` JSON because of that list, and refused for its other,
correct groups ("gpus.hosts must be a list of names"), sending the author to fix what was right.
A group whose hosts or children are a mapping makes it a YAML inventory; its error names the list."""

from __future__ import annotations

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.inventory import parse_yaml_inventory

MIXED = """\
all:
  children:
    - gpus
gpus:
  hosts:
    gpu01:
      ansible_host: 10.0.0.5
"""


def test_a_list_in_a_yaml_inventory_is_named_where_it_is():
    with pytest.raises(UsageError, match=r"all\.children must be a mapping"):
        parse_yaml_inventory(MIXED, "hosts.yaml")


def test_listed_inventory_still_reads():
    inventory = parse_yaml_inventory('{"_meta": {"hostvars": {"gpu01": {"ansible_host": "10.0.0.5"}}},'
                                     ' "all": {"children": ["gpus"]}, "gpus": {"hosts": ["gpu01"]}}', "hosts.json")
    assert inventory.hosts["gpu01"]["ansible_host"] == "10.0.0.5"
    inventory = parse_yaml_inventory('{"gpus": ["gpu01", "gpu02"], "all": {"children": ["gpus"]}}', "hosts.json")
    assert set(inventory.hosts) == {"gpu01", "gpu02"}

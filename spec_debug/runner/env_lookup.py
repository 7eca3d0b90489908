"""Ansible's env lookup, `{{ lookup('env', 'NAME') }}`: the controller's environment variable.

Inventories write secrets and paths so, as Ansible's docs suggest (`ansible_password: "{{
lookup('env', 'GPU_PASSWORD') }}"`, `hf_token: "{{ lookup('env', 'HF_TOKEN') }}"`). It is the
one lookup read here, for connection variables (inventory.py) and a playbook's vars an
inventory sets (engine.py) alike (ansible/ansible: lib/ansible/plugins/lookup/env.py)."""

from __future__ import annotations

import os
import re
from typing import Callable

ENV_LOOKUP = re.compile(r"""\{\{\s*lookup\(\s*(['"])(?:ansible\.builtin\.)?env\1\s*,\s*(['"])(\w+)\2\s*\)\s*\}\}""")


def env_lookup_values(text: str) -> dict[str, str | None]:
    """The variables text's env lookups read, with their values (None: unset)."""
    return {match.group(3): os.environ.get(match.group(3)) for match in ENV_LOOKUP.finditer(text)}


def env_lookups_done(text: str, unset: Callable[[str], str] | None = None) -> str:
    """text with each env lookup in it replaced by the variable's value. An unset or empty one
    gives unset(NAME), or '' as Ansible's lookup gives (its `default` option)."""

    def value_of(match: re.Match[str]) -> str:
        variable = match.group(3)
        found = os.environ.get(variable)
        if found:
            return found
        return unset(variable) if unset is not None else ""

    return ENV_LOOKUP.sub(value_of, text)

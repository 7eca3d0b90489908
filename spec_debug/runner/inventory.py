"""Ansible inventories (INI and YAML) and `--limit` patterns, so a team's existing host lists
work unchanged.

What we follow (ansible/ansible: lib/ansible/plugins/inventory/ini.py and yaml.py,
lib/ansible/inventory/manager.py; docs "How to build your inventory" and "Patterns"):
- groups with `hosts`, `vars` and `children`; `all` and `ungrouped` exist implicitly;
- a group that is its own descendant (`[a:children] b`, `[b:children] a`) is refused, as Ansible
  refuses it ("creates a recursive dependency loop");
- host ranges `gpu[01:16]` in host names; `host:port` in INI host lines and YAML host keys (a host
  written again with another port keeps its first, as Ansible's InventoryData.add_host: warned);
- variable precedence: `all` < parent groups < child groups (by depth, then name) < host;
- `ansible_host`, `ansible_port`, `ansible_user`, `ansible_ssh_private_key_file` and
  `ansible_connection: local` say how to connect; `ansible_python_interpreter` is the host's
  `python` (what probes run with) unless `python` is set; `ansible_password` (also
  `ansible_ssh_pass`, `ansible_ssh_password`; plain, or `{{ lookup('env', 'NAME') }}`) is the
  login password for hosts that take one, kept out of vars and records; `{{ lookup('env', 'NAME') }}`
  inside a connection variable (`"{{ lookup('env','HOME') }}/.ssh/lab.pem"`) or a var one uses
  is read (an unset NAME refused), as it is in a playbook var's value (engine.py; unset, it
  gives '' there, as in Ansible), and a
  template over the host's vars (`"{{ inventory_hostname }}.ib"`, `"{{ lab_user }}"`) rendered,
  one that cannot render refused; `ansible_become` (which spec-debug does not do) is warned of;
  every other `ansible_*` variable is dropped and the rest become playbook vars, except `ansible_ssh_args`,
  `ansible_ssh_common_args` and `ansible_ssh_extra_args`, whose `-o Key=Value`, `-J`, `-p`, `-l`
  and `-i` options (bastion ProxyCommand/ProxyJump setups) apply as on ssh's command line, in
  that order (lib/ansible/plugins/connection/ssh.py, _build_command), and
  `ansible_host_key_checking: false`, which is `-o StrictHostKeyChecking=no` there, and
  `ansible_ssh_timeout` (else `ansible_timeout`), which is `-o ConnectTimeout=N` there;
- `remote_user`, `remote_port`, `private_key_file`, `timeout`, `host_key_checking` and [ssh_connection]'s ssh_args,
  ssh_common_args and ssh_extra_args of the ansible.cfg Ansible would read (ansible_cfg.py) stand for the inventory
  variables a host's inventory does not set;
- an inventory may be a folder of inventory files, and `group_vars/` and `host_vars/` beside
  the inventory (files `NAME`, `NAME.yml`, `NAME.yaml`, `NAME.json`, or a folder `NAME/` of
  them) add vars, overriding the inventory's own for the same group or host; values Ansible
  Vault encrypted (`!vault`, or a whole `$ANSIBLE_VAULT` file) are left out, unread;
- limit patterns `a:b`, `a,b`, `&group` (intersection), `!group` (exclusion), globs, `~regex`,
  `@file` (its lines, e.g. the hosts that failed),
  and a group's subscript `gpus[0]`, `gpus[-1]`, `gpus[1:3]` (inclusive), `gpus[2:]`; where no
  group has the name before the brackets, `gpu[01-04]` is a host range, as in `--hosts`.
INI values are kept as strings (Ansible's INI plugin guesses types; we leave that to the
playbook's var types). A YAML number whose text a float loses (`vllm_version: 0.10`, 0.1 to
YAML 1.1 and so to Ansible) is refused with a "quote it" hint where it becomes a host's var.
"""

from __future__ import annotations

import ast
import decimal
import difflib
import fnmatch
import io
import os
import re
import shlex
import sys
import tokenize
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from spec_debug.errors import UsageError
from spec_debug.playbook.loader import text_encoding
# The playbook loader's test for a number YAML reshapes (`0.10` -> 0.1), shared, not redone.
from spec_debug.playbook.yaml_nodes import (
    MAX_DEPTH, MAX_TEXT, MAX_VALUES, _BoundedLoader, _clamp_line, _error_position, _reshaped, _tab_hint, _TooDeep, _TooManyValues, _TooMuchText,
)
from spec_debug.runner.ansible_cfg import login_defaults_with_origin
from spec_debug.runner.env_lookup import ENV_LOOKUP, env_lookups_done
from spec_debug.runner.hosts import HostSpec, expand_host_pattern, ipv6_host
from spec_debug.record import some_names
from spec_debug.runner.ssh_args import added_up, parse_ssh_args
from spec_debug.store import packed_file

_CONNECTION_VARS = {
    "ansible_host": "address",
    "ansible_ssh_host": "address",
    "ansible_port": "port",
    "ansible_ssh_port": "port",
    "ansible_user": "user",
    "ansible_ssh_user": "user",
    "ansible_ssh_private_key_file": "identity_file",
    "ansible_private_key_file": "identity_file",
}


@dataclass
class Group:
    name: str
    hosts: list[str] = field(default_factory=list)
    children: list[str] = field(default_factory=list)
    vars: dict[str, Any] = field(default_factory=dict)


@dataclass
class Inventory:
    path: str
    hosts: dict[str, dict[str, Any]] = field(default_factory=dict)
    """Host name -> its own vars, in the order hosts first appear."""
    groups: dict[str, Group] = field(default_factory=dict)
    declared: set[str] = field(default_factory=lambda: {"all", "ungrouped"})
    """Groups a file declares: INI [g] or [g:children], any group of a YAML inventory."""
    named: dict[str, str] = field(default_factory=dict)
    """Group -> where an INI file first names it without declaring it ([g:vars], a child line)."""
    var_lines: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """("host" or "group", its name, var) -> ``file:line`` of the INI line that set it last, for a
    refusal to name (none where a YAML file or group_vars/host_vars set it last)."""
    var_files: dict[tuple[str, str, str], str] = field(default_factory=dict)
    """The same keys -> the group_vars/host_vars file that set it last, which a `requires:` skip
    of a var left empty there names (HostSpec.var_sources)."""
    warnings: list[str] = field(default_factory=list)
    """What the files hold that Ansible warns of and reads all the same (a key given twice in a
    mapping: the last one is used), for the run to say before it starts."""
    _login_defaults: dict[str, tuple[str, str]] | None = field(default=None, repr=False, compare=False)

    def group(self, name: str) -> Group:
        if name not in self.groups:
            self.groups[name] = Group(name)
        return self.groups[name]

    def add_host(self, name: str, group: str, host_vars: dict[str, Any] | None = None, port: str | None = None,
                 written: str = "") -> None:
        """``port``: from a `host:port` pattern (``written``, with its file:line). As Ansible's
        InventoryData.add_host, the port is the host's only where the host is new (Host(name,
        port)); a later `gpubox:2202` beside `gpubox:2201` is the same host, still on 2201 (an
        `ansible_port=` var on that line does set it). Taken last, the port of the last line won,
        and either way the second machine was silently not checked: said in a warning."""
        own = self.hosts.get(name)
        if own is None:
            own = self.hosts[name] = {} if port is None else {"ansible_port": port}
        elif port is not None and str(own.get("ansible_port")) != port and "ansible_port" not in (host_vars or {}):
            first = own.get("ansible_port")
            self.warnings.append(
                f"{written}: {name} is already a host of this inventory "
                f"({'port ' + str(first) if first is not None else 'no port of its own'}), and "
                f"Ansible reads `{name}:{port}` as that same host with its first port: no second host was added, "
                f"so port {port} is not checked; to check both, name each: {name}_{port} ansible_host={name} ansible_port={port}")
        own.update(host_vars or {})
        members = self.group(group).hosts
        if name not in members:
            members.append(name)

    def parents(self) -> dict[str, set[str]]:
        found: dict[str, set[str]] = {}
        for group in self.groups.values():
            for child in group.children:
                found.setdefault(child, set()).add(group.name)
        return found

    def groups_of(self, host: str) -> set[str]:
        """Every group the host belongs to, directly or through children, `all` included."""
        parents = self.parents()
        direct = [g.name for g in self.groups.values() if host in g.hosts]
        found: set[str] = {"all"}
        stack = list(direct)
        while stack:
            name = stack.pop()
            if name in found and name != "all":
                continue
            found.add(name)
            stack += sorted(parents.get(name, set()) - found)
        return found

    def group_hosts(self, name: str) -> list[str] | None:
        """Hosts of a group and of its children, recursively, in Ansible's order (the group's
        own, then its children's, level by level: Group.get_hosts, lib/ansible/inventory/group.py),
        which a `group[0]` subscript counts in; None if no such group."""
        if name == "all":
            return list(self.hosts)
        if name not in self.groups:
            return None
        seen: set[str] = set()
        hosts: list[str] = []
        stack = [name]
        while stack:
            current = stack.pop(0)
            if current in seen:
                continue
            seen.add(current)
            group = self.groups.get(current)
            if group is None:
                continue
            hosts += [h for h in group.hosts if h not in hosts]
            stack += group.children
        return hosts

    def host_vars(self, host: str) -> dict[str, Any]:
        depth = self._depths()
        merged: dict[str, Any] = {}
        for name in sorted(self.groups_of(host), key=lambda g: (depth.get(g, 0), g)):
            if name in self.groups:
                merged.update(self.groups[name].vars)
        merged.update(self.hosts.get(host, {}))
        return merged

    def specs(self) -> list[HostSpec]:
        return [self.spec(name) for name in self.hosts]

    def spec(self, name: str) -> HostSpec:
        host_vars = self.host_vars(name)
        if self._login_defaults is None:
            self._login_defaults = login_defaults_with_origin()
        origins: dict[str, str] = {}
        for variable, (value, origin) in self._login_defaults.items():
            # ansible.cfg's remote_user / private_key_file, below every inventory variable of the same setting
            setting = _setting(variable)
            # A variable set empty (`ansible_user:`) is unset to Ansible, which then reads
            # ansible.cfg (config/manager.py, _loop_entries skips None)
            if not any(_setting(key) == setting and given is not None for key, given in host_vars.items()):
                host_vars[variable] = value
                origins[variable] = origin
        spec = _spec(name, host_vars, self.path, origins, lambda key: self._where_set(name, key))
        spec.var_sources.update((key, self._where_set(name, key, files=True)) for key in spec.vars if key in host_vars)
        return spec

    def _where_set(self, host: str, key: str, files: bool = False) -> str:
        """Where the value of ``key`` that ``host`` gets was written: ``file:line`` for an INI
        line (the host's own, else the deepest group's that sets it, as host_vars merges them),
        else the inventory's path (a YAML file, group_vars/host_vars; with ``files``, the
        group_vars/host_vars file)."""
        def where(scope: str, name: str) -> str:
            found = self.var_lines.get((scope, name, key))
            if found is None and files:
                found = self.var_files.get((scope, name, key))
            return self.path if found is None else found

        if key in self.hosts.get(host, {}):
            return where("host", host)
        depth = self._depths()
        for group in sorted(self.groups_of(host), key=lambda g: (depth.get(g, 0), g), reverse=True):
            if group in self.groups and key in self.groups[group].vars:
                return where("group", group)
        return self.path

    def _depths(self) -> dict[str, int]:
        """Distance of each group from `all` (the longest path, as Ansible orders groups)."""
        parents = self.parents()
        depths: dict[str, int] = {}

        def depth(name: str, trail: frozenset[str]) -> int:
            if name in depths:
                return depths[name]
            above = [p for p in parents.get(name, set()) if p not in trail and p != "all"]
            value = 1 + max((depth(p, trail | {name}) for p in above), default=0)
            depths[name] = value
            return value

        for name in self.groups:
            if name != "all":
                depth(name, frozenset())
        depths["all"] = 0
        return depths


def _setting(variable: str) -> str:
    """The setting an inventory variable stands for: ansible_ssh_user and ansible_user are both
    the user, ansible_ssh_host_key_checking and ansible_host_key_checking both host_key_checking."""
    if variable in _HOST_KEY_CHECKING_VARS:
        return _HOST_KEY_CHECKING_VARS[0]
    if variable in _TIMEOUT_VARS:
        return _TIMEOUT_VARS[0]
    return _CONNECTION_VARS.get(variable, variable)  # ansible_ssh_args has one name only


# Files in an inventory folder that are not inventories (Ansible: INVENTORY_IGNORE_EXTS and
# INVENTORY_IGNORE_PATTERNS, lib/ansible/config/base.yml); scripts would be dynamic inventories.
_IGNORED_SUFFIXES = {".retry", ".md", ".txt", ".rst", ".orig", ".bak", ".cfg", ".swp", ".pyc", ".py", ".sh", ".j2"}
_VARS_SUFFIXES = ("", ".yml", ".yaml", ".json")
_VAULT_HEADER = "$ANSIBLE_VAULT"


def load_inventory(path: Path) -> Inventory:
    """Read an INI or YAML inventory file, or a folder of them, plus group_vars/ and host_vars/."""
    path = Path(path)
    if path.is_dir():
        sources = [
            p for p in sorted(path.iterdir())
            if p.is_file() and not p.name.startswith(".") and not p.name.endswith("~") and p.suffix not in _IGNORED_SUFFIXES
        ]
        if not sources:
            raise UsageError(f"inventory folder {path} holds no inventory file", hint="put an INI or YAML inventory (e.g. hosts.yml) in it")
        inventory = Inventory(str(path))
        for source in sources:
            _merge(inventory, _load_file(source))
        _reconcile_ungrouped(inventory)
        base = path
    else:
        inventory = _load_file(path)
        base = path.parent
    _refuse_undeclared(inventory)
    _refuse_loops(inventory)
    _add_vars_folders(inventory, base)
    return inventory


def _refuse_loops(inventory: Inventory) -> None:
    """Ansible refuses a group that is its own descendant (`[a:children] b` and `[b:children] a`):
    "Adding group 'a' as child to 'b' creates a recursive dependency loop" (ansible/ansible:
    lib/ansible/inventory/group.py, add_child_group). Taken as it was, the loop's groups were
    each other's parent, their depths came from the order they were met, and so which one's
    vars (an ansible_user, a model path) a host got."""
    done: set[str] = set()

    def visit(name: str, trail: list[str]) -> None:
        if name in trail:
            raise _loop_error(inventory.path, [*trail[trail.index(name):], name])
        if name in done:
            return
        group = inventory.groups.get(name)
        for child in group.children if group is not None else []:
            visit(child, [*trail, name])
        done.add(name)

    for name in list(inventory.groups):
        visit(name, [])


def _loop_error(path: str, loop: list[str]) -> UsageError:
    return UsageError(f"{path}: the groups {' -> '.join(loop)} are each other's children, a loop "
                      "(Ansible refuses it too: a recursive dependency loop)",
                      hint=f"remove {loop[-1]} from the children of {loop[-2]}")


def _refuse_undeclared(inventory: Inventory) -> None:
    """Ansible refuses an INI `[g:vars]` or `[parent:children]` line naming a group that no
    [g] or [g:children] section declares (ansible/ansible: lib/ansible/plugins/inventory/ini.py,
    _parse, pending_declarations). Taken as an empty group, a typo (`[gpu:vars]` for [gpus],
    `h10O` under [gpus:children]) ran without its ansible_user, or without a whole group of
    hosts, with nothing said. Checked over every file of an inventory folder, as the groups of
    one file count in the next there."""
    for name, where in inventory.named.items():
        if name in inventory.declared:
            continue
        known = sorted(inventory.declared - {"all", "ungrouped"})
        close = difflib.get_close_matches(name, known, n=1)
        raise UsageError(f"{where} names the group {name!r}, which no [{name}] section declares (Ansible refuses it too)",
                         hint=(f"fix the name (did you mean {close[0]}?) or declare" if close else "declare")
                         + f" the group: [{name}] with its hosts, or [{name}:children]")


def _load_file(path: Path) -> Inventory:
    """One INI or YAML inventory (chosen by content, like Ansible's auto plugins)."""
    text = _read_text(Path(path), "inventory")
    if text.startswith("#!"):
        # A dynamic inventory script: Ansible runs it with --list (lib/ansible/plugins/inventory/
        # script.py); we never run code from an inventory, but read what it prints.
        raise UsageError(f"{path} is an inventory script (it starts with #!), which spec-debug does not run",
                         hint=f"save what it prints and pass that: {path} --list > hosts.json, then -i hosts.json")
    if Path(path).suffix in (".yml", ".yaml", ".json") or _looks_like_yaml(text) or _parses_as_mapping(text, Path(path)):
        return parse_yaml_inventory(text, str(path))
    return parse_ini_inventory(text, str(path))


# Far above any host list (10,000 hosts in INI are about 1 MB) and below what hurts: `-i /dev/zero`
# was read until Python's MemoryError (a traceback), `-i model.safetensors` read whole into memory
# to be refused as "not UTF-8 text".
MAX_INVENTORY_BYTES = 16 * 2**20


def _read_text(path: Path, what: str) -> str:
    """The text of an inventory or vars file, read as the playbook and var files are: with a
    bound, a compressed file named as such with its unpacker (`hosts.ini.gz` from a ticket was
    "not UTF-8 text"), UTF-16 as PowerShell's `>` writes it. utf-8-sig: an inventory saved by a
    Windows editor ("UTF-8 with BOM") began with an invisible mark, so its first `[gpus]` was a
    host named '\\ufeffgpus', the group's hosts were ungrouped and its [gpus:vars]
    (ansible_user=...) applied to no host, with nothing said."""
    try:
        with open(path, "rb") as handle:
            raw = handle.read(MAX_INVENTORY_BYTES + 1)
    except OSError as exc:
        raise UsageError(f"cannot read {what} {path}: {exc.strerror or exc}") from None
    if len(raw) > MAX_INVENTORY_BYTES:
        raise UsageError(f"cannot read {what} {path}: over {MAX_INVENTORY_BYTES // 2**20} MiB, too big to be one")
    packed = packed_file(path, raw, f"the {what} in it")
    if packed is not None:
        raise UsageError(f"{what} {path} is {packed[0]}", hint=packed[1])
    encoding = text_encoding(raw)
    try:
        return raw.decode("utf-8-sig" if encoding == "utf-8" else encoding)
    except UnicodeDecodeError:
        raise UsageError(f"cannot read {what} {path}: not UTF-8 text") from None


def _parses_as_mapping(text: str, path: Path) -> bool:
    """Whether a file not named .ini reads as a YAML (or JSON) mapping: Ansible's yaml plugin
    tries a file without a YAML extension before the INI one and keeps it when it is a
    mapping (lib/ansible/plugins/inventory/yaml.py, verify_file and parse). Guessed from the
    first line alone, `all:   # the lab`, a flow mapping `all: {hosts: ...}` and JSON saved as
    `hosts` were read as INI: refused as "expected key=value after the host name", or hosts
    named `all:` and `gpu01:` tried. An INI inventory is no mapping of groups in YAML (`[gpus]`
    is a list, then an error; host lines are plain text), but a lone host line with `: ` in a
    value (`gpu01 note="rack: 3"`) is a mapping of a text: hence groups must map to a mapping,
    a list or nothing, under names without blanks (Ansible then falls back to INI too)."""
    if path.suffix == ".ini":
        return False
    loader = _AnsibleYamlLoader(text)
    try:
        data = loader.get_single_data()
    except yaml.YAMLError:
        return False
    except (_TooDeep, _TooManyValues, _TooMuchText) as exc:
        raise _past_bound(exc, str(path), text, "inventory") from None
    finally:
        loader.dispose()
    return isinstance(data, dict) and bool(data) and all(
        isinstance(name, str) and not any(c.isspace() for c in name) and (body is None or isinstance(body, (dict, list)))
        for name, body in data.items())


def _merge(into: Inventory, other: Inventory) -> None:
    into.declared |= other.declared
    for name, where in other.named.items():
        into.named.setdefault(name, where)
    for name, host_vars in other.hosts.items():
        into.hosts.setdefault(name, {}).update(host_vars)
        _set_elsewhere(into, "host", name, host_vars)
    for name, group in other.groups.items():
        target = into.group(name)
        target.hosts += [h for h in group.hosts if h not in target.hosts]
        target.children += [c for c in group.children if c not in target.children]
        target.vars.update(group.vars)
        _set_elsewhere(into, "group", name, group.vars)
    into.var_lines.update(other.var_lines)
    into.warnings += other.warnings


def _set_elsewhere(inventory: Inventory, scope: str, name: str, values: dict[str, Any]) -> None:
    """Forget the INI lines of the variables a later file sets again: its own line, if any,
    is named instead, else the inventory's path (not the line it overrode)."""
    for key in values:
        inventory.var_lines.pop((scope, name, key), None)


def _add_vars_folders(inventory: Inventory, base: Path) -> None:
    """group_vars/NAME and host_vars/NAME beside the inventory, as Ansible's host_group_vars plugin reads them."""
    for name, group in inventory.groups.items():
        group.vars.update(found := _vars_for(base / "group_vars", name, inventory.warnings, files := {}))
        _set_elsewhere(inventory, "group", name, found)
        inventory.var_files.update((("group", name, key), file) for key, file in files.items())
    for name, host_vars in inventory.hosts.items():
        host_vars.update(found := _vars_for(base / "host_vars", name, inventory.warnings, files := {}))
        _set_elsewhere(inventory, "host", name, found)
        inventory.var_files.update((("host", name, key), file) for key, file in files.items())


def _vars_for(folder: Path, name: str, warnings: list[str], files: dict[str, str] | None = None) -> dict[str, Any]:
    """The vars group_vars/NAME or host_vars/NAME sets; `files` gets the file each came from
    (the last that sets it), which a `requires:` skip of a var left empty names."""
    if not folder.is_dir():
        return {}
    # Ansible's order, the later file winning: the folder NAME/ first, then NAME, NAME.yml,
    # NAME.yaml, NAME.json (ansible/ansible: lib/ansible/parsing/dataloader.py find_vars_files,
    # "Look for file with no extension first to find dir before file"), so group_vars/all.yml
    # beats group_vars/all/*.yml
    found: dict[str, Any] = {}
    for suffix in _VARS_SUFFIXES:
        candidate = folder / f"{name}{suffix}"
        if candidate.is_dir():
            for inside in sorted(candidate.rglob("*")):
                if inside.is_file() and inside.suffix in _VARS_SUFFIXES and not inside.name.startswith("."):
                    found.update(read := _read_vars_file(inside, warnings))
                    if files is not None:
                        files.update(dict.fromkeys(read, str(inside)))
        elif candidate.is_file():
            found.update(read := _read_vars_file(candidate, warnings))
            if files is not None:
                files.update(dict.fromkeys(read, str(candidate)))
    return found


def _read_vars_file(path: Path, warnings: list[str]) -> dict[str, Any]:
    text = _read_text(path, "vars file")
    if text.lstrip().startswith(_VAULT_HEADER):
        return {}  # a whole file encrypted with ansible-vault: secrets we neither need nor can read
    data = _load_yaml(text, str(path), "vars file", warnings)
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise UsageError(f"{path}: a vars file is a mapping of names to values")
    return {str(key): value for key, value in data.items() if _kept(key, value)}


class _Vaulted:
    """A value encrypted with `!vault`: kept out of the vars."""


def _kept(key: object, value: object) -> bool:
    """Vault-encrypted values are left out, but for a login password: its marker stays, so a
    host that asks for a password can say why none was sent (see _password)."""
    return not isinstance(value, _Vaulted) or key in _PASSWORD_VARS


class _AnsibleYamlLoader(_BoundedLoader):
    """SafeLoader that also accepts Ansible's tags: `!vault` (encrypted, left out) and `!unsafe`
    (a plain string to us), which plain yaml.safe_load refuses with a ConstructorError.

    Bounded as a playbook is (yaml_nodes._BoundedLoader): PyYAML composes recursively, and a
    value 10,000 `[` deep ran into RecursionError, a traceback naming no file; nine lines of
    nine aliases each (387 million values) were built into a host's vars and walked for minutes."""

    source = "<inventory>"
    """The file read, for the place a _ReshapedNumber names."""
    duplicates: list[str]
    """Each key a mapping gives twice, where and which value is used."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        # PyYAML keeps the last of two equal keys and says nothing: `gpu01:` twice under hosts:
        # (a host pasted in again with other vars) or `vllm_version:` twice in group_vars ran
        # the first one's settings nowhere. Ansible reads them the same way but warns ("found
        # a duplicate dict key (k). Using last defined value only": DUPLICATE_YAML_DICT_KEY,
        # `warn` by default). Keys brought in by a merge (`<<: *defaults`) are meant to be
        # overridden and are not counted.
        if isinstance(node, yaml.MappingNode):
            seen: dict[Any, yaml.Node] = {}
            for key_node, _ in node.value:
                if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node)
                if key in seen:
                    first = seen[key].start_mark.line + 1
                    mark = key_node.start_mark
                    self.duplicates.append(f"{self.source}:{mark.line + 1}:{mark.column + 1}: duplicate key {key!r}: "
                                           f"this value is used, the one on line {first} is dropped (as Ansible does)")
                seen[key] = key_node
        return super().construct_mapping(node, deep)


def _past_bound(exc: _TooDeep | _TooManyValues | _TooMuchText, source: str, text: str, kind: str) -> UsageError:
    """The one-line error for a document past yaml_nodes' bounds, in the playbook loader's words."""
    where = f"{source}:{_clamp_line(exc.mark.line + 1, text)}:{exc.mark.column + 1}"
    if isinstance(exc, _TooDeep):
        return UsageError(f"{where}: the YAML nests more than {MAX_DEPTH} levels deep")
    if isinstance(exc, _TooManyValues):
        return UsageError(f"{where}: the {kind} expands to more than {MAX_VALUES} values ({exc.through_aliases} of them "
                          "through YAML aliases)", hint="write the repeated parts out, or use fewer nested aliases")
    return UsageError(f"{where}: the {kind} expands to more than {MAX_TEXT // 2**20} MiB of text ({exc.through_aliases} "
                      "characters of it through YAML aliases)", hint="write the repeated parts out, or use fewer aliases of the long value")


class _ReshapedNumber(float):
    """A YAML number whose text the float does not keep: `vllm_version: 0.10` is 0.1.

    Ansible reads inventories and vars files with YAML 1.1's resolver too (ansible/ansible:
    lib/ansible/_internal/_yaml/_loader.py uses yaml.resolver.Resolver), so there 0.10 is 0.1
    as well, and `pip install vllm=={{ vllm_version }}` installs 0.1. spec-debug refuses the
    value where it becomes a var of a host of the run (_refuse_reshaped), with the playbook's
    "quote it" hint (spec_debug/playbook/var_file.py); elsewhere (ansible_port: 22) a number
    stays a number."""

    written: str
    where: str


def _float(loader: _AnsibleYamlLoader, node: yaml.ScalarNode) -> float:
    value = loader.construct_yaml_float(node)
    if not _reshaped(node.value, value):
        return value
    number = _ReshapedNumber(value)
    number.written = node.value
    number.where = f"{loader.source}:{node.start_mark.line + 1}:{node.start_mark.column + 1}"
    return number


_AnsibleYamlLoader.add_constructor("!vault", lambda loader, node: _Vaulted())
class UnsafeText(str):
    """A value tagged `!unsafe`: Ansible never templates it (docs: "Unsafe or raw strings"), so the
    run keeps its `{{ }}` as text where an inventory's other values are templated (engine.py)."""

    ansible_unsafe = True


_AnsibleYamlLoader.add_constructor("!unsafe", lambda loader, node: UnsafeText(loader.construct_scalar(node)))
_AnsibleYamlLoader.add_constructor("tag:yaml.org,2002:float", _float)


def _past_the_end(exc: yaml.MarkedYAMLError, text: str) -> bool:
    """The file ended inside a quoted value or a [ ] / { }: PyYAML marks the end of the file."""
    return exc.problem_mark is not None and exc.problem_mark.line >= text.count("\n") and exc.context_mark is not None


def _load_yaml(text: str, source: str, kind: str = "inventory", warnings: list[str] | None = None) -> Any:
    loader = _AnsibleYamlLoader(text)
    loader.source = source
    loader.duplicates = warnings if warnings is not None else []
    try:
        return loader.get_single_data()
    except yaml.MarkedYAMLError as exc:
        # PyYAML's own text is five lines naming "<unicode string>" with a caret under an empty
        # line past the end of the file; a playbook's YAML error is one line at file:line:column.
        line, column = _error_position(exc, text)
        tab = "'\\t'" in (exc.problem or "")  # PyYAML writes the tab as the escape \t
        raise UsageError(
            f"{source}:{line}:{column}: not valid YAML: {exc.problem or exc.context}",
            hint=_tab_hint(text, line, column) if tab
            else "the file ends inside a quote or a [ ] / { } that is never closed" if _past_the_end(exc, text)
            else "check indentation and quoting around this position",
        ) from None
    except yaml.YAMLError as exc:
        raise UsageError(f"{source}: not valid YAML: {exc}") from None
    except (_TooDeep, _TooManyValues, _TooMuchText) as exc:
        raise _past_bound(exc, source, text, kind) from None
    finally:
        loader.dispose()


def _refuse_reshaped(host: str, key: str, value: Any) -> None:
    """UsageError for a _ReshapedNumber in a var of `host`, nested ones included."""
    if isinstance(value, _ReshapedNumber):
        number = float(value)
        raise UsageError(
            f"{value.where}: {key} is written {value.written}, which YAML reads as the number {number} "
            f"(Ansible too): host {host} would get {number} in its commands",
            hint=f'quote it ("{value.written}") if it is a version or other text; write {number} if it is a number',
        )
    if isinstance(value, dict):
        for item_key, item in value.items():
            _refuse_reshaped(host, f"{key}.{item_key}", item)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            _refuse_reshaped(host, f"{key}[{index}]", item)


def _looks_like_yaml(text: str) -> bool:
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", ";")):
            continue
        return not stripped.startswith("[") and stripped.endswith(":") or stripped == "---"
    return False


# Ansible allows a comment after a section header (ansible/ansible: lib/ansible/plugins/inventory/ini.py, _compile_patterns).
_SECTION = re.compile(r"^\[([^\]:]+)(?::(vars|children))?\]\s*(?:[#;].*)?$")


def parse_ini_inventory(text: str, path: str = "<inventory>") -> Inventory:
    inventory = Inventory(path)
    inventory.group("all")
    section, kind = "ungrouped", "hosts"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        header = _SECTION.match(line)
        if header:
            section, kind = header.group(1).strip(), header.group(2) or "hosts"
            inventory.group(section)
            if kind == "vars":
                inventory.named.setdefault(section, f"{path}:{number}: [{section}:vars]")
            else:
                inventory.declared.add(section)
            continue
        if line.startswith("[") and ipv6_host(line.split()[0]) is None:
            raise UsageError(f"{path}:{number}: bad section header {line!r}", hint="write [group], [group:vars] or [group:children]")
        if kind == "vars":
            # Not split into words first, as a host line is: Ansible takes the text after '='
            # whole (ini.py, _parse_variable_definition), and `team=Bob's GPUs` was refused
            # here as "No closing quotation".
            key, sep, value = line.partition("=")
            if not sep or not key.strip():
                raise UsageError(f"{path}:{number}: expected key=value in [{section}:vars], got {line!r}")
            inventory.group(section).vars[key.strip()] = _ini_var_value(value.strip())
            inventory.var_lines["group", section, key.strip()] = f"{path}:{number}"
            continue
        try:
            fields = shlex.split(line, comments=True)
        except ValueError as exc:
            raise UsageError(f"{path}:{number}: {exc}") from None
        if not fields:
            continue
        if kind == "children":
            child = fields[0]
            inventory.named.setdefault(child, f"{path}:{number}: [{section}:children]")
            inventory.group(child)
            if child not in inventory.group(section).children:
                inventory.group(section).children.append(child)
        else:
            host_vars: dict[str, Any] = {}
            for item in fields[1:]:
                key, sep, value = item.partition("=")
                if not sep:
                    raise UsageError(f"{path}:{number}: expected key=value after the host name, got {item!r}")
                host_vars[key] = value
            pattern, port = _split_ini_port(fields[0])
            for name in expand_host_pattern(pattern):
                new = name not in inventory.hosts
                inventory.add_host(name, section, host_vars, port, f"{path}:{number}: {fields[0]}")
                set_here = [*host_vars, "ansible_port"] if new and port is not None else host_vars
                inventory.var_lines.update((("host", name, key), f"{path}:{number}") for key in set_here)
    _link_top_groups(inventory)
    return inventory


def _split_ini_port(text: str) -> tuple[str, str | None]:
    """`host:2222` -> (host, "2222"); a colon inside a [01:10] range is not a port, nor one of
    an IPv6 address (`fe80::1`, `[fe80::1]:2222` -> ("fe80::1", "2222"), as Ansible reads them)."""
    ipv6 = ipv6_host(text)
    if ipv6 is not None:
        return ipv6[0], None if ipv6[1] is None else str(ipv6[1])
    head, sep, tail = text.rpartition(":")
    if sep and tail.isdigit() and "]" not in tail and head.count("[") == head.count("]"):
        return head, tail
    return text, None


def _ini_var_value(value: str) -> str:
    """A [group:vars] value as Ansible reads it: `ast.literal_eval` of the text after `=`, or
    the text itself where that fails (ansible/ansible: lib/ansible/plugins/inventory/ini.py,
    _parse_variable_definition and _parse_value). So `ansible_port=2222  # sshd` is 2222 and
    `key="~/.ssh/lab.pem"  # shared` is ~/.ssh/lab.pem there, Python's reader skipping the
    comment; taken as written, the port was refused as not a number and the key file was not
    found. A number keeps its text (`0.10` stays 0.10: the module docstring), less the comment."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # "\d" in a quoted Windows path: a SyntaxWarning, as Ansible hides
            parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return value
    if isinstance(parsed, str):
        return parsed
    return _before_comment(value)


def _before_comment(value: str) -> str:
    """`2222  # sshd` -> `2222`: the text before the comment Python's tokenizer finds (none in
    `[1, 2]`, nor a '#' inside a quoted item)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(value).readline):
            if token.type == tokenize.COMMENT:
                return value[:token.start[1]].rstrip()
    except (tokenize.TokenError, SyntaxError):
        pass
    return value


def parse_yaml_inventory(text: str, path: str = "<inventory>") -> Inventory:
    warnings: list[str] = []
    data = _load_yaml(text, path, warnings=warnings)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise UsageError(f"{path}: an inventory is a mapping of groups (e.g. all: {{hosts: ...}})")
    if isinstance(data.get("plugin"), str):
        # An inventory plugin's config (plugin: amazon.aws.aws_ec2): only Ansible can query the cloud.
        raise UsageError(f"{path} configures the Ansible inventory plugin {data['plugin']!r}, which spec-debug cannot run",
                         hint=f"save the hosts it finds and pass that: ansible-inventory -i {path} --list > hosts.json, then -i hosts.json")
    inventory = Inventory(path, warnings=warnings)
    inventory.group("all")
    if _is_listed_inventory(data):
        _listed_inventory(inventory, data, path)
    else:
        for name, body in data.items():
            _yaml_group(inventory, str(name), body, path, trail=())
    _link_top_groups(inventory)
    inventory.declared |= set(inventory.groups)  # a YAML group (or a listed one) exists by its key
    return inventory


def _is_listed_inventory(data: dict[Any, Any]) -> bool:
    """Whether data is what `ansible-inventory --list` and inventory scripts print: host vars
    under _meta.hostvars, a group's hosts and children as lists of names, or a group given as
    a bare list of hosts (ansible/ansible: lib/ansible/plugins/inventory/script.py)."""
    if "_meta" in data:
        return True
    # A group with hosts or children as a mapping is a YAML inventory's: one with a list among
    # them (`children: [gpus]`) is a mistake in it, which its own rules name (all.children ...).
    if any(isinstance(body, dict) and any(isinstance(body.get(key), dict) for key in ("hosts", "children"))
           for body in data.values()):
        return False
    return any(isinstance(body, list) or isinstance(body, dict) and isinstance(body.get("children"), list)
               for body in data.values())


def _listed_inventory(inventory: Inventory, data: dict[Any, Any], path: str) -> None:
    meta = data.get("_meta") or {}
    hostvars = meta.get("hostvars") or {} if isinstance(meta, dict) else None
    if not isinstance(hostvars, dict) or any(v is not None and not isinstance(v, dict) for v in hostvars.values()):
        raise UsageError(f"{path}: _meta.hostvars must map each host name to its vars")
    for name, body in data.items():
        if name == "_meta":
            continue
        body = {"hosts": body} if isinstance(body, list) else body or {}
        if not isinstance(body, dict) or set(body) - {"hosts", "vars", "children"}:
            raise UsageError(f"{path}: group {name} must be a list of hosts, or a mapping with hosts, vars and children")
        for key in ("hosts", "children"):
            if not isinstance(body.get(key) or [], list):
                raise UsageError(f"{path}: {name}.{key} must be a list of names (as ansible-inventory --list prints it)")
        if not isinstance(body.get("vars") or {}, dict):
            raise UsageError(f"{path}: {name}.vars must be a mapping")
        group = inventory.group(str(name))
        for host in body.get("hosts") or []:
            inventory.add_host(str(host), group.name)
        group.children += [str(c) for c in body.get("children") or [] if str(c) not in group.children]
        group.vars.update({k: v for k, v in (body.get("vars") or {}).items() if _kept(k, v)})
    for host, host_vars in hostvars.items():
        kept = {k: v for k, v in (host_vars or {}).items() if _kept(k, v)}
        if str(host) in inventory.hosts:
            inventory.hosts[str(host)].update(kept)
        else:  # a host with vars in no group: Ansible puts it under ungrouped
            inventory.add_host(str(host), "all", kept)


def _yaml_group(inventory: Inventory, name: str, body: Any, path: str, trail: tuple[str, ...]) -> None:
    where = ".".join((*trail, name))
    if name in trail:
        # A YAML alias of an enclosing group (`lab: *gpus` under gpus' children) nests it in
        # itself without end: the walk below recursed until Python's RecursionError.
        raise _loop_error(path, [*trail[trail.index(name):], name])
    group = inventory.group(name)
    if body is None:
        return
    if not isinstance(body, dict):
        raise UsageError(f"{path}: group {where} must be a mapping with hosts/vars/children")
    unknown = set(body) - {"hosts", "vars", "children"}
    if unknown:
        raise UsageError(f"{path}: group {where}: unknown key {sorted(unknown)[0]!r}", hint="a group has hosts, vars and children")
    hosts = body.get("hosts") or {}
    if isinstance(hosts, list):  # tolerated: a list of names
        hosts = {str(h): None for h in hosts}
    if not isinstance(hosts, dict):
        raise UsageError(f"{path}: {where}.hosts must be a mapping of host names")
    for pattern, host_vars in hosts.items():
        if host_vars is not None and not isinstance(host_vars, dict):
            raise UsageError(f"{path}: {where}.hosts.{pattern} must be a mapping of vars")
        written = str(pattern)
        pattern, port = _split_ini_port(written)
        merged = {k: v for k, v in (host_vars or {}).items() if _kept(k, v)}
        for host in expand_host_pattern(pattern):
            inventory.add_host(host, name, merged, port, f"{path}: {where}.hosts.{written}")
    group_vars = body.get("vars") or {}
    if not isinstance(group_vars, dict):
        raise UsageError(f"{path}: {where}.vars must be a mapping")
    group.vars.update({k: v for k, v in group_vars.items() if _kept(k, v)})
    children = body.get("children") or {}
    if not isinstance(children, dict):
        raise UsageError(f"{path}: {where}.children must be a mapping of groups")
    for child, child_body in children.items():
        if str(child) not in group.children:
            group.children.append(str(child))
        _yaml_group(inventory, str(child), child_body, path, (*trail, name))


def _link_top_groups(inventory: Inventory) -> None:
    """Groups that are nobody's child hang under `all`; hosts in no group are `ungrouped`."""
    parents = inventory.parents()
    everyone = inventory.group("all")
    for name in inventory.groups:
        if name != "all" and name not in parents and name not in everyone.children:
            everyone.children.append(name)
    for host in everyone.hosts:
        if not any(host in g.hosts for n, g in inventory.groups.items() if n != "all"):
            inventory.add_host(host, "ungrouped")
    _reconcile_ungrouped(inventory)


def _reconcile_ungrouped(inventory: Inventory) -> None:
    """A host named above every INI section (so in `ungrouped`) and in a group further down, or
    in another file of the folder, is no longer ungrouped, as Ansible clears it (ansible/ansible:
    lib/ansible/inventory/data.py, reconcile_inventory); it stayed, so --limit ungrouped picked
    it and group_vars/ungrouped.yml reached it."""
    ungrouped = inventory.groups.get("ungrouped")
    if ungrouped is None:
        return
    grouped = {h for name, g in inventory.groups.items() if name not in ("all", "ungrouped") for h in g.hosts}
    ungrouped.hosts = [h for h in ungrouped.hosts if h not in grouped]


# ssh(1) options an inventory gives, in the order Ansible's ssh plugin puts them on the command
# line, where the first value of a keyword wins (ansible/ansible: lib/ansible/plugins/connection/
# ssh.py, _build_command; DOCUMENTATION: ssh_args reads `ansible_ssh_args` since 2.7). The first
# was dropped: `ansible_ssh_args: -o ProxyJump=bastion` (set to replace ansible.cfg's ssh_args
# for a group behind a bastion) went to each host directly, and every one timed out.
_SSH_ARGS_VARS = ("ansible_ssh_args", "ansible_ssh_common_args", "ansible_ssh_extra_args")

# `ansible_host_key_checking: false` (or the ansible_ssh_ name; plugin option host_key_checking,
# vars since 2.5) puts `-o StrictHostKeyChecking=no` right after ssh_args (ssh.py, _build_command).
# It was dropped: a group of fresh cloud hosts set so was refused as unknown host keys.
_HOST_KEY_CHECKING_VARS = ("ansible_host_key_checking", "ansible_ssh_host_key_checking")
# What Ansible reads as true (ansible/ansible: lib/ansible/module_utils/parsing/convert_bool.py,
# BOOLEANS_TRUE); a config option of type boolean takes every other value as false, with no
# error (lib/ansible/config/manager.py, ensure_type: boolean(value, strict=False)).
_ANSIBLE_TRUE = frozenset({"y", "yes", "on", "1", "true", "t"})


def _host_key_checking_off(host_vars: dict[str, Any]) -> bool:
    """Whether the host's vars turn Ansible's host_key_checking off, as Ansible reads them: the
    last of the variables set wins and an empty one (None) is unset (config/manager.py,
    _loop_entries); any value but a true one is off. Refusing what Ansible runs with ('maybe', off;
    a bare `ansible_host_key_checking:`, unset) stopped the whole inventory."""
    value = None
    for key in _HOST_KEY_CHECKING_VARS:
        if host_vars.get(key) is not None:
            value = host_vars[key]
    if value is None or (isinstance(value, str) and "{{" in value):
        # A template is left as checking on, as before this variable was read: refusing it as
        # the connection variables are stopped the whole inventory over the safe default.
        return False
    if isinstance(value, (bool, int, float)):
        return value not in (True, 1, 1.0)
    return str(value).strip().lower() not in _ANSIBLE_TRUE


def become_warning(become: tuple[str, str, str], hosts: list[str], login: str | None) -> str:
    """The warning for hosts whose ansible_become (`become`: where it is set, the user and the
    method it asks for) spec-debug does not do; `login`: the user the steps run as, if known."""
    where, become_user, method = become
    steps_run_as = f"the login user ({login})" if login is not None else "the login user"
    as_user = user = become_user
    if "{{" in become_user:
        # a template over vars the inventory does not hold (the play's): not shown as a user name
        as_user = f"the user {become_user!r} names, a template spec-debug cannot render from the inventory"
        user = "that user"
    if "{{" in method:
        method = f"{method!r}"
    return (f"{where}: ansible_become is set for {some_names(hosts)} (as {as_user}, by {method}), which spec-debug "
            f"does not do: steps run as {steps_run_as}, and a step that needs {user} fails (Permission denied); "
            f"write `sudo -n` into that step's command, or log in as {user} (ansible_user)")


def _become_note(host_vars: dict[str, Any], user: str | None, source: Callable[[str], str]) -> tuple[str, str, str] | None:
    """Where a host's `ansible_become` is set, and the user and method it asks for, which
    spec-debug does not do (become_warning says so), or None.

    Ansible runs a task of such a host as ansible_become_user (root unless set) through
    ansible_become_method (sudo unless set) (ansible/ansible: lib/ansible/plugins/become/sudo.py,
    DOCUMENTATION; constants.py, MAGIC_VARIABLE_MAPPING). spec-debug runs each step as the login
    user: it does not wrap steps in sudo, whose password prompt, process tree and file ownership
    its step tracking (pids, timeouts, kills, fetched files) does not follow. The variable was
    dropped with the other ansible_* ones, and a fleet whose group_vars/all says `ansible_become:
    true` ran its steps as `ops`, a step that needed root failing with "Permission denied" and
    nothing to say why. Not refused: the shipped playbooks need no root, and most inventories
    that set it set it for every host (for Ansible's package tasks). None where the login user is
    the become user already (ansible_user: root; hosts.resolve_hosts also asks the ssh config) or
    the value is a template or not true."""
    value = host_vars.get("ansible_become")
    if value is None or (isinstance(value, str) and "{{" in value):
        return None
    if not (value in (True, 1, 1.0) if isinstance(value, (bool, int, float)) else str(value).strip().lower() in _ANSIBLE_TRUE):
        return None
    become_user = str(host_vars.get("ansible_become_user") or "root")
    if user is not None and user == become_user:
        return None
    return source("ansible_become"), become_user, str(host_vars.get("ansible_become_method") or "sudo")


_BECOME_VARS = ("ansible_become", "ansible_become_user", "ansible_become_method")


# ansible_connection values that mean SSH (ansible/ansible: lib/ansible/plugins/connection/;
# "smart" picks ssh; "" is the default, ssh). Fully qualified names end with the plugin name.
_SSH_CONNECTIONS = frozenset({"", "ssh", "smart", "paramiko", "paramiko_ssh"})

# The ssh connection plugin's `timeout` (ansible/ansible: lib/ansible/plugins/connection/ssh.py,
# option `timeout`, type integer), the connect timeout. Ansible fills it from the PlayContext's
# timeout (executor/task_executor.py: task_keys['timeout']), which the first of these sets
# (constants.py, MAGIC_VARIABLE_MAPPING). They were dropped with the other ansible_* variables,
# and a hung host held the run for ssh_config's timeout.
_TIMEOUT_VARS = ("ansible_ssh_timeout", "ansible_timeout")


# How we connect comes from these; a Jinja template in one would be used as literal text.
_HOW_TO_CONNECT = (*_CONNECTION_VARS, *_SSH_ARGS_VARS, "ansible_python_interpreter", *_TIMEOUT_VARS)

# The login password of Ansible's ssh connection plugin, under each name it reads
# (ansible/ansible: lib/ansible/plugins/connection/ssh.py, DOCUMENTATION, option `password`).
_PASSWORD_VARS = ("ansible_password", "ansible_ssh_pass", "ansible_ssh_password")

def _password(host_vars: dict[str, Any], path: str) -> tuple[str | None, str | None]:
    """The host's login password and where it is set; (None, source) when it is set but cannot
    be read here, (None, None) when the inventory gives none."""
    key = next((k for k in _PASSWORD_VARS if host_vars.get(k) is not None), None)
    if key is None:
        return None, None
    value = host_vars[key]
    source = f"{key} in {path}"
    if isinstance(value, _Vaulted):
        return None, f"{source} (vault-encrypted: spec-debug does not decrypt Ansible Vault)"
    text = str(value)
    # The one template a password is read from: kept out of the file, in an environment
    # variable (env_lookup.py). Any other template is refused.
    lookup = ENV_LOOKUP.fullmatch(text.strip())
    if lookup is not None:
        variable = lookup.group(3)
        source = f"{source} (from ${variable})"
        found = os.environ.get(variable)
        return (found, source) if found else (None, f"{source[:-1]}, which is not set)")
    if "{{" in text:
        # Unread, as a vaulted one: it matters only to a host that asks for a password, which
        # then says so. Never shown: the template may hold the password in a default().
        return None, f"{source} (a Jinja template, which spec-debug does not evaluate)"
    return text, source


def _connect_timeout(host_vars: dict[str, Any], name: str, path: str) -> str | None:
    """The inventory's connect timeout for the host as ConnectTimeout's value, or None."""
    key = next((k for k in _TIMEOUT_VARS if host_vars.get(k) is not None), None)
    value = None if key is None else host_vars[key]
    if value is None or isinstance(value, _Vaulted):
        return None
    seconds = None if isinstance(value, bool) else _whole_number(value)
    if seconds is None or seconds < 0:
        # Ansible refuses it too ("Invalid type for configuration option"); a negative one
        # ssh(1) refuses as ConnectTimeout ("invalid time value").
        raise UsageError(f"{path}: host {name}: {key} {value!r} is not a whole number of seconds",
                         hint=f"write {key}=30 (seconds); Ansible reads it as an integer")
    return str(seconds)


def _whole_number(value: Any) -> int | None:
    """value as Ansible reads an integer option: through Decimal, any value whose fraction is
    zero (`30.0`, `+30`, `3e1`; ansible-core: lib/ansible/config/manager.py, ensure_type,
    `decimal.Decimal(value) == int(decimal_value)`). `ansible_ssh_timeout: 30.0` was refused
    here and stopped the run, where Ansible connects with 30 s."""
    try:
        number = decimal.Decimal(str(value).strip())
        whole = int(number)
    except (decimal.DecimalException, ValueError, OverflowError):  # `30s`, nan, inf
        return None
    return whole if number == whole else None


def _env_lookups_done(name: str, key: str, value: str, path: str) -> str:
    """`{{ lookup('env', 'HOME') }}/.ssh/lab.pem` and `{{ lookup('env', 'USER') }}` with the
    variables' values, as Ansible's env lookup gives them (lib/ansible/plugins/lookup/env.py).
    Ansible's docs write the login so; refused as "a Jinja template", the whole inventory
    stopped. An unset variable is refused: Ansible gives '' (log in as nobody, key file
    `/.ssh/lab.pem`), which only fails later, at the host."""

    def unset(variable: str) -> str:
        raise UsageError(f"{path}: host {name}: {key} reads ${variable} ({value!r}), which is not set",
                         hint=f"export {variable}, or write the value out in the inventory")

    return env_lookups_done(value, unset)  # each lookup in the text, not only a whole value


def _templates_rendered(name: str, host_vars: dict[str, Any], path: str, keys: tuple[str, ...] = _HOW_TO_CONNECT,
                        strict: bool = True) -> None:
    """The connection variables that are templates over the host's other vars, rendered as
    Ansible renders them: `ansible_host: "{{ inventory_hostname }}.ib.cluster"`,
    `ansible_user: "{{ lab_user }}"` with lab_user in group_vars, `-W {{ ansible_host }}:22` in
    ansible_ssh_common_args. They were refused as "a Jinja template", and the whole run with
    them, while the same inventory's playbook vars were rendered (engine.py). Only these and the
    vars they use are rendered here (a playbook var still renders at the run); one that cannot
    (an undefined name, a lookup other than env) is refused naming the host and the variable.
    Passwords and vault values never take part; a value tagged `!unsafe` stays text. `keys`: the
    variables to render; not `strict`: one that cannot render stays as written, unrefused."""
    from spec_debug.errors import TemplateError
    from spec_debug.playbook.templating import resolve_vars, template_texts, var_references

    def renderable(key: str) -> bool:
        value = host_vars.get(key)
        return bool(template_texts(value)) and not getattr(value, "ansible_unsafe", False)

    pending = [key for key in keys if isinstance(host_vars.get(key), str) and renderable(key)]
    if not pending:
        return
    # ansible_playbook_python, the Python running Ansible, as inventories write a local host's
    # interpreter (`localhost ansible_connection=local ansible_python_interpreter="{{
    # ansible_playbook_python }}"`): here the Python running spec-debug
    values = {"inventory_hostname": name, "inventory_hostname_short": name.split(".")[0],
              "ansible_playbook_python": sys.executable,
              **{k: v for k, v in host_vars.items() if k not in _PASSWORD_VARS and not isinstance(v, _Vaulted)}}
    templated: set[str] = set()
    stack = list(pending)
    while stack:  # the vars the connection variables use, and the vars those use
        key = stack.pop()
        if key in templated:
            continue
        templated.add(key)
        try:
            stack += [used for used in var_references(values[key], values) if used in host_vars and renderable(used)]
        except Exception:  # noqa: BLE001 - a syntax error: resolve_vars says it, naming the variable
            pass
    for key in templated:
        # The vars they use read the env lookup as they do (`ansible_user: "{{ lab_user }}"`
        # with `lab_user: "{{ lookup('env', 'USER') }}"` was "'lookup' is undefined").
        if isinstance(values[key], str) and "lookup(" in values[key]:
            try:
                values[key] = _env_lookups_done(name, key, values[key], path)
            except UsageError:
                if strict:
                    raise
                return  # an unset variable: not strict, so left as written, as a TemplateError is
    where = {key: f"{path}: host {name}: {key}" for key in templated}
    try:
        rendered = resolve_vars(values, sorted(templated), name, where)
    except TemplateError as exc:
        if not strict:
            return
        raise UsageError(exc.message, hint="define the vars it uses in the inventory (or group_vars/host_vars), "
                                           "or write the value out") from None
    for key in pending:
        host_vars[key] = rendered[key]


def _spec(name: str, host_vars: dict[str, Any], path: str, origins: dict[str, str] | None = None,
          where_set: Callable[[str], str] | None = None) -> HostSpec:
    """`origins`: where a variable ansible.cfg or the environment gave is set, which its
    refusal names instead of the inventory (`path`); `where_set`: where the inventory set a
    variable (`hosts.ini:7`), for a refusal to name the line."""

    def source(key: str) -> str:
        if key in (origins or {}):
            return f"{(origins or {})[key]} (for the inventory {path})"
        return where_set(key) if where_set is not None else path

    for key in _HOW_TO_CONNECT:
        value = host_vars.get(key)
        if isinstance(value, str) and "{{" in value:
            value = host_vars[key] = _env_lookups_done(name, key, value, path)
    _templates_rendered(name, host_vars, path)
    # Ansible renders these as it renders the others (`ansible_become_user: "{{ svc_user }}"`);
    # the warning showed the template text as the user. Only warned of, so never refused: one
    # that cannot render here (a var of the play) stays as written and the warning says so.
    for key in _BECOME_VARS:
        value = host_vars.get(key)
        if isinstance(value, str) and "{{" in value:
            try:
                host_vars[key] = _env_lookups_done(name, key, value, path)
            except UsageError:
                pass  # an unset variable: left as written, as a template that does not render
    _templates_rendered(name, host_vars, path, _BECOME_VARS, strict=False)
    for key in _HOW_TO_CONNECT:
        value = host_vars.get(key)
        if isinstance(value, str) and "{{" in value:
            raise UsageError(
                f"{path}: host {name}: {key} is a Jinja template ({value!r}), which spec-debug does not evaluate",
                hint="write the value out in the inventory, or move the setting to your ssh_config",
            )
    connection: dict[str, Any] = {}
    playbook_vars: dict[str, Any] = {}
    for key, value in host_vars.items():
        if key in _CONNECTION_VARS:
            if value is not None:  # `ansible_host:` left empty is unset (Ansible), not the host "None"
                connection.setdefault(_CONNECTION_VARS[key], value)
        elif not key.startswith("ansible_"):
            _refuse_reshaped(name, key, value)
            playbook_vars[key] = value
    interpreter = host_vars.get("ansible_python_interpreter")
    if isinstance(interpreter, str) and interpreter and not interpreter.startswith("auto") and "python" not in playbook_vars:
        # Ansible's `auto*` values ask it to discover the interpreter; probes then use the default.
        playbook_vars["python"] = interpreter
    port = connection.get("port")
    if port is not None:
        # the variable the port came from (ansible_ssh_port is the older name): the one named
        port_key = next((k for k, v in host_vars.items() if _CONNECTION_VARS.get(k) == "port" and v is not None),
                        "ansible_port")
        try:
            port = int(port)
        except (TypeError, ValueError):
            raise UsageError(f"{source(port_key)}: host {name}: {port_key} {port!r} is not a number") from None
        if not 0 < port < 65536:
            # Ansible hands it to ssh(1) as -o Port=N, which says "Bad port '0'" (openssh-portable:
            # readconf.c, oPort); 0 was read as no port (22 or the config's), 65536 as a config error.
            raise UsageError(f"{source(port_key)}: host {name}: {port_key} {port}: Bad port",
                             hint="ssh(1) refuses it too; write a port number from 1 to 65535")
    how = str(host_vars.get("ansible_connection", "") or "").strip()
    # Ansible reaches the others through other channels (docker exec, kubectl, WinRM); over
    # SSH the name failed as an unknown host, a misleading cause. The host fails alone.
    unsupported = None if how.rpartition(".")[2] in _SSH_CONNECTIONS | {"local"} else (
        f"ansible_connection {how!r} (in {path}) is not supported: spec-debug reaches hosts over ssh, or local"
    )
    local = how.rpartition(".")[2] == "local" or (name == "local" and "address" not in connection)
    user = None if connection.get("user") is None else str(connection["user"])
    identity_file = None if connection.get("identity_file") is None else str(connection["identity_file"])
    ssh_options: dict[str, str] = {}
    for key in _SSH_ARGS_VARS:
        value = host_vars.get(key)
        if isinstance(value, str) and value.strip():
            # read on from the variables before it, as ssh(1) reads the one command line Ansible
            # makes of them: both SendEnv lists send and both lists' keys are tried, as two -o
            # SendEnv and two -i do, and a later -a, -T or -F overrides an earlier -A, -t or -F
            parse_ssh_args(value, source=f"{source(key)}: host {name}: {key}", after=ssh_options)
        if key == "ansible_ssh_args":
            # ssh_args stand before Ansible's own -o Port=, -o IdentityFile= and -o User= (ssh.py,
            # _build_command), and ssh(1) takes the first User and Port, and adds the key after
            # ssh_args' -i: `ansible_ssh_args: -l ops` logged in as ansible_user instead.
            if "user" in ssh_options:
                user = None
            if "port" in ssh_options:
                port = None
            if identity_file is not None and "identityfile" in ssh_options:
                added_up(ssh_options, "identityfile", identity_file)
                identity_file = None
            if _host_key_checking_off(host_vars):
                ssh_options.setdefault("stricthostkeychecking", "no")
            # Ansible adds `-o ConnectTimeout=` here, between ssh_args and ssh_common_args, and
            # ssh(1) takes the first (ssh.py, _build_command). Only where the inventory sets it:
            # Ansible's default (10 s) would override the user's ssh_config.
            timeout = _connect_timeout(host_vars, name, source("ansible_ssh_timeout"))
            if timeout is not None:
                ssh_options.setdefault("connecttimeout", timeout)
    password, password_source = _password(host_vars, path)
    become = _become_note(host_vars, user if user is not None else ssh_options.get("user"), source)
    return HostSpec(
        name=name,
        address=str(connection.get("address", name)),
        port=port,
        user=user,
        identity_file=identity_file,
        vars=playbook_vars,
        transport="local" if local else "ssh",
        ssh_options=ssh_options,
        unsupported=unsupported,
        password=password,
        password_source=password_source,
        inventory=path,
        become=become,
    )


# -- limit patterns -------------------------------------------------------------------------


def select(
    limit: str,
    hosts: list[str],
    groups_of: Callable[[str], set[str]],
    group_hosts: Callable[[str], list[str] | None],
    unmatched: list[str] | None = None,
) -> list[str]:
    """Hosts (in their order) matching an Ansible-style pattern such as `gpus:!gpu03,&rack1`.
    `unmatched` gets each host or group named that matches nothing: Ansible warns "Could not
    match supplied host pattern, ignoring" (lib/ansible/inventory/manager.py, get_hosts), and a
    typo in `--limit gpu01,gpu9` ran gpu01 alone with nothing said."""
    # White space separates too, as in Ansible (lib/ansible/inventory/manager.py,
    # split_host_pattern: a pattern without commas is split at ':' and white space outside
    # brackets): `--limit "$(cat failed_hosts)"`, one name a line, and `--limit "gpu01 gpu02"`
    # were one pattern matching no host ("no hosts to run on"). No host name holds a space.
    items = [item for item in re.split(r"[:,\s](?![^\[]*\])", limit) if item.strip()]
    items = [pattern for item in items
             for pattern in (_limit_file(item.strip()[1:]) if item.strip().startswith("@") else [item])]
    if not items:
        raise UsageError(f"empty --limit pattern {limit!r}",
                         hint="name hosts or groups, or drop --limit to run on every host "
                              "(--limit \"$HOSTS\" with HOSTS unset gives an empty one)")
    union: set[str] = set()
    intersections: list[set[str]] = []
    exclusions: set[str] = set()
    any_positive = False
    for item in (i.strip() for i in items):
        if item.startswith("!"):
            exclusions |= _matching(item[1:], hosts, groups_of, group_hosts)
        elif item.startswith("&"):
            intersections.append(_matching(item[1:], hosts, groups_of, group_hosts))
        else:
            any_positive = True
            matched = _matching(item, hosts, groups_of, group_hosts)
            if not matched and unmatched is not None:
                unmatched.append(item)
            union |= matched
    chosen = union if any_positive else set(hosts)
    for other in intersections:
        chosen &= other
    chosen -= exclusions
    return [h for h in hosts if h in chosen]


# A group's hosts by position (ansible/ansible: lib/ansible/inventory/manager.py, PATTERN_WITH_SUBSCRIPT,
# _split_subscript and _apply_subscript): `[N]` or `[-N]` one host, `[x:y]` x to y inclusive, `[x:]` to
# the end; `[x-y]` is still read as `[x:y]`, with a warning there.
_SUBSCRIPT = re.compile(r"(.+)\[(?:(-?\d+)|(\d+)[:-](\d*))\]")


def _subscripted(members: list[str], subscript: re.Match[str], pattern: str) -> list[str]:
    index, start, end = subscript.group(2), subscript.group(3), subscript.group(4)
    if index is not None:
        position = int(index)
        if not -len(members) <= position < len(members):
            raise UsageError(f"--limit {pattern!r}: group {subscript.group(1)} has {len(members)} host(s), no [{index}]",
                             hint="subscripts count from 0 (gpus[0] is the first host, gpus[-1] the last)")
        return [members[position]]
    last = int(end) if end else len(members) - 1
    return members[int(start):last + 1]


def _limit_file(path: str) -> list[str]:
    """`--limit @failed.txt`: the patterns in the file, one a line (a retry file of host names), as
    Ansible reads them (ansible/ansible: lib/ansible/inventory/manager.py, InventoryManager.subset)."""
    # Read as an inventory is (_read_text): bounded, so `--limit @/dev/zero` is refused instead of
    # read into a MemoryError traceback; a gzipped or UTF-16 host list named as such.
    try:
        text = _read_text(Path(path).expanduser(), "the limit file")
    except UsageError as exc:
        raise UsageError(f"--limit @{path}: {exc.message}",
                         hint=exc.hint or "name a file of host names or patterns, one a line") from None
    return [line.strip() for line in text.splitlines() if line.strip()]


def _matching(
    pattern: str,
    hosts: list[str],
    groups_of: Callable[[str], set[str]],
    group_hosts: Callable[[str], list[str] | None],
) -> set[str]:
    if not pattern:
        raise UsageError("empty item in --limit pattern")
    if pattern.startswith("~"):
        try:
            regex = re.compile(pattern[1:])
        except re.error as exc:
            raise UsageError(f"bad regex in --limit {pattern!r}: {exc}") from None
        # Ansible matches from the start of the name, not anywhere in it (re.match in
        # lib/ansible/inventory/manager.py _match_list): `~h200` does not pick gpu-h200-01
        return {h for h in hosts if regex.match(h) or any(regex.match(g) for g in groups_of(h))}
    members = group_hosts(pattern)
    if members is not None:
        return set(members) & set(hosts)
    subscript = _SUBSCRIPT.fullmatch(pattern)
    members = group_hosts(subscript.group(1)) if subscript else None
    if subscript is not None and members is not None:
        return set(_subscripted(members, subscript, pattern)) & set(hosts)
    if pattern == "all":
        return set(hosts)
    if "[" in pattern and not any(c in pattern for c in "*?"):
        names = set(expand_host_pattern(pattern))
        return {h for h in hosts if h in names}
    return {h for h in hosts if fnmatch.fnmatchcase(h, pattern) or any(fnmatch.fnmatchcase(g, pattern) for g in groups_of(h))}

"""The login an inventory's hosts get from ansible.cfg: `remote_user`, `remote_port`,
`private_key_file`, the ssh arguments (`ssh_args`, `ssh_common_args`, `ssh_extra_args` of
[ssh_connection]), `timeout` and `host_key_checking`.

Teams often set these once in ansible.cfg rather than as ansible_user / ansible_ssh_private_key_file
in the inventory; `ansible -i hosts.ini all -m ping` then logs in as that user with that key, and
the same inventory here logged in as the local user with the default keys: "authentication
failed" on every host, with a hint about the ssh config.

Read as Ansible reads them (ansible/ansible: lib/ansible/config/manager.py, find_ini_config_file:
the first of $ANSIBLE_CONFIG (a file, or a folder holding ansible.cfg), ./ansible.cfg unless the
working directory is world-writable, ~/.ansible.cfg, /etc/ansible/ansible.cfg; parsed with
configparser, `;` starting an inline comment, each value read raw (get_ini_config_value: no `%`
interpolation); lib/ansible/config/base.yml: DEFAULT_REMOTE_USER and DEFAULT_PRIVATE_KEY_FILE,
[defaults] remote_user / private_key_file, overridden by $ANSIBLE_REMOTE_USER /
$ANSIBLE_PRIVATE_KEY_FILE). The inventory's own variables win over both, as the ssh connection
plugin's variables do there.
"""

from __future__ import annotations

import configparser
import os
import stat
from pathlib import Path

# (inventory variable it stands for, ansible.cfg section, key, environment variable): base.yml's
# DEFAULT_REMOTE_USER and DEFAULT_PRIVATE_KEY_FILE; the ssh plugin's ssh_args, ssh_common_args and
# ssh_extra_args (lib/ansible/plugins/connection/ssh.py, DOCUMENTATION), where a team's
# `ssh_args = -o ProxyJump=bastion` reaches every host (ansible.cfg's ssh_args replaces
# Ansible's default ControlMaster ones, which we have no use for).
_SETTINGS = (
    ("ansible_user", "defaults", "remote_user", "ANSIBLE_REMOTE_USER"),
    ("ansible_ssh_private_key_file", "defaults", "private_key_file", "ANSIBLE_PRIVATE_KEY_FILE"),
    # The ssh plugin's port option (ssh.py, DOCUMENTATION: ini [defaults] remote_port, env
    # ANSIBLE_REMOTE_PORT): a fleet whose sshd listens on 2222 says so once here, and every
    # host was tried on 22 (or the ssh config's Port), "connection refused".
    ("ansible_port", "defaults", "remote_port", "ANSIBLE_REMOTE_PORT"),
    ("ansible_ssh_args", "ssh_connection", "ssh_args", "ANSIBLE_SSH_ARGS"),
    ("ansible_ssh_common_args", "ssh_connection", "ssh_common_args", "ANSIBLE_SSH_COMMON_ARGS"),
    ("ansible_ssh_extra_args", "ssh_connection", "ssh_extra_args", "ANSIBLE_SSH_EXTRA_ARGS"),
    # The ssh plugin's host_key_checking: [defaults] then [ssh_connection] (since 2.5), and
    # $ANSIBLE_HOST_KEY_CHECKING then $ANSIBLE_SSH_HOST_KEY_CHECKING, the later of each found
    # winning (config/manager.py, get_config_value_and_origin and _loop_entries), as the loops
    # below take them. `host_key_checking = False` is the line most ansible.cfg files of cloud
    # GPU fleets carry; unread, every fresh host was refused as an unknown host key where
    # `ansible all -m ping` logged in.
    # The ssh plugin's timeout (ssh.py, DOCUMENTATION: [defaults] then [ssh_connection] timeout,
    # $ANSIBLE_TIMEOUT then $ANSIBLE_SSH_TIMEOUT): `timeout = 3` set for a fleet with hung hosts
    # waited the default 15 s on each here. Only where it is set (inventory._connect_timeout).
    ("ansible_ssh_timeout", "defaults", "timeout", "ANSIBLE_TIMEOUT"),
    ("ansible_ssh_timeout", "ssh_connection", "timeout", "ANSIBLE_SSH_TIMEOUT"),
    ("ansible_host_key_checking", "defaults", "host_key_checking", "ANSIBLE_HOST_KEY_CHECKING"),
    ("ansible_host_key_checking", "ssh_connection", "host_key_checking", "ANSIBLE_SSH_HOST_KEY_CHECKING"),
    # [privilege_escalation] become / become_user / become_method (base.yml: DEFAULT_BECOME,
    # DEFAULT_BECOME_USER, DEFAULT_BECOME_METHOD): read only to say that spec-debug does not
    # become (inventory._become_note), where `become = True` there made every task root.
    ("ansible_become", "privilege_escalation", "become", "ANSIBLE_BECOME"),
    ("ansible_become_user", "privilege_escalation", "become_user", "ANSIBLE_BECOME_USER"),
    ("ansible_become_method", "privilege_escalation", "become_method", "ANSIBLE_BECOME_METHOD"),
)


# The settings Ansible types as text (the ssh plugin's remote_user, private_key_file, ssh_args,
# ssh_common_args, ssh_extra_args; become_user, become_method): an ansible.cfg value of theirs
# loses one pair of quotes around it (config/manager.py, ensure_type: a str from an `ini` origin
# is unquote()d; parsing/quoting.py). `remote_user = "ubuntu"` logged in here as `"ubuntu"`,
# quotes and all, and failed ("authentication failed") where `ansible all -m ping` logs in;
# `private_key_file = "~/.ssh/lab.pem"` named no file. Numbers and booleans are kept as written:
# Ansible reads `remote_port = "2222"` as no number (it stops), and `host_key_checking = "True"`
# as false. The environment's values are never unquoted there either.
_TEXT_SETTINGS = frozenset({
    "ansible_user", "ansible_ssh_private_key_file", "ansible_ssh_args", "ansible_ssh_common_args",
    "ansible_ssh_extra_args", "ansible_become_user", "ansible_become_method",
})


def _unquoted(value: str) -> str:
    """Ansible's unquote (ansible/ansible: lib/ansible/parsing/quoting.py): one pair of matching
    quotes around the whole value is dropped, unless the closing one is escaped."""
    if len(value) > 1 and value[0] == value[-1] and value[0] in "\"'" and value[-2] != "\\":
        return value[1:-1]
    return value


def config_file() -> Path | None:
    """The ansible.cfg Ansible would read here, or None."""
    candidates: list[Path] = []
    from_env = os.environ.get("ANSIBLE_CONFIG")
    if from_env is not None:
        given = Path(from_env).expanduser()
        candidates.append(given / "ansible.cfg" if given.is_dir() else given)
    try:
        cwd = Path.cwd()
        if not cwd.stat().st_mode & stat.S_IWOTH:  # Ansible skips a world-writable cwd's file
            candidates.append(cwd / "ansible.cfg")
    except OSError:
        pass
    candidates += [Path("~/.ansible.cfg").expanduser(), Path("/etc/ansible/ansible.cfg")]
    return next((path for path in candidates if path.is_file() and os.access(path, os.R_OK)), None)


def login_defaults() -> dict[str, str]:
    """{"ansible_user": ..., "ansible_ssh_args": ...} as far as ansible.cfg and the
    environment set them; an unreadable or malformed ansible.cfg gives nothing (Ansible would
    stop on it; here it is not our file to judge)."""
    return {variable: value for variable, (value, _) in login_defaults_with_origin().items()}


def login_defaults_with_origin() -> dict[str, tuple[str, str]]:
    """login_defaults, each value with where it is set (`/p/ansible.cfg [defaults] remote_port`,
    `$ANSIBLE_REMOTE_PORT`), for a refusal to name: "hosts.ini: ansible_port 'abc'" sent people
    to an inventory that sets no port."""
    found: dict[str, tuple[str, str]] = {}
    path = config_file()
    if path is not None:
        parser = configparser.ConfigParser(inline_comment_prefixes=(";",))
        try:
            parser.read(path, encoding="utf-8")
            for variable, section, key, _ in _SETTINGS:
                # raw, as Ansible reads it (config/manager.py, get_ini_config_value: raw=True):
                # interpolated, ssh's own `-o ControlPath=/tmp/cm-%r@%h:%p` was an
                # InterpolationSyntaxError, and the whole file (remote_user, the key, the port)
                # was dropped with it
                value = parser.get(section, key, fallback=None, raw=True)
                if value and variable in _TEXT_SETTINGS:
                    value = _unquoted(value)
                if value:
                    found[variable] = (value, f"{path} [{section}] {key}")
        except (configparser.Error, OSError, UnicodeDecodeError):
            found = {}
    for variable, _, _, env in _SETTINGS:
        if os.environ.get(env):
            found[variable] = (os.environ[env], f"${env}")
    return found

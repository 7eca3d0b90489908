"""The arguments of an `ssh` (or `ssh-copy-id`) that reaches a host the way a run reaches it,
for the hints that name one: the host's name through the same ssh config where it has one, and
on the command line what no ssh config gives (an inventory's address, HostKeyAlias, jump or
ProxyCommand; the hops before a later hop of `ProxyJump hop1,hop2`; a known_hosts file not
ssh(1)'s default)."""

from __future__ import annotations

import os
import shlex

from spec_debug.runner.ssh_target import DEFAULT_KNOWN_HOSTS, DEFAULT_PORT, SSHTarget, jump_text


def reach_args(target: SSHTarget, *, user: bool = False, jump_as_option: bool = False) -> str:
    """`[-F CONFIG] [-o HostKeyAlias=K] [-o UserKnownHostsFile=F] [-J HOPS] [-p PORT] [USER@]HOST`, quoted.

    The name the user gave goes through the same ssh config in ssh(1), so `ssh NAME` reaches the
    host as we do (its ProxyJump, ProxyCommand, HostKeyAlias, UserKnownHostsFile: openssh-portable,
    sshconnect.c, get_hostfile_hostname_ipaddr). An inventory host's name is no ssh config name:
    its address then, with its HostKeyAlias. The host's ProxyJump is said: a later hop of
    `ProxyJump hop1,hop2` is reached as `ssh -J hop1 hop2` (openssh-portable: ssh.c, main), its
    own config block reaching it directly, and an inventory's `-J bastion` is in no ssh config.
    So is a UserKnownHostsFile from ansible_ssh_common_args or --known-hosts.

    `user`: `USER@HOST`, for a login (ssh-copy-id installs the key of that account).
    `jump_as_option`: `-o ProxyJump=HOPS`, for ssh-copy-id, which takes no -J (its getopts:
    "i:o:p:F:fnsh?")."""
    words: list[str] = []
    if target.config_file is not None:
        # The host's name means what the run's config file says only to an ssh(1) that reads it:
        # without it, `ssh -v default` (a `vagrant ssh-config > cfg` alias) looked up `default`.
        words.append(f"-F {shlex.quote(target.config_file)}")
    if target.inventory_name is not None and target.host_key_alias:
        words.append(f"-o HostKeyAlias={shlex.quote(target.host_key_alias)}")
    file = target.known_hosts_files[0] if target.known_hosts_files else DEFAULT_KNOWN_HOSTS
    if file != DEFAULT_KNOWN_HOSTS:
        words.append(f"-o UserKnownHostsFile={shlex.quote(file)}")
    if target.inventory_name is not None and target.proxy_command and not target.proxy_jump:
        # An inventory's tunnel (`-o ProxyCommand="cloudflared access ssh --hostname %h"`, an IAP
        # or SSM session): its address alone reaches nothing. Tokens are expanded already.
        words.append(f"-o ProxyCommand={shlex.quote(target.proxy_command)}")
    if target.proxy_jump:
        hops = jump_text(target.proxy_jump)
        words.append(f"-o ProxyJump={shlex.quote(hops)}" if jump_as_option else f"-J {shlex.quote(hops)}")
    if target.port != DEFAULT_PORT:
        words.append(f"-p {target.port}")
    host = target.alias if target.inventory_name is None else target.hostname
    words.append(shlex.quote(f"{target.user}@{host}" if user else host))
    return " ".join(words)


def verbose_login_command(target: SSHTarget) -> str:
    """`ssh -v ...` that logs in the way the run did, to show what ssh(1) offers a host that
    refused us: a bare `ssh -v` named no host, and a later hop of `ProxyJump hop1,hop2` is
    reachable only through the hops before it (reach_args). An inventory's key file
    (ansible_ssh_private_key_file) is in no ssh config: it is said with -i."""
    keys = ([f"-i {shlex.quote(os.path.expanduser(path))}" for path in target.identity_files if path.lower() != "none"]
            if target.inventory_name is not None else [])
    return " ".join(["ssh -v", *keys, reach_args(target, user=True)])


def ssh_copy_id_command(target: SSHTarget) -> str:
    """The shell line that installs the key the run offers where the run logs in. Without `-i`
    ssh-copy-id installs the agent's keys or the newest ~/.ssh/id*.pub (its DEFAULT_PUB_ID_FILE),
    not a config's `IdentityFile ~/.ssh/lab_ed25519`: the next run offered that one and was
    refused again. `-i FILE` reads FILE.pub and stops where there is none ("failed to open ID
    file"), and `-i FILE.pub` wants FILE beside it unless -f (ssh-copy-id, use_id_file): a key
    copied alone from another machine gets its .pub from `ssh-keygen -y` first."""
    files = [path for path in (os.path.expanduser(p) for p in target.identity_files)
             if path.lower() != "none" and os.path.isfile(path)]
    reach = reach_args(target, user=True, jump_as_option=True)
    paired = next((path for path in files if os.path.isfile(path + ".pub") or path.endswith(".pub")), None)
    if paired is not None:
        # A public key as IdentityFile names a key ssh-agent holds (ssh_config(5)): with no
        # private file beside it, -f installs the .pub as it is.
        alone = paired.endswith(".pub") and not os.path.isfile(paired[: -len(".pub")])
        return f"ssh-copy-id {'-f ' if alone else ''}-i {shlex.quote(paired)} {reach}"
    if files:
        key = shlex.quote(files[0])
        return f"ssh-keygen -y -f {key} > {shlex.quote(files[0] + '.pub')} && ssh-copy-id -i {key} {reach}"
    return f"ssh-copy-id {reach}"

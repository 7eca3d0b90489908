"""Configs people publish, resolved as `ssh -G` (OpenSSH 9.2) resolves them.

ssh(1) reads the config once, and a second time only under CanonicalizeHostname (yes, true,
always) or where a `Match final` asks for it; `Match canonical` and `Match final` hold in that
second pass, whatever the name, and `Match originalhost`, `%n` still mean the name as typed
(openssh-portable: ssh.c, main; readconf.c, match_cfg_line). paramiko always read it twice and
canonicalized only short names, so blocks applied to hosts ssh(1) never applies them to, and
missed hosts it does. And Host patterns: `*` and `?` only, never fnmatch's `[...]` classes.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")

# bbigras/nix-config: users/bbigras/core/ssh.nix (home.file.".ssh/config").
BBIGRAS = """\
Include {included}

Host *
  CanonicalizeHostname yes
  PermitLocalCommand yes

Match canonical Host *
  ChallengeResponseAuthentication no
  ControlMaster auto
  ControlPath ~/.ssh/ssh-%r@%h:%p
  ControlPersist 30m
  ForwardAgent no
  ForwardX11 no
  ForwardX11Trusted no
  HashKnownHosts yes
  ServerAliveCountMax 5
  ServerAliveInterval 60
  StrictHostKeyChecking ask
  VerifyHostKeyDNS yes
"""


def ssh_g(config: Path, destination: str) -> dict[str, list[str]]:
    if SSH is None:
        pytest.skip("needs ssh(1) to compare with")
    done = subprocess.run([SSH, "-G", "-F", str(config), destination], capture_output=True, text=True, check=True,
                          stdin=subprocess.DEVNULL, timeout=30)
    seen: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        seen.setdefault(key, []).append(value)
    return seen


def write_bbigras(tmp_path: Path, included: str = "") -> Path:
    host_file = tmp_path / "config.host"
    host_file.write_text(included)
    config = tmp_path / "config"
    config.write_text(BBIGRAS.format(included=host_file))
    return config


@pytest.mark.parametrize("alias", ["gpu01", "node1.cluster.example.org", "10.0.0.7"])
def test_match_canonical_applies_to_every_host_under_canonicalize_hostname(tmp_path: Path, alias: str) -> None:
    """bbigras's keepalives are in a `Match canonical` block: ssh(1) applies it to a long name
    too (too many dots to canonicalize, but read a second time all the same); ours kept 15 s / 3
    for `node1.cluster.example.org`."""
    config = write_bbigras(tmp_path)
    target = resolve_target(alias, load_ssh_config(config))
    shown = ssh_g(config, alias)
    assert target.keepalive_s == float(shown["serveraliveinterval"][0])
    assert target.keepalive_count_max == int(shown["serveralivecountmax"][0])


def test_canonicalize_hostname_true_is_yes(tmp_path: Path) -> None:
    """`true` is yes to ssh(1) (readconf.c, multistate_canonicalizehostname); paramiko knew only
    yes and always, so no `Match canonical` block applied."""
    config = tmp_path / "config"
    config.write_text(BBIGRAS.format(included="/nonexistent").replace("CanonicalizeHostname yes", "CanonicalizeHostname true"))
    target = resolve_target("gpu01", load_ssh_config(config))
    assert target.keepalive_s == float(ssh_g(config, "gpu01")["serveraliveinterval"][0]) == 60


# A setup script writing a work GitHub alias beside the personal account (found by the phrase
# "Match originalhost, not Host: some systems re-parse against the resolved hostname"), here in
# the config.host that bbigras's config includes.
GITHUB_ACCOUNTS = """\
Host github-work
    HostName github.com
    User git
    IdentityFile ~/.ssh/id_work
    IdentitiesOnly yes

Match originalhost github.com
    User git
    IdentityFile ~/.ssh/id_personal
    IdentitiesOnly yes
"""


@pytest.mark.parametrize("alias", ["github-work", "github.com"])
def test_match_originalhost_is_the_name_typed_in_the_canonical_pass(tmp_path: Path, alias: str) -> None:
    """The second pass is over github.com; `Match originalhost github.com` must still not apply
    to `github-work` (ours offered the personal key to the work alias too)."""
    config = write_bbigras(tmp_path, GITHUB_ACCOUNTS)
    target = resolve_target(alias, load_ssh_config(config))
    expected = tuple(os.path.expanduser(path) for path in ssh_g(config, alias)["identityfile"])
    assert target.identity_files == expected


def test_percent_n_is_the_name_typed_in_the_canonical_pass(tmp_path: Path) -> None:
    """Aetf/dotfiles (.ssh/config) names its masters `~/.ssh/masters/%n:%r@%h:%p`; under
    bbigras's CanonicalizeHostname, `%n` is still the alias (ssh -G prints ControlPath
    expanded), where ours became the HostName."""
    config = write_bbigras(tmp_path, "Host gpu01\n  HostName 10.0.0.1\n  ControlPath /m/%n\n  IdentityFile /m/%n\n")
    [control_path] = ssh_g(config, "gpu01")["controlpath"]
    assert resolve_target("gpu01", load_ssh_config(config)).identity_files == (control_path,) == ("/m/gpu01",)


# eritbh/1password-ssh-utils: the file op-ssh-fetch writes (/dev/shm/op-ssh-utils/ssh_config),
# included first from ~/.ssh/config, as its release post shows.
OP_SSH_UTILS = """\
Match host 10.20.30.40 user erin
  IdentityFile /dev/shm/op-ssh-utils/keys/9n8gvb37hox9drhn8by742l98o
"""


@pytest.mark.parametrize("destination", ["nas", "erin@10.20.30.40"])
def test_match_host_is_tested_once_with_the_hostname_set_so_far(tmp_path: Path, destination: str) -> None:
    """ssh(1) tests `Match host` when it reaches the line: above `Host nas  HostName
    10.20.30.40`, not yet set, so the key is not nas's (only `ssh erin@10.20.30.40` gets it).
    paramiko's second pass applied it to nas as well."""
    included = tmp_path / "op-ssh-utils.conf"
    included.write_text(OP_SSH_UTILS)
    config = tmp_path / "config"
    config.write_text(f"Include {included}\n\nHost nas\n  HostName 10.20.30.40\n  User erin\n")
    target = resolve_target(destination, load_ssh_config(config))
    shown = ssh_g(config, destination)
    key = "/dev/shm/op-ssh-utils/keys/9n8gvb37hox9drhn8by742l98o"
    assert (key in target.identity_files) == (key in shown["identityfile"])
    assert target.user == shown["user"][0] == "erin"


def test_match_final_makes_the_second_pass(tmp_path: Path) -> None:
    """A `Match final` anywhere makes ssh(1) read the config again, and `Match canonical` holds
    in that pass too (readconf.c: both are `post_canon`). The layout is a dotfiles README's:
    `Match canonical`, then `Match final` ("if `CanonicalizeHostname true`, this is the same")."""
    config = tmp_path / "config"
    config.write_text("Match canonical\n  Port 2201\nMatch final\n  User finaluser\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    shown = ssh_g(config, "gpu01")
    assert (target.port, target.user) == (int(shown["port"][0]), shown["user"][0]) == (2201, "finaluser")


# dankraw/ssh-aliases (README.md) expands `instance[1..3].example.com` into three Host blocks;
# written straight into ~/.ssh/config, the brackets are characters to ssh(1), which matches
# `*` and `?` only (openssh-portable: match.c, match_pattern). paramiko's fnmatch read a class
# ({1, ., 3}) and applied the block to instance1 and instance3.
SSH_ALIASES_BY_HAND = """\
Host instance[1..3].example.com
  User deploy
  Port 2201
Match host [*].example.com
  User matched
"""


@pytest.mark.parametrize("alias", ["instance1.example.com", "instance3.example.com", "x.example.com"])
def test_brackets_in_host_patterns_are_characters(tmp_path: Path, alias: str) -> None:
    config = tmp_path / "config"
    config.write_text(SSH_ALIASES_BY_HAND)
    target = resolve_target(alias, load_ssh_config(config))
    shown = ssh_g(config, alias)
    assert (target.port, target.user) == (int(shown["port"][0]), shown["user"][0])
    assert target.port == 22


# famzah's convert.py README (blog.famzah.net, "speed up ssh connections by splitting
# known_hosts per host"): the ~/.ssh/config it has you write.
KNOWN_HOSTS_PER_HOST = """\
Host *
    GlobalKnownHostsFile none
    UserKnownHostsFile ~/.ssh/known_hosts_single/%h
    HashKnownHosts no
    StrictHostKeyChecking yes
"""


def test_global_known_hosts_file_none_is_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ssh(1) drops a lone `none` (ssh.c, main); we read a file named `none` in the current
    folder, and trusted whatever keys it held."""
    config = tmp_path / "config"
    config.write_text(KNOWN_HOSTS_PER_HOST)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "none").write_text("gpu01 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    shown = ssh_g(config, "gpu01")
    assert shown["globalknownhostsfile"] == ["none"]
    assert target.global_known_hosts_files == ()
    assert target.known_hosts_files == tuple(shown["userknownhostsfile"][0].split())


def recorder(tmp_path: Path, exit_zero_for: str) -> tuple[Path, Path]:
    """A stand-in command that writes down the arguments it was run with, and succeeds only
    when its third one is `exit_zero_for` (the host, for `step ssh check-host HOST`)."""
    log = tmp_path / "ran.log"
    script = tmp_path / "step"
    script.write_text(f'#!/bin/sh\necho "$*" >> {log}\n[ "$3" = "{exit_zero_for}" ]\n')
    script.chmod(0o755)
    return script, log


def runs_of(log: Path) -> list[str]:
    lines = log.read_text().splitlines() if log.exists() else []
    log.unlink(missing_ok=True)
    return lines


# TwIStOy/dotnix (hosts/taihou/home.nix) routes github.com through a SOCKS proxy with
# `HostName %h`; viperML/neoinfra (modules/skadi/templates/ssh/step_config.tpl) asks
# `step ssh check-host %h` whether a host has step's SSH certificates. Together.
STEP_BEHIND_PROXY = """\
Host github.com
    HostName %h
    ProxyCommand nc -X 5 -x 192.168.50.217:8889 %h %p
Match exec "{step} ssh check-host %h"
    User stepuser
    UserKnownHostsFile "{tmp}/step/ssh/known_hosts"
"""


@pytest.mark.parametrize("alias", ["github.com", "gpu01"])
def test_match_exec_gets_the_host_name_ssh_gives_it(tmp_path: Path, alias: str) -> None:
    """`%h` in a `Match exec` command is the HostName with its own `%h` expanded: paramiko ran
    `step ssh check-host %h` (the HostName as written), so step never knew the host."""
    step, log = recorder(tmp_path, "github.com")
    config = tmp_path / "config"
    config.write_text(STEP_BEHIND_PROXY.format(step=step, tmp=tmp_path))
    shown = ssh_g(config, alias)
    ssh_ran = runs_of(log)
    target = resolve_target(alias, load_ssh_config(config))
    assert runs_of(log) == ssh_ran == [f"ssh check-host {alias}"]
    assert target.user == shown["user"][0]
    assert tuple(map(os.path.expanduser, target.known_hosts_files)) == tuple(shown["userknownhostsfile"][0].split())


def test_match_exec_tokens_paramiko_lacks(tmp_path: Path) -> None:
    """%i, %k, %C and %% in a `Match exec` command (readconf.c, match_cfg_line), run once, as
    ssh(1) runs it: paramiko left %i, %k and %% as written and ran the command twice."""
    step, log = recorder(tmp_path, "never")
    config = tmp_path / "config"
    config.write_text(f'Host gpu01\n  HostName 10.0.0.1\n  Port 2201\n  User ml\n'
                      f'Match exec "{step} %i %k %C %n %h %p %r %%"\n  Port 2202\n')
    ssh_g(config, "gpu01")
    ssh_ran = runs_of(log)
    resolve_target("gpu01", load_ssh_config(config))
    assert runs_of(log) == ssh_ran
    assert len(ssh_ran) == 1 and ssh_ran[0].endswith(" gpu01 10.0.0.1 2201 ml %")


@pytest.mark.parametrize("alias", ["mbp", "GPU01", "10.0.0.1"])
def test_percent_h_is_the_host_name_in_lower_case(tmp_path: Path, alias: str) -> None:
    """famzah's per-host known_hosts with a Mac's name as HostName: ssh(1) lowercases the host
    name (ssh.c, main) before any %h, so it reads known_hosts_single/johns-macbook-pro.local,
    and ours read a file it never wrote (the host key then "unknown")."""
    config = tmp_path / "config"
    # ssh -G prints ControlPath expanded (IdentityFile as written): the same %h.
    config.write_text("Host mbp\n  HostName Johns-MacBook-Pro.local\n"
                      "Host *\n  IdentityFile /keys/id_%h\n  ControlPath /keys/id_%h\n" + KNOWN_HOSTS_PER_HOST)
    target = resolve_target(alias, load_ssh_config(config))
    shown = ssh_g(config, alias)
    assert target.hostname == shown["hostname"][0]
    assert target.known_hosts_files == tuple(shown["userknownhostsfile"][0].split())
    assert target.identity_files == tuple(shown["controlpath"])


# 0xcharly/dots (.ssh/config): a HostName alias, and masters named by %C.
CHARLY = """\
Host linode
  HostName 172.105.192.143
  IdentityFile ~/.ssh/linode
Host delay.c.googlers.com
  ControlMaster auto
  ControlPath ~/.ssh/ctrl-%C
  ForwardAgent yes
  ControlPersist yes
Host *
  ControlPath ~/.ssh/ctrl-%C
  UserKnownHostsFile ~/.ssh/known_hosts-%C
"""


@pytest.mark.parametrize("destination", ["linode", "ssh://bob@delay.c.googlers.com:2222"])
def test_percent_capital_c_is_ssh_connection_hash(tmp_path: Path, destination: str) -> None:
    """%C hashes the HostName, port and user with this machine's name (readconf.c,
    ssh_connection_hash); paramiko hashed the alias, so a %C file was not ssh(1)'s."""
    config = tmp_path / "config"
    config.write_text(CHARLY)
    target = resolve_target(destination, load_ssh_config(config))
    shown = ssh_g(config, destination)
    assert target.known_hosts_files == tuple(shown["userknownhostsfile"][0].split())
    assert shown["userknownhostsfile"][0].endswith(shown["controlpath"][0].rpartition("ctrl-")[2])


# rouven0/nixos-config (users/rouven/modules/ssh/default.nix): home-manager matchBlocks whose
# `match = "Host rfive.de User git"` it writes as `Match Host rfive.de User git`.
ROUVEN = """\
Host github.com
  IdentityFile ~/.ssh/git
Host rfive.de
  User fedora
Match Host rfive.de User git
  IdentityFile ~/.ssh/git
Match Host raspi User git
  IdentityFile ~/.ssh/git
"""


@pytest.mark.parametrize("destination", ["rfive.de", "git@rfive.de", "raspi", "git@raspi"])
def test_match_criteria_in_capitals(tmp_path: Path, destination: str) -> None:
    """ssh(1) reads `Host`, `User` in a Match line as host, user; paramiko took the unknown
    `User` as met, and offered the git key to every login on rfive.de and raspi."""
    config = tmp_path / "config"
    config.write_text(ROUVEN)
    target = resolve_target(destination, load_ssh_config(config))
    shown = ssh_g(config, destination)
    git_key = os.path.expanduser("~/.ssh/git")
    assert (git_key in target.identity_files) == (git_key in map(os.path.expanduser, shown["identityfile"]))
    assert target.user == shown["user"][0]


def test_match_final_all_canonical_in_capitals(tmp_path: Path) -> None:
    """`Match Final` / `Match All` stopped every run ("Missing parameter to Match 'Final'")."""
    config = tmp_path / "config"
    config.write_text('Match Exec "false"\n  User execuser\nMatch Canonical\n  Port 2202\n'
                      'Match Final\n  IdentityFile /k/final\nMatch All\n  IdentityFile /k/all\n')
    target = resolve_target("gpu01", load_ssh_config(config))
    shown = ssh_g(config, "gpu01")
    assert (target.user, target.port, target.identity_files) == \
        (shown["user"][0], int(shown["port"][0]), tuple(shown["identityfile"]))


# A nix-darwin module's extraConfig (found with find_string 'Match host * exec "', file id
# 71049279942): the local agent only for local sessions. OpenSSH 9.2 refuses the escaped
# quotes ("Bad Match condition"); later ones split the line with argv_split, as paramiko does.
LOCAL_SESSIONS_ONLY = 'Match Host * exec "test -z \\"$SSH_CONNECTION\\""\n  IdentityAgent /agents/local\n'


@pytest.mark.parametrize("ssh_connection", ["", "10.0.0.9 51000 10.0.0.1 22"])
def test_capitalised_match_keeps_its_quoted_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     ssh_connection: str) -> None:
    """The command's escaped quotes stay in it when `Host` is read as host: split at them, its
    tail was taken for a criterion and lowercased ($ssh_connection, always empty)."""
    monkeypatch.setenv("SSH_CONNECTION", ssh_connection)
    config = tmp_path / "config"
    config.write_text(LOCAL_SESSIONS_ONLY)
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.identity_agent == "/agents/local") == (ssh_connection == "")


# An ansible play's ssh_config block (found with find_string 'CanonicalizeFallbackLocal', file id
# 15989311891), without its CanonicalDomains (no DNS here), the fallback spelt as ssh(1) takes it.
FALLBACK_LOCAL = """\
Host *
    StrictHostKeyChecking no
    UserKnownHostsFile    /dev/null
    LogLevel              QUIET
    CanonicalizeHostname {canonicalize}
    CanonicalizeFallbackLocal {fallback}
"""


@pytest.mark.parametrize(("canonicalize", "fallback"), [("yes", "true"), ("Yes", "Yes"), ("always", "yes")])
def test_canonicalize_fallback_local_spellings(tmp_path: Path, canonicalize: str, fallback: str) -> None:
    """`true` and `Yes` are yes to ssh(1) (readconf.c, multistate_flag); paramiko's literal "yes"
    made gpu01 "cannot resolve host name" where `ssh -G gpu01` resolves it."""
    config = tmp_path / "config"
    config.write_text(FALLBACK_LOCAL.format(canonicalize=canonicalize, fallback=fallback))
    shown = ssh_g(config, "gpu01")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert target.hostname == shown["hostname"][0] == "gpu01"


# AkashiSN/dotfiles (ssh/config), shortened: home networks reached through a Cloudflare gateway
# unless a ping says we are at home. `true` / `false` stand in for the pings.
AKASHI = """\
Host gw-tokyo
    HostName        gw-tokyo.akashisn.info
    ProxyCommand    cloudflared access ssh --hostname %h
    User            root

Host pve
    HostName        172.16.254.4
    User            root
    IdentityFile    ~/.ssh/gpg.pub

Match host 172.16.100.*,172.16.254.* !Exec "{ping}"
    ProxyJump gw-tokyo
"""


@pytest.mark.parametrize("at_home", [True, False])
def test_negated_capitalised_exec(tmp_path: Path, at_home: bool) -> None:
    """`!Exec` is `!exec` to ssh(1): at home (the ping succeeds) no jump. paramiko took the
    unknown `Exec` as met and dropped its `!`: pve went through the gateway from home too."""
    config = tmp_path / "config"
    config.write_text(AKASHI.format(ping="true" if at_home else "false"))
    target = resolve_target("pve", load_ssh_config(config))
    shown = ssh_g(config, "pve")
    jump = ",".join(hop.destination.host for hop in target.proxy_jump) or None
    assert jump == shown.get("proxyjump", [None])[0] == (None if at_home else "gw-tokyo")


# datastax/zdm-proxy-automation (terraform/.../zdm_ssh_config.tpl) lists each proxy by its
# address; here reached by a name of one's own, beside a `Match final` block.
ZDM = """\
Host proxy-a
  HostName 172.16.0.11
Host 172.16.0.11 zdm-proxy-0
  Hostname 172.16.0.11
  ProxyJump jumphost
Match final
  User ubuntu
"""


def test_second_pass_host_lines_see_the_host_name(tmp_path: Path) -> None:
    """In ssh(1)'s second pass Host lines are tested against the HostName (ssh.c, main): the
    `Host 172.16.0.11` block's ProxyJump applies to proxy-a; ours tested the alias again."""
    config = tmp_path / "config"
    config.write_text(ZDM)
    target = resolve_target("proxy-a", load_ssh_config(config))
    shown = ssh_g(config, "proxy-a")
    assert [hop.destination.host for hop in target.proxy_jump] == shown["proxyjump"] == ["jumphost"]
    assert target.user == shown["user"][0] == "ubuntu"

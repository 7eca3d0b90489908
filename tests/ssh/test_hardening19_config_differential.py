"""~/.ssh/config resolved by spec-debug and by the real OpenSSH client, side by side.

Each case writes a config to tmp_path and asks both: `ssh -G -F FILE HOST` (what ssh(1)
resolves, without connecting) and resolve_target. Where ssh(1) expands a value only after
`-G` prints it (IdentityFile, ProxyJump's tokens, IdentityAgent's `$VAR`), the expanded value
is read from `ssh -v` itself, run against a ProxyCommand that exits at once (nothing is
contacted). A config ssh(1) refuses must be refused here too, with a message naming the file
and line, never a traceback.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config import Destination, SSHTarget, load_ssh_config, resolve_target

SSH = shutil.which("ssh")
pytestmark = pytest.mark.skipif(SSH is None, reason="needs OpenSSH's ssh(1) on PATH to compare with (CI gets it with openssh-server)")


def write_config(tmp_path: Path, text: str | bytes, name: str = "config") -> Path:
    config = tmp_path / name
    config.write_bytes(text.encode() if isinstance(text, str) else text)
    return config


def ssh_g(config: Path, host: str) -> dict[str, list[str]] | str:
    """`ssh -G`'s resolved options, or its error text when it refuses the config."""
    done = subprocess.run([SSH, "-G", "-F", str(config), host], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL, timeout=30)
    if done.returncode != 0:
        return done.stderr.strip()
    seen: dict[str, list[str]] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        seen.setdefault(key, []).append(value)
    return seen


def ssh_verbose(config: Path, host: str, *options: str) -> str:
    """ssh -v's log of a connection whose proxy exits at once: the identity files and proxy
    command as ssh(1) really expands them (ssh -G prints some of them before expansion)."""
    done = subprocess.run([SSH, "-v", "-F", str(config), "-o", "BatchMode=yes", *options, host, "true"],
                          capture_output=True, text=True, check=False, stdin=subprocess.DEVNULL, timeout=30)
    return done.stderr


def ssh_identity_files(config: Path, host: str) -> list[str]:
    log = ssh_verbose(config, host, "-o", "ProxyCommand=false")
    return [m.group(1) for m in re.finditer(r"identity file (.+?) type -?\d+$", log, re.M) if not m.group(1).endswith("-cert")]


def ours(config: Path, host: str) -> SSHTarget:
    return resolve_target(host, load_ssh_config(config))


def differences(config: Path, host: str) -> list[str]:
    """What spec-debug resolves otherwise than ssh(1): machine, user, port, keys, jump host."""
    seen = ssh_g(config, host)
    assert isinstance(seen, dict), f"ssh(1) refused the case's config: {seen}"
    target = ours(config, host)
    pairs = {
        "hostname": (seen["hostname"][0], target.hostname),
        "user": (seen["user"][0], target.user),
        "port": (seen["port"][0], str(target.port)),
        "hostkeyalias": (seen.get("hostkeyalias", [None])[0], target.host_key_alias),
        "bindaddress": (seen.get("bindaddress", [None])[0], target.bind_address),
        "certificatefile": ([os.path.expanduser(p) for p in seen.get("certificatefile", [])], list(target.certificate_files)),
    }
    if target.identity_files:  # none: ssh(1) lists its defaults, which the key loader adds here
        pairs["identityfile"] = (ssh_identity_files(config, host), [os.path.expanduser(p) for p in target.identity_files])
    if "%" not in seen.get("proxyjump", [""])[0]:
        hops = ",".join(_hop_text(hop.destination) for hop in target.proxy_jump) or None
        pairs["proxyjump"] = (seen.get("proxyjump", [None])[0], hops)
    return [f"{key}: ssh={theirs!r} ours={mine!r}" for key, (theirs, mine) in pairs.items() if theirs != mine]


def _hop_text(destination: Destination) -> str:
    user = f"{destination.user}@" if destination.user else ""
    port = f":{destination.port}" if destination.port else ""
    return f"{user}{destination.host}{port}"


# Configs as people write them (`=` separators, odd case, tabs, CRLF from a Windows editor,
# quoted paths with spaces, Host * defaults last, negated patterns, Match blocks, tokens).
AGREED = {
    "host * defaults after specific blocks": (
        "Host gpu01\n  HostName 10.0.0.11\n  User alice\n\nHost gpu*\n  User ml\n  Port 2222\n\nHost *\n  User nobody\n"
        "  IdentityFile ~/.ssh/id_ed25519\n", "gpu01"),
    "negation and ?": ("Host gpu0? !gpu02\n  User bob\nHost *\n  User other\n", "gpu02"),
    "= separators, odd case, tabs": ("HOST=gpu01\n\thostNAME\t=\t10.0.0.9\n\tuser=bob\n\tPORT = 2222\n", "gpu01"),
    "crlf line endings": ("Host gpu01\r\n  HostName 10.1.1.1\r\n  User bob\r\n  IdentityFile ~/.ssh/id_gpu\r\n", "gpu01"),
    "quoted identity file with spaces": ('Host gpu01\n  IdentityFile "~/.ssh/work keys/id_ed25519"\n', "gpu01"),
    "cumulative identity files, first user wins": (
        "Host gpu01\n  User bob\n  IdentityFile ~/.ssh/one\nHost *\n  User def\n  IdentityFile ~/.ssh/two\n", "gpu01"),
    "identity file tokens": ("Host gpu01\n  HostName %h.lab\n  User bob\n  IdentityFile ~/.ssh/id_%h_%r_%n_%p%%\n", "gpu01"),
    "HostName %%h is a literal %h": ("Host gpu01\n  HostName %%h\n", "gpu01"),
    "match user after user set": ("Host gpu01\n  User bob\nMatch user bob\n  Port 2200\n", "gpu01"),
    "match !host": ("Match !host gpu01\n  Port 2200\nMatch host gpu01\n  Port 2201\n", "gpu01"),
    "match originalhost and all": ("Match originalhost gpu01\n  HostName 10.2.3.4\nMatch all\n  User alluser\n", "gpu01"),
    "match final on the hostname": ("Host gpu01\n  HostName gpu01.x\nMatch final host gpu01.x\n  User fin\n", "gpu01"),
    "jump chain": ("Host gpu01\n  HostName 10.9.9.9\n  ProxyJump j1,u@j2:2222\n", "gpu01"),
    "certificate files add up": ("Host gpu01\n  CertificateFile ~/.ssh/a-cert.pub\nHost *\n  CertificateFile ~/.ssh/b-cert.pub\n", "gpu01"),
    # U+2028 (LINE SEPARATOR) comes along with text pasted from web pages and chat apps;
    # ssh(1) ends lines at "\n" only, so it stays inside the comment.
    "a comment pasted with a line separator": ("Host gpu01\n  # rack 3\u2028owner: ml-infra\n  User bob\n", "gpu01"),
    # `criterion=argument`: ssh(1) 9.2 splits Match words at `=`, 10.x reads the form on purpose.
    "match criterion=argument": ('Match Host=gpu* user=root\n  Port 2200\nMatch !host=gpu02 exec="test %h = gpu01"\n  User m\n',
                                 "gpu01"),
    "one identity file listed twice in a block": ("Host gpu01\n  IDENTITYFILE=~/.ssh/id_gpu\n  IdentityFile ~/.ssh/id_gpu\n", "gpu01"),
    "ignore unknown, then a vendor keyword": ("IgnoreUnknown UseKeychain,AddKeysToAgent\nHost *\n  UseKeychain yes\n  User me\n", "gpu01"),
}


# Shapes from published dotfiles (paraphrased): a ProxyJump above a hostless ProxyCommand in
# one block, blanks after Host patterns, a LocalCommand with nested quotes, `HostName %h.lan`
# for several hosts; `Match host` blocks keyed on both aliases and HostNames.
DOTFILES_JUMPS = """\
Ciphers aes128-ctr,aes256-gcm@openssh.com
Host office
  HostName localhost
  ProxyJump jump 
  Port 22222
  User alice
  IdentityFile ~/.ssh/id_rsa_home
  ProxyCommand ssh -W %h:%p
  ForwardX11 yes

Host jump 
  HostName primary.lan
  User paul
  AddKeysToAgent yes
  IdentityFile ~/.ssh/id_rsa
  IdentityFile ~/.ssh/id_ed25519

Host primary node1 node2
  HostName %h.lan
  User paul
  PermitLocalCommand yes
  LocalCommand ssh -o PermitLocalCommand=no %n "which git >/dev/null && (echo \\"on %h\\")"
  IdentityFile ~/.ssh/id_rsa
"""
DOTFILES_MATCH_HOSTS = """\
Match host *
  AddKeysToAgent yes
  ControlPath ~/.ssh/sock-%C
  SendEnv COLORTERM
  SendEnv LC_COLORTERM
  IdentityFile ~/.ssh/auth_rsa

Match host github.com,gh
  User git

Match host pf.example.com,pf
  ForwardAgent yes
  User pepper

Host gh
  HostName github.com

Host pf
  Hostname pf.example.com
"""
AGREED.update({f"dotfiles jumps: {host}": (DOTFILES_JUMPS, host) for host in ("office", "jump", "node1")})
AGREED.update({f"dotfiles match hosts: {host}": (DOTFILES_MATCH_HOSTS, host) for host in ("gh", "pf", "other")})


@pytest.mark.parametrize("case", sorted(AGREED))
def test_spec_debug_resolves_a_host_as_ssh_does(tmp_path: Path, case: str) -> None:
    text, host = AGREED[case]
    config = write_config(tmp_path, text)
    assert differences(config, host) == []


# Lines ssh(1) refuses (it stops with "terminating, 1 bad configuration options"). Before,
# spec-debug skipped the first silently (and went to the alias as a DNS name), logged in as
# "alice bob" for the third, and said "Unparsable line HostName" for the second.
REFUSED = {
    "misspelt keyword": ("Host gpu01\n  Hostnam 10.0.0.7\n  User alice\n", 2, "Bad configuration option: Hostnam"),
    "keyword without value": ("Host gpu01\n  HostName\n", 2, 'no argument after keyword "HostName"'),
    "two users": ("Host gpu01\n  User alice bob\n", 2, "keyword User extra arguments at end of line"),
    "empty value from a template": ('Host gpu01\n  IdentityFile ""\n', 2, "IdentityFile: missing argument"),
    "unquoted path with a space": ("Host *\n  IdentityFile ~/.ssh/work keys/id\n", 2, "keyword IdentityFile extra arguments"),
    "typo in a block that does not apply": ("Host other\n  Prot 22\nHost gpu01\n  User a\n", 2, "Bad configuration option: Prot"),
    # Host and Match lines: paramiko said "Missing parameter to Match 'host' keyword", "No
    # closing quotation" or "Unparsable host", naming neither file nor line, and a misspelt
    # criterion only when a host was looked up.
    "match criterion without pattern": ("Host gpu01\n  User a\nMatch host\n  User b\n", 3, "missing Match criteria for host"),
    "match all combined": ("Match all host gpu01\n  User b\n", 1, "'all' cannot be combined with other Match attributes"),
    "match all after two criteria": ("Match canonical final all\n  User b\n", 1, "'all' cannot be combined"),
    "misspelt match criterion": ("Host gpu01\n  User a\nMatch hots gpu*\n  User b\n", 3, "Match hots: unsupported Match attribute"),
    "unclosed quote in a host line": ('Host "gpu01\n  User a\n', 1, "invalid quotes"),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_config_ssh_refuses_is_refused_naming_file_and_line(tmp_path: Path, case: str) -> None:
    text, line, words = REFUSED[case]
    config = write_config(tmp_path, text)
    assert isinstance(ssh_g(config, "gpu01"), str), "ssh(1) accepts this config: the case is wrong"
    with pytest.raises(UsageError) as refused:
        ours(config, "gpu01")
    assert f"{config} line {line}" in refused.value.message, refused.value.message
    assert words in refused.value.message, refused.value.message
    assert "refuses this file too" in (refused.value.hint or "")


def test_a_typo_in_an_included_file_names_that_file(tmp_path: Path) -> None:
    included = write_config(tmp_path, "Host gpu01\n  HostName 10.0.0.7\n  IdentitiyFile ~/.ssh/id_gpu\n", "gpu.conf")
    config = write_config(tmp_path, f"Include {included}\nHost *\n  User me\n")
    assert "line 3: Bad configuration option: identitiyfile" in str(ssh_g(config, "gpu01"))
    with pytest.raises(UsageError) as refused:
        ours(config, "gpu01")
    assert f"{included} line 3: Bad configuration option: IdentitiyFile (did you mean identityfile?)" in refused.value.message


def test_ignore_unknown_applies_only_below_itself(tmp_path: Path) -> None:
    # ssh_config(5): IgnoreUnknown "should be placed early in the configuration file as it
    # will not be applied to unknown options that appear before it".
    config = write_config(tmp_path, "Host *\n  UseRoamingX no\nIgnoreUnknown UseRoamingX\n")
    assert isinstance(ssh_g(config, "gpu01"), str)
    with pytest.raises(UsageError):
        ours(config, "gpu01")
    config = write_config(tmp_path, "IgnoreUnknown UseRoamingX\nHost *\n  UseRoamingX no\n  User me\n")
    assert differences(config, "gpu01") == []


@pytest.mark.parametrize("value", ["%h.%d", "gpu-%C", "gpu01%"])
def test_hostname_takes_only_h_and_percent(tmp_path: Path, value: str) -> None:
    config = write_config(tmp_path, f"Host gpu01\n  HostName {value}\n")
    assert "percent_expand" in ssh_verbose(config, "gpu01", "-o", "ProxyCommand=false")
    with pytest.raises(UsageError) as refused:
        ours(config, "gpu01")
    assert f"HostName {value}" in refused.value.message and "not a token ssh(1) expands" in refused.value.message


def test_proxy_jump_tokens_expand_as_in_the_proxy_command_ssh_builds(tmp_path: Path) -> None:
    # ssh(1) turns ProxyJump into `ssh -W '[%h]:%p' HOP` and expands that: %k (HostKeyAlias)
    # and %% included; the hop's own block runs `false`, so nothing is contacted.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  HostKeyAlias gk\n  ProxyJump jump-%k%%x\n"
                                    "Host jump*\n  ProxyCommand false\n")
    log = ssh_verbose(config, "gpu01")
    executed = re.search(r"Executing proxy command: exec .* -W '\[127\.0\.0\.1\]:22' (\S+)$", log, re.M)
    assert executed is not None, log
    assert [hop.destination.host for hop in ours(config, "gpu01").proxy_jump] == [executed.group(1)] == ["jump-gk%x"]


def test_a_proxy_jump_with_a_token_ssh_refuses_there_is_refused(tmp_path: Path) -> None:
    # `%C` is the connection hash of IdentityFile and ControlPath, not of a proxy command:
    # ssh(1) stops with "percent_expand: unknown key %C"; we logged in to the hop as user `%C`.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  ProxyJump %C@127.0.0.1:1\n")
    assert "unknown key %C" in ssh_verbose(config, "gpu01")
    with pytest.raises(UsageError) as refused:
        ours(config, "gpu01")
    assert "ProxyJump %C@127.0.0.1:1: %C is not a token ssh(1) expands there" in refused.value.message


def test_a_later_proxy_command_none_in_the_same_block_does_not_replace_the_first(tmp_path: Path) -> None:
    # The first value wins in ssh(1); paramiko let `ProxyCommand none` overwrite the line above
    # it, and the host was reached directly instead of through the proxy `ssh gpu01` uses.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  ProxyCommand false\n  ProxyCommand none\n")
    assert "Executing proxy command: exec false" in ssh_verbose(config, "gpu01")
    assert ours(config, "gpu01").proxy_command == "false"


@pytest.mark.parametrize("host", ["GPU01", "gpu01"])
def test_host_lines_of_an_included_file_keep_their_case(tmp_path: Path, host: str) -> None:
    # Host lines are case-sensitive in ssh(1) (readconf.c, oHost: match_pattern). The blocks of
    # a file included inside `Host gpu*` were tested as `Match originalhost`, which ignores
    # case: an inventory name `GPU01` picked up `User ml` that `ssh GPU01` never applies.
    included = write_config(tmp_path, "Host gpu0?\n  User ml\n  Port 2201\n", "gpu.conf")
    config = write_config(tmp_path, f"Host gpu*\n  Include {included}\nHost *\n  User me\n")
    assert differences(config, host) == []


def test_lines_after_an_include_stay_in_a_match_block_that_applied(tmp_path: Path) -> None:
    # ssh(1) evaluates a Match line once, where it stands. The block's header was evaluated
    # again after the included file, which had set the HostName (and for `Match user`, the
    # User): `User ml` below the Include was dropped and we logged in as the local user.
    cluster = write_config(tmp_path, "HostName 10.0.0.5\n", "cluster.conf")
    login = write_config(tmp_path, "User svc\n", "login.conf")
    config = write_config(tmp_path, f"Match host gpu*\n  Include {cluster}\n  User ml\n"
                                    f"Match originalhost login*\n  Include {login}\n  Port 2200\n"
                                    f"Match user svc\n  HostKeyAlias svc-key\n")
    assert differences(config, "gpu01") == []
    assert differences(config, "login01") == []
    target = ours(config, "gpu01")
    assert (target.hostname, target.user) == ("10.0.0.5", "ml")


def test_fedora_system_config_with_its_crypto_policy_include(tmp_path: Path) -> None:
    # Fedora/RHEL's /etc/ssh/ssh_config.d/50-redhat.conf includes the crypto-policies file,
    # which sets GSSAPIKexAlgorithms (a key exchange patch's keyword) and RequiredRSASize:
    # known keywords, not "Bad configuration option".
    policy = write_config(tmp_path, "Ciphers aes256-gcm@openssh.com,chacha20-poly1305@openssh.com\n"
                                    "GSSAPIKexAlgorithms gss-curve25519-sha256-\nRequiredRSASize 2048\n"
                                    "PubkeyAcceptedAlgorithms ssh-ed25519,rsa-sha2-512\n", "openssh.config")
    config = write_config(tmp_path, f"Host gpu01\n  User ml\nMatch final all\n  Include {policy}\n"
                                    "  GSSAPIAuthentication yes\n  ForwardX11Trusted yes\n  SendEnv LANG LC_CTYPE\n")
    assert differences(config, "gpu01") == []
    assert ours(config, "gpu01").ciphers == "aes256-gcm@openssh.com,chacha20-poly1305@openssh.com"


def test_a_fedora_machine_without_a_user_config_still_resolves_hosts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No -F: ~/.ssh/config (none here) then the system file, Fedora's as shipped in shape:
    # `Include /etc/ssh/ssh_config.d/*.conf`, whose 50-redhat.conf opens `Match final all`.
    # paramiko refused that line, so every run on such a machine stopped before any host.
    drop_in = tmp_path / "etc" / "ssh_config.d"
    drop_in.mkdir(parents=True)
    (drop_in / "50-redhat.conf").write_text("Match final all\n  GSSAPIAuthentication yes\n  ForwardX11Trusted yes\n"
                                            "  SendEnv LANG LC_CTYPE LC_NUMERIC\n")
    system = write_config(tmp_path / "etc", f"Include {drop_in}/*.conf\n", "ssh_config")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SPEC_DEBUG_SYSTEM_SSH_CONFIG", str(system))
    target = resolve_target("gpu01", load_ssh_config(None))
    assert (target.hostname, target.send_env) == ("gpu01", ("LANG", "LC_CTYPE", "LC_NUMERIC"))

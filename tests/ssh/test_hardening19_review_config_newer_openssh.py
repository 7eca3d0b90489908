"""An ~/.ssh/config that the user's own ssh(1) reads is never refused here.

spec-debug refuses a config line ssh(1) refuses (an unknown keyword, a missing value), naming
file and line. The local ssh may be OpenSSH 9.2, but users run 9.3 to 10.x, Debian's, Apple's
and RHEL's builds, and configs written by tsh, gcloud, Coder or VS Code: a line one of those
reads must load here, or every run stops before any host is reached. Where a local ssh(1)
knows all the keywords of a case, its `ssh -G` is the reference for host, user and port.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_args import parse_ssh_args
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

SSH = shutil.which("ssh")


def write_config(tmp_path: Path, text: str) -> Path:
    config = tmp_path / "config"
    config.write_text(text)
    return config


def ssh_g(config: Path, host: str) -> dict[str, str] | None:
    """`ssh -G`'s first value of each option, or None where there is no ssh(1) or it refuses the file."""
    if SSH is None:
        return None
    done = subprocess.run([SSH, "-G", "-F", str(config), host], capture_output=True, text=True, check=False,
                          stdin=subprocess.DEVNULL, timeout=30)
    if done.returncode != 0:
        return None
    seen: dict[str, str] = {}
    for line in done.stdout.splitlines():
        key, _, value = line.partition(" ")
        seen.setdefault(key, value)
    return seen


def test_keywords_of_older_releases_still_load(tmp_path: Path) -> None:
    # HostbasedAlgorithms: OpenSSH 8.5 and 8.6 only; ZeroKnowledgePasswordAuthentication: 5.2 to 6.5.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  User ml\n  HostbasedAlgorithms +ssh-rsa\n"
                                    "  ZeroKnowledgePasswordAuthentication no\n  UseRoaming no\n  Cipher 3des\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.hostname, target.user) == ("127.0.0.1", "ml")


def test_debians_keepalive_keywords_are_server_alive_interval(tmp_path: Path) -> None:
    # Debian's and Ubuntu's ssh(1) (debian/patches/keepalive-extensions.patch) read both as
    # ServerAliveInterval; the first value met wins, as for ServerAliveInterval itself.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  ProtocolKeepAlives 45\nHost *\n"
                                    "  SetupTimeOut 10\n  ServerAliveInterval 5\n")
    assert resolve_target("gpu01", load_ssh_config(config)).keepalive_s == 45
    config = write_config(tmp_path, "Host gpu01\n  SetupTimeOut 12\n")
    assert resolve_target("gpu01", load_ssh_config(config)).keepalive_s == 12


def test_a_port_given_as_a_service_name_is_that_services_port(tmp_path: Path) -> None:
    # A laptop behind a firewall that lets only 443 out: `Port https`, as ssh(1) reads it (a2port).
    https = socket.getservbyname("https", "tcp")
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  Port https\n")
    assert resolve_target("gpu01", load_ssh_config(config)).port == https
    seen = ssh_g(config, "gpu01")
    if seen is not None:
        assert seen["port"] == str(https)
    assert resolve_target("gpu01", load_ssh_config(config), ssh_options=parse_ssh_args("-p ssh")).port == 22
    with pytest.raises(UsageError, match="Port 'no-such-service'"):
        resolve_target("gpu01", load_ssh_config(write_config(tmp_path, "Host gpu01\n  Port no-such-service\n")))


def test_a_tag_given_with_dash_p_chooses_the_match_tagged_blocks(tmp_path: Path) -> None:
    config = write_config(tmp_path, "Match tagged gpu\n  User tagged\nHost gpu01\n  HostName 127.0.0.1\n  User plain\n")
    assert resolve_target("gpu01", load_ssh_config(config), ssh_options=parse_ssh_args("-P gpu")).user == "tagged"
    assert resolve_target("gpu01", load_ssh_config(config)).user == "plain"


def test_match_exec_expands_the_jump_host_token(tmp_path: Path) -> None:
    # OpenSSH 9.6+: %j in Match exec is the ProxyJump met so far, empty where there is none.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  ProxyJump bastion\n"
                                    "Match exec \"test %j = bastion\"\n  User jumped\n")
    assert resolve_target("gpu01", load_ssh_config(config)).user == "jumped"
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\nMatch exec \"test -z '%j'\"\n  User direct\n")
    assert resolve_target("gpu01", load_ssh_config(config)).user == "direct"


def test_include_expands_environment_variables_and_skips_an_unset_one(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenSSH 9.9+: `Include ${XDG_CONFIG_HOME}/ssh/*.conf`; an unset variable skips that path.
    (tmp_path / "cluster").mkdir()
    (tmp_path / "cluster" / "gpu.conf").write_text("Host gpu01\n  HostName 127.0.0.1\n  User ml\n")
    monkeypatch.setenv("SPEC_DEBUG_TEST_CLUSTER", str(tmp_path / "cluster"))
    monkeypatch.delenv("SPEC_DEBUG_TEST_UNSET", raising=False)
    config = write_config(tmp_path, "Include ${SPEC_DEBUG_TEST_UNSET}/x.conf\nInclude ${SPEC_DEBUG_TEST_CLUSTER}/*.conf\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.hostname, target.user) == ("127.0.0.1", "ml")


def test_newer_match_forms_load(tmp_path: Path) -> None:
    # `tagged=` is the empty tag (10.x); `Match !all` switches a block off (any release).
    config = write_config(tmp_path, "Match tagged=\n  User untagged\nMatch !all\n  Port 2200\nHost gpu01\n  User other\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.user, target.port) == ("untagged", 22)
    config = write_config(tmp_path, "Match !all\n  Port 2200\nMatch final !all\n  User never\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert target.port == 22 and target.user != "never"
    seen = ssh_g(config, "gpu01")
    if seen is not None:
        assert (seen["port"], seen["user"]) == ("22", target.user)


@pytest.mark.parametrize("keyword", ["SendEnv", "SetEnv", "CanonicalDomains", "GlobalKnownHostsFile",
                                     "UserKnownHostsFile", "Include", "CanonicalizePermittedCNAMEs", "LogVerbose"])
def test_a_list_keyword_holding_only_a_comment_sets_nothing(tmp_path: Path, keyword: str) -> None:
    # ssh(1) tests for a missing value before it drops the comment, and these take any number of words.
    config = write_config(tmp_path, f"Host gpu01\n  {keyword} # filled in by the provisioning template\n  User ml\n")
    assert resolve_target("gpu01", load_ssh_config(config)).user == "ml"
    if SSH is not None and keyword in ("SendEnv", "UserKnownHostsFile"):
        assert ssh_g(config, "gpu01") is not None


def test_a_one_value_keyword_holding_only_a_comment_is_still_refused(tmp_path: Path) -> None:
    config = write_config(tmp_path, "Host gpu01\n  User # nobody yet\n")
    with pytest.raises(UsageError, match=r"line 2: no argument after keyword \"User\""):
        load_ssh_config(config)


def test_a_misspelt_keyword_is_still_refused_with_the_keyword_meant(tmp_path: Path) -> None:
    config = write_config(tmp_path, "Host gpu01\n  Hostnam 10.0.0.7\n")
    with pytest.raises(UsageError, match=r"line 2: Bad configuration option: Hostnam \(did you mean hostname\?\)"):
        load_ssh_config(config)


# Configs as the tools and distributions that people use write them.
GENERATED = {
    "macOS keychain": ("Host *\n  UseKeychain yes\n  AddKeysToAgent yes\n  IdentityFile ~/.ssh/id_ed25519\n"
                       "Host gpu01\n  HostName 127.0.0.1\n", "gpu01"),
    "RHEL crypto-policies back end": (
        "Match final all\n  GSSAPIAuthentication yes\n  ForwardX11Trusted yes\n  SendEnv LANG LC_CTYPE LC_NUMERIC\n"
        "Ciphers aes256-gcm@openssh.com,chacha20-poly1305@openssh.com\n"
        "GSSAPIKexAlgorithms gss-curve25519-sha256-,gss-group16-sha512-\nRequiredRSASize 2048\n"
        "PubkeyAcceptedKeyTypes ecdsa-sha2-nistp256,ssh-ed25519\nHost gpu01\n  HostName 127.0.0.1\n", "gpu01"),
    "Debian and SUSE defaults": ("Host *\n  SendEnv LANG LC_*\n  HashKnownHosts yes\n  GSSAPIAuthentication yes\n"
                                 "  GSSAPIDelegateCredentials no\n  Protocol 2\nHost gpu01\n  HostName 127.0.0.1\n", "gpu01"),
    "OpenSSH 9.4 to 10.x keywords": (
        "Host gpu01\n  HostName 127.0.0.1\n  ObscureKeystrokeTiming interval:20\n  ChannelTimeout session=5m global=1h\n"
        "  EnableEscapeCommandline yes\n  WarnWeakCrypto no-pq-kex\n  SessionType default\n"
        "  StdinNull no\n  ForkAfterAuthentication no\n  PermitRemoteOpen localhost:8080 any\n  Tag gpu\n"
        "  VersionAddendum none\nMatch version OpenSSH_10.* sessiontype exec localnetwork 10.0.0.0/8\n  Port 2200\n"
        "Match command \"nvidia-smi*\"\n  Port 2201\n"
        # Any argument refuses, `no` too (openssh-portable: readconf.c, oRefuseConnection): only where it does not apply.
        "Match originalhost prod-*\n  RefuseConnection \"prod: ask first\"\n", "gpu01"),
    "tsh config": (
        "Host *.lab proxy.example.com\n    UserKnownHostsFile \"/home/u/.tsh/known_hosts\"\n"
        "    IdentityFile \"/home/u/.tsh/keys/proxy.example.com/alice\"\n"
        "Host *.lab !proxy.example.com\n    Port 3022\n"
        "    ProxyCommand \"/usr/local/bin/tsh\" proxy ssh --cluster=lab --proxy=proxy.example.com:443 %r@%h:%p\n",
        "gpu01.lab"),
    "gcloud compute config-ssh": (
        "Host vm1.us-central1-a.proj\n    HostName 127.0.0.1\n    IdentityFile /home/u/.ssh/google_compute_engine\n"
        "    UserKnownHostsFile=/home/u/.ssh/google_compute_known_hosts\n    HostKeyAlias=compute.123\n"
        "    IdentitiesOnly=yes\n    CheckHostIP=no\n", "vm1.us-central1-a.proj"),
    "AWS SSM": ("host i-* mi-*\n    ProxyCommand sh -c \"aws ssm start-session --target %h "
                "--document-name AWS-StartSSHSession --parameters 'portNumber=%p'\"\n    User ec2-user\n", "i-0123"),
    "Coder": ("Host coder.*\n\tConnectTimeout=0\n\tStrictHostKeyChecking=no\n\tUserKnownHostsFile=/dev/null\n"
              "\tLogLevel ERROR\n\tProxyCommand /usr/bin/coder ssh --stdio --ssh-host-prefix coder. %h\n", "coder.ws"),
    "VS Code Remote-SSH": ("Host gpu01\n  HostName 127.0.0.1\n  User alice\n  ForwardAgent yes\n  RemoteCommand none\n"
                           "  RequestTTY no\n", "gpu01"),
    "HPC login node": ("Host login\n  HostName 127.0.0.1\n  ControlMaster auto\n  ControlPath ~/.ssh/%r@%h:%p\n"
                       "  ControlPersist yes\nHost node* !login\n  ProxyJump login\n  StrictHostKeyChecking accept-new\n",
                       "node01"),
}


@pytest.mark.parametrize("name", GENERATED)
def test_generated_and_distribution_configs_load_and_resolve_as_ssh_does(tmp_path: Path, name: str) -> None:
    text, host = GENERATED[name]
    config = write_config(tmp_path, text)
    target = resolve_target(host, load_ssh_config(config))
    seen = ssh_g(config, host)  # None where the local ssh(1) is older than the config
    if seen is not None:
        assert (target.hostname, target.user, str(target.port)) == (seen["hostname"], seen["user"], seen["port"])


@pytest.mark.parametrize(("written", "seconds"), [("2.5s", 2.5), ("1m0.5s", 60.5), ("90", 90.0), ("1m30s", 90.0)])
def test_fractional_seconds_are_a_time(tmp_path: Path, written: str, seconds: float) -> None:
    # OpenSSH 10.3+ reads `2.5s` (misc.c, convtime_double); fractions of minutes stay refused.
    config = write_config(tmp_path, f"Host gpu01\n  ConnectTimeout {written}\n  ServerAliveInterval {written}\n")
    target = resolve_target("gpu01", load_ssh_config(config))
    assert (target.connect_timeout_s, target.keepalive_s) == (seconds, seconds)
    with pytest.raises(UsageError, match="is not a time"):
        resolve_target("gpu01", load_ssh_config(write_config(tmp_path, "Host gpu01\n  ConnectTimeout 1.5m\n")))


def test_a_configured_user_expands_tokens_and_variables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # OpenSSH 10.0+: `User ${VAR}` and `%` tokens in the config; a user given with user@host is taken as written.
    monkeypatch.setenv("SPEC_DEBUG_TEST_ACCOUNT", "alice")
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  Port 2222\n  User ${SPEC_DEBUG_TEST_ACCOUNT}-%n-%p\n")
    assert resolve_target("gpu01", load_ssh_config(config)).user == "alice-gpu01-2222"
    assert resolve_target("bob@gpu01", load_ssh_config(config)).user == "bob"
    monkeypatch.delenv("SPEC_DEBUG_TEST_ACCOUNT")
    with pytest.raises(UsageError, match="SPEC_DEBUG_TEST_ACCOUNT is not set"):
        resolve_target("gpu01", load_ssh_config(config))


def test_the_jump_host_token_is_the_last_hops_host_name(tmp_path: Path) -> None:
    # ssh(1) 9.6+: %j is the host of ProxyJump's last hop, without user and port; empty for none.
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  ProxyJump login,ops@bastion:2222\n"
                                    "  IdentityFile ~/.ssh/via_%j\n")
    assert resolve_target("gpu01", load_ssh_config(config)).identity_files[0].endswith("/.ssh/via_bastion")
    config = write_config(tmp_path, "Host gpu01\n  HostName 127.0.0.1\n  ProxyJump none\n  IdentityFile ~/.ssh/via_%j\n")
    assert resolve_target("gpu01", load_ssh_config(config)).identity_files[0].endswith("/.ssh/via_")


def test_a_proxy_command_that_starts_and_ends_with_a_quote_runs_as_written(tmp_path: Path) -> None:
    # `az ssh config` (Azure Arc) writes the relay's path and its argument in quotes.
    command = '"/opt/az/sshProxy_linux_amd64" -r "/home/u/.ssh/az_ssh_config/arc-vm/relay_info"'
    config = write_config(tmp_path, f"Host arc-vm\n\tProxyCommand {command}\n")
    assert resolve_target("arc-vm", load_ssh_config(config)).proxy_command == command
    seen = ssh_g(config, "arc-vm")
    if seen is not None:
        assert seen["proxycommand"] == command

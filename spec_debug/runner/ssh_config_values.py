"""ssh_config keyword values read as ssh(1) reads them: yes/no flags, times, ports, file lists,
AddKeysToAgent and the login methods (openssh-portable: readconf.c, misc.c)."""

from __future__ import annotations

import ipaddress
import itertools
import os
import re
from typing import Callable

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config_keywords import _integer_refusal
from spec_debug.runner.ssh_errors import HostUnreachableError
from spec_debug.runner.ssh_local_network import bind_interface_address
from spec_debug.runner.ssh_quoting import argv_split
from spec_debug.runner.ssh_target import (
    BAD_PORT_HINT,
    DEFAULT_KNOWN_HOSTS_FILES,
    DEFAULT_PORT,
    GLOBAL_KNOWN_HOSTS_FILES,
    AddKeysToAgent,
    a2port,
)
from spec_debug.runner.ssh_tokens import _environment_expanded_strict


def _no_key_logins(entry: paramiko.SSHConfigDict) -> str | None:
    """Why ssh(1) offers this host no key, or None when it does (ssh_config(5)).

    `-o PreferredAuthentications=password -o PubkeyAuthentication=no` is how people log in to a
    password-only box past a full ssh-agent (sshd's MaxAuthTries ends the login after 6 keys);
    we offered every agent key regardless, and sshd hung up before the password.
    PubkeyAuthentication also takes `unbound` and `host-bound` (OpenSSH 8.9+): both mean yes.
    """
    value = entry.get("pubkeyauthentication")
    if value is not None and value.strip().lower() not in ("unbound", "host-bound") \
            and not _flag(value, "PubkeyAuthentication"):
        return "PubkeyAuthentication no"
    preferred = [m.strip().lower() for m in entry.get("preferredauthentications", "").split(",") if m.strip()]
    if preferred and "publickey" not in preferred:
        return f"PreferredAuthentications {','.join(preferred)}, without publickey"
    return None


def _add_keys_to_agent(value: str | None) -> AddKeysToAgent | None:
    """AddKeysToAgent as ssh(1) reads it (checked with `ssh -G`, OpenSSH 9.2): yes (true), no
    (false), ask, confirm, `confirm TIME`, or a TIME alone (yes, for that long). Anything else
    is refused there ("unsupported option"), and here: it was ignored, so `ssh` and spec-debug
    disagreed on whether a key ended up in the agent."""
    if value is None:
        return None
    words = value.lower().split()
    flag, time = None, None
    if len(words) == 1 and words[0] in ("yes", "true", "no", "false", "ask", "confirm"):
        flag = words[0]
    elif len(words) == 1:
        flag, time = "yes", words[0]  # a time alone: yes, for that long
    elif len(words) == 2 and words[0] == "confirm":
        flag, time = "confirm", words[1]
    lifetime = None
    if time is not None:
        try:
            lifetime = int(_seconds(time, "AddKeysToAgent", 0))
        except UsageError:
            flag = None
    if flag is None:
        raise UsageError(f"ssh config: AddKeysToAgent {value!r} is not a value ssh(1) takes",
                         hint="write yes, no, ask, confirm, a time such as 1h, or confirm with a time (confirm 5m)")
    if flag in ("no", "false"):
        return None
    # A time of 0 is no limit there (`ssh -G` shows `addkeystoagent true`).
    return AddKeysToAgent(ask=flag == "ask", confirm=flag == "confirm", lifetime_s=lifetime or None)


def _login_methods(entry: paramiko.SSHConfigDict) -> tuple[str, ...]:
    """keyboard-interactive and password, as ssh(1) would try them after the keys: in the
    order PreferredAuthentications gives (default: keyboard-interactive first), without those
    the config turns off (ssh_config(5); ChallengeResponseAuthentication is the old name)."""
    preferred = [m.strip().lower() for m in entry.get("preferredauthentications", "").split(",") if m.strip()]
    methods = [m for m in preferred or ["keyboard-interactive", "password"] if m in ("keyboard-interactive", "password")]
    kbd = entry.get("kbdinteractiveauthentication", entry.get("challengeresponseauthentication"))
    turned_off = {
        "password": entry.get("passwordauthentication") is not None and not _flag(entry.get("passwordauthentication"), "PasswordAuthentication"),
        "keyboard-interactive": kbd is not None and not _flag(kbd, "KbdInteractiveAuthentication"),
    }
    return tuple(m for m in dict.fromkeys(methods) if not turned_off[m])


def _bind_address(entry: paramiko.SSHConfigDict, alias: str, hostname: str, address_family: str, proxied: bool) -> str | None:
    """The local address a direct TCP connect goes out from: BindAddress, else the address of
    BindInterface's interface, as ssh(1) picks them (openssh-portable: sshconnect.c,
    ssh_create_socket: BindAddress wins; check_ifaddrs for the interface). None through a proxy
    (ssh(1) binds only its own direct connects) or where neither is set.

    BindInterface was not followed: `BindInterface wg0` (leave through the VPN on a laptop that
    is also on the office LAN) connected from whatever address the routing table chose, and a
    host that only lets the VPN's addresses in refused us or timed out, where `ssh` got in.
    """
    bind_address = _unless_none(entry.get("bindaddress"))
    interface = _unless_none(entry.get("bindinterface"))
    if bind_address is not None or interface is None or proxied:
        return None if proxied else bind_address
    version = None
    try:
        version = ipaddress.ip_address(hostname).version
    except ValueError:
        version = {"inet": 4, "inet6": 6}.get(address_family)
    address = bind_interface_address(interface, version)
    if address is None:
        raise HostUnreachableError(
            f"{alias}: BindInterface {interface}: this machine has no interface {interface} with an address "
            f"that is up{f' (IPv{version})' if version else ''} to connect from",
            hint="ssh(1) fails the same way (\"getifaddrs: no suitable addresses\"); check `ip -brief address`, "
            "or remove BindInterface where that interface does not exist",
        )
    return address


def _unless_none(value: str | None) -> str | None:
    """A command keyword's value, None where it is unset, empty or `none` (ssh_config(5))."""
    if value is None or not value.strip() or value.strip().lower() == "none":
        return None
    return value


# ssh(1)'s spellings of yes and no (openssh-portable: readconf.c, multistate_flag and
# multistate_strict_hostkey): `IdentitiesOnly true` is yes there, and was "no" here, so every
# agent key was offered; `StrictHostKeyChecking false` is off there, and was "yes" here.
_FLAGS = {"yes": True, "true": True, "no": False, "false": False}
_STRICT_HOST_KEY_CHECKING = {"yes": "yes", "true": "yes", "ask": "ask", "accept-new": "accept-new",
                             "no": "no", "false": "no", "off": "no"}


def _flag(value: str | None, keyword: str) -> bool:
    if value is None:
        return False
    try:
        return _FLAGS[value.strip().lower()]
    except KeyError:
        raise UsageError(f"ssh config: {keyword} {value!r} is not yes or no") from None


def _address_family(value: str | None) -> str:
    """AddressFamily (ssh_config(5)): people set `inet` where IPv6 is broken (a VPN, a
    container network): a host with an AAAA record then waited out ConnectTimeout on its
    IPv6 address before we tried IPv4, where ssh(1) goes to IPv4 at once."""
    family = (value or "any").strip().lower()
    if family not in ("any", "inet", "inet6"):
        raise UsageError(f"ssh config: AddressFamily {value!r} is not any, inet or inet6")
    return family


def _strict_host_key_checking(value: str | None) -> str:
    if value is None:
        return "ask"
    try:
        return _STRICT_HOST_KEY_CHECKING[value.strip().lower()]
    except KeyError:
        raise UsageError(
            f"ssh config: StrictHostKeyChecking {value!r} is not a value ssh(1) knows",
            hint="write yes, accept-new, no (off) or ask",
        ) from None


def _certificate_files(value: str | list[str] | None) -> tuple[str, ...]:
    """CertificateFile's files, `~` and `${VAR}` expanded as for IdentityFile (ssh_config(5))."""
    if not value:
        return ()
    values = [value] if isinstance(value, str) else value
    return tuple(os.path.expanduser(_environment_expanded_strict(path, "CertificateFile")) for path in values if path.lower() != "none")


def _user_known_hosts_files(value: str | None) -> tuple[str, ...]:
    """UserKnownHostsFile's files, `${VAR}` expanded (tokens are, by the config lookup)."""
    if value is None:
        return DEFAULT_KNOWN_HOSTS_FILES
    if value.strip().lower() == "none":
        # ssh_config(5): "none causes ssh(1) to ignore any user-specific known hosts files".
        # /dev/null reads as empty and swallows what --accept-new adds, where a file named
        # `none` would be created in the current folder.
        return (os.devnull,)
    return _split_files(_environment_expanded_strict(value, "UserKnownHostsFile")) or DEFAULT_KNOWN_HOSTS_FILES


def _revoked_host_keys(value: str | None) -> tuple[str, ...]:
    """RevokedHostKeys' files, `${VAR}` and `~` expanded (tokens are, by the config lookup); none
    for unset or `none` (openssh-portable: readconf.c, fill_default_options, CLEAR_ON_NONE).
    Several files, each checked, since OpenSSH 10.3 (readconf.c, oRevokedHostKeys); read as one
    name, `RevokedHostKeys /etc/ssh/revoked.krl ~/.ssh/revoked` named a file that does not
    exist, and every host was refused."""
    if _unless_none(value) is None:
        return ()
    return _split_files(_environment_expanded_strict(str(value), "RevokedHostKeys"))


def _global_known_hosts_files(value: str | None) -> tuple[str, ...]:
    """GlobalKnownHostsFile's files; `none` is none at all (openssh-portable: ssh.c, main drops a
    lone "none" from system_hostfiles). Read as a file name, it was a file `none` in the current
    folder, whose keys were then trusted for every host."""
    if value is not None and value.strip().lower() == "none":
        return ()
    return _split_files(value) or GLOBAL_KNOWN_HOSTS_FILES


def _split_files(value: str | None) -> tuple[str, ...]:
    if not value:
        return ()
    try:
        words = argv_split(value)
    except ValueError as exc:  # an unclosed quote in `-o UserKnownHostsFile=...`
        raise UsageError(f"ssh config: {exc}") from None
    return tuple(os.path.expanduser(part) for part in words)


_INT_MAX = 2**31 - 1
_TIME_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400, "w": 604800}
# Each part is read with strtol (openssh-portable: misc.c, convtime, `secs = strtol(p, &endp,
# 10)`), which skips blanks and takes one sign; a negative part is refused (`secs < 0`), `-0` is 0.
_TIME_PART = re.compile(r"\s*([+-]?)(\d+(?:\.\d+)?|\.\d+)([sSmMhHdDwW]?)")


def _seconds(value: str | None, key: str, default: float) -> float:
    """A time value as ssh(1) reads ConnectTimeout and ServerAliveInterval: seconds, or
    `1m30s`-style sums of s/m/h/d/w units (sshd_config(5), TIME FORMATS; openssh-portable:
    misc.c, convtime); `none` (ConnectTimeout) leaves our default. A plain `90` still works;
    `1m` was refused as "not a number" and the whole run stopped. Seconds may have a fraction
    (`1.5s`, `1m0.5s`), as OpenSSH 10.3+ reads them (misc.c, convtime_double: "No fractionals
    for non-seconds"); `2.5s` stopped the run as "not a time". A part may have a sign or blanks
    before it, as strtol takes them (`+5`, `1m+30`, `-0`); `-o ConnectTimeout=+5` stopped the run."""
    if value is None or value.strip().lower() == "none":
        return default
    text, total, at = value.strip(), 0.0, 0
    while at < len(text) or not text:
        part = _TIME_PART.match(text, at)
        if (part is None or ("." in part.group(2) and part.group(3).lower() not in ("", "s"))
                or (part.group(1) == "-" and float(part.group(2)) != 0)):
            raise UsageError(f"ssh config: {key} {value!r} is not a time (write seconds, or e.g. 1m30s)")
        total += float(part.group(2)) * _TIME_UNITS[part.group(3).lower()]
        at = part.end()
        if total > _INT_MAX:
            # ssh(1) keeps a time as an int of seconds and refuses one past INT_MAX ("invalid
            # time value"; openssh-portable: misc.c, convtime, `secs > INT_MAX / multiplier`,
            # `total > INT_MAX - secs`): `ConnectTimeout=2147483648` here waited some 68 years.
            raise UsageError(f"ssh config: {key} {value!r} is not a time: over {_INT_MAX} seconds, as ssh(1) refuses it",
                             hint="write at most 2147483647 seconds (e.g. 3000w)")
    return total


def _port(value: str | None) -> int:
    """Port as ssh(1) takes it: a whole number 1-65535, or a TCP service name of the services
    database (openssh-portable: misc.c, a2port, getservbyname(s, "tcp"); readconf.c says "Bad
    port"). `Port 70000` was "connection refused by HOST:70000", `Port -1` "cannot resolve host
    name", and `Port 22.7` quietly port 22. `Port https` (a host behind a firewall that lets
    only 443 out) is 443 to ssh(1), and stopped every run here as "not a number"."""
    if value is None:
        return DEFAULT_PORT
    port = a2port(str(value))
    if port is None:
        raise UsageError(f"ssh config: Bad port {str(value)!r}: Port {value!r} is not a number from 1 to 65535 or a TCP service name",
                         hint=BAD_PORT_HINT)
    return port


def _number(value: str | None, key: str, default: int) -> int:
    """An integer keyword (ConnectionAttempts, ServerAliveCountMax, ...) as ssh(1) reads it, from
    a config line or `-o` (openssh-portable: readconf.c, parse_int; misc.c, atoi_err): a whole
    number. `-o ConnectionAttempts=1.5` (an inventory's ansible_ssh_common_args) was read as 1
    where ssh(1) stops with "command-line line 0: integer value invalid"; a config file's line
    was already refused (ssh_config_keywords.check_config_line)."""
    if value is None:
        return default
    refusal = _integer_refusal(value)
    if refusal is not None:
        raise UsageError(f"ssh config: {key} {value!r}: integer value {refusal}",
                         hint="ssh(1) refuses it too; write a whole number (0 or more)")
    return int(value.strip())


# The cipher and MAC names ssh(1) takes (`ssh -Q cipher`, `ssh -Q mac` of OpenSSH 9.2; the lists
# of openssh-portable cipher.c and mac.c less the internal `none`). ssh(1) checks every name of
# `-c`, `-m`, `-o Ciphers` and `-o MACs` against them before it connects (ssh.c, main, case 'c'
# and 'm': "Unknown cipher type '...'", "Unknown mac type '...'"; readconf.c, oCiphers and oMacs:
# "Bad SSH2 cipher spec '...'", unless the list starts with `-`), names only, no patterns.
OPENSSH_CIPHERS = frozenset((
    "3des-cbc aes128-cbc aes192-cbc aes256-cbc aes128-ctr aes192-ctr aes256-ctr "
    "aes128-gcm@openssh.com aes256-gcm@openssh.com chacha20-poly1305@openssh.com").split())
OPENSSH_MACS = frozenset((
    "hmac-sha1 hmac-sha1-96 hmac-sha2-256 hmac-sha2-512 hmac-md5 hmac-md5-96 umac-64@openssh.com "
    "umac-128@openssh.com hmac-sha1-etm@openssh.com hmac-sha1-96-etm@openssh.com hmac-sha2-256-etm@openssh.com "
    "hmac-sha2-512-etm@openssh.com hmac-md5-etm@openssh.com hmac-md5-96-etm@openssh.com umac-64-etm@openssh.com "
    "umac-128-etm@openssh.com").split())


def unknown_algorithm(names: str, known: frozenset[str]) -> str | None:
    """The first name of the comma-separated `names` that ssh(1) does not know, as its
    ciphers_valid and mac_valid read them (each name up to the first empty one; nothing at all
    is refused); None when all are known."""
    parts = names.split(",")
    if not parts[0]:
        return names
    for name in itertools.takewhile(bool, parts):
        if name not in known:
            return name
    return None


def _algorithm_list(value: str, keyword: str) -> None:
    """Ciphers or MACs as ssh(1) checks them on reading (readconf.c, oCiphers, oMacs): a list
    to take away (`-...`) may name anything; else, after one `+` or `^`, each name must be one
    ssh(1) knows. Checked only at connect time, `Ciphers aes128-gcm` failed there as "leaves no
    algorithm" with no file or line, and `Ciphers aes128-ctr,aes128-gcm` was used without its
    unknown name where ssh(1) refuses the whole file."""
    if value.startswith("-"):
        return
    cipher = keyword.lower() == "ciphers"
    names = value[1:] if value[:1] in "+^" else value
    if unknown_algorithm(names, OPENSSH_CIPHERS if cipher else OPENSSH_MACS) is not None:
        raise UsageError(f"ssh config: Bad SSH2 {'cipher' if cipher else 'MAC'} spec {value!r}",
                         hint=f"ssh(1) refuses it too; `ssh -Q {'cipher' if cipher else 'mac'}` lists the names it takes "
                              "(no patterns)")


# The key exchange names of every OpenSSH release (openssh-portable kex.h, KEX_*; 10.x adds the
# mlkem ones, 9.9 sntrup761x25519-sha512 without @openssh.com; 8.0 to 8.4 had
# sntrup4591761x25519-sha512@tinyssh.org). ssh(1) refuses a KexAlgorithms list with a name it
# does not know as it reads the file ("Bad SSH2 KexAlgorithms '...'": readconf.c,
# oKexAlgorithms, kex_names_valid: names only), unless the list starts with `-`. A name only a
# newer OpenSSH than the one installed knows is let through here (a config shared with a newer
# machine), as is a list that names nothing paramiko has (refused when the host is reached).
OPENSSH_KEX = frozenset((
    "diffie-hellman-group1-sha1 diffie-hellman-group14-sha1 diffie-hellman-group14-sha256 "
    "diffie-hellman-group16-sha512 diffie-hellman-group18-sha512 diffie-hellman-group-exchange-sha1 "
    "diffie-hellman-group-exchange-sha256 ecdh-sha2-nistp256 ecdh-sha2-nistp384 ecdh-sha2-nistp521 "
    "curve25519-sha256 curve25519-sha256@libssh.org sntrup4591761x25519-sha512@tinyssh.org "
    "sntrup761x25519-sha512 sntrup761x25519-sha512@openssh.com mlkem768x25519-sha256 mlkem768nistp256-sha256").split())
# The key and signature type names of every OpenSSH release (`ssh -Q key-sig` of 9.2, with the
# webauthn certificate type of 10.x, the XMSS types of 7.7 to 9.x builds that enabled them and
# the v00 certificates of 5.4 to 6.x).
OPENSSH_KEY_TYPES = frozenset((
    "ssh-ed25519 ssh-ed25519-cert-v01@openssh.com sk-ssh-ed25519@openssh.com sk-ssh-ed25519-cert-v01@openssh.com "
    "ecdsa-sha2-nistp256 ecdsa-sha2-nistp256-cert-v01@openssh.com ecdsa-sha2-nistp384 "
    "ecdsa-sha2-nistp384-cert-v01@openssh.com ecdsa-sha2-nistp521 ecdsa-sha2-nistp521-cert-v01@openssh.com "
    "sk-ecdsa-sha2-nistp256@openssh.com sk-ecdsa-sha2-nistp256-cert-v01@openssh.com "
    "webauthn-sk-ecdsa-sha2-nistp256@openssh.com webauthn-sk-ecdsa-sha2-nistp256-cert-v01@openssh.com "
    "ssh-dss ssh-dss-cert-v01@openssh.com ssh-rsa ssh-rsa-cert-v01@openssh.com rsa-sha2-256 "
    "rsa-sha2-256-cert-v01@openssh.com rsa-sha2-512 rsa-sha2-512-cert-v01@openssh.com "
    "ssh-xmss@openssh.com ssh-xmss-cert-v01@openssh.com ssh-rsa-cert-v00@openssh.com ssh-dss-cert-v00@openssh.com").split())


def _kex_list(value: str, keyword: str) -> None:
    """KexAlgorithms as ssh(1) checks it on reading (readconf.c, oKexAlgorithms): a list to take
    away (`-...`) may name anything; else, after one `+` or `^`, each name must be a key
    exchange (no patterns). `KexAlgorithms curve25519-sha256,diffie-hellman-group14-sha265` was
    used without its misspelt name, and a misspelt name alone under the host failed at connect
    time as "leaves no algorithm", naming no file or line, where ssh(1) refuses the file."""
    if value.startswith("-"):
        return
    if unknown_algorithm(value[1:] if value[:1] in "+^" else value, OPENSSH_KEX) is not None:
        raise UsageError(f"ssh config: Bad SSH2 KexAlgorithms {value!r}",
                         hint="ssh(1) refuses it too; `ssh -Q kex` lists the names it takes (no patterns)")


def _unknown_key_type(names: str) -> str | None:
    """The first item of `names` that is no key type and whose pattern (`*`, `?`, after a `!`)
    matches none, as sshkey_names_valid2 reads a list with wildcards allowed (openssh-portable:
    sshkey.c; match_pattern_list counts a negated match as a match); None when all are known."""
    parts = names.split(",")
    if not parts[0]:
        return names
    for item in itertools.takewhile(bool, parts):
        if item in OPENSSH_KEY_TYPES:
            continue
        pattern = re.compile("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in item.removeprefix("!")))
        if not any(pattern.fullmatch(name) for name in OPENSSH_KEY_TYPES):
            return item
    return None


def _key_type_list(value: str, keyword: str) -> None:
    """HostKeyAlgorithms, PubkeyAcceptedAlgorithms (PubkeyAcceptedKeyTypes),
    HostbasedAcceptedAlgorithms and CASignatureAlgorithms as ssh(1) checks them on reading
    (readconf.c: "Bad key types '...'"): `-...` may name anything; else, after one `+` or `^`,
    each item must be a key type or a pattern matching one. `HostKeyAlgorithms
    ssh-ed25519,ecdsa-sha2-nistp265` was used without its misspelt name where ssh(1) refuses
    the file, and under another host's block passed."""
    if value.startswith("-"):
        return
    if _unknown_key_type(value[1:] if value[:1] in "+^" else value) is not None:
        raise UsageError(f"ssh config: Bad key types {value!r}",
                         hint="ssh(1) refuses it too; `ssh -Q key-sig` lists the names it takes (`*` patterns allowed)")


# Values ssh(1) checks on every line, in any block, as it reads them (openssh-portable: readconf.c,
# parse_flag, parse_multistate, parse_time: "unsupported option", "invalid time value" before
# it looks at *activep), by the reader that takes them here when a host is looked up; on its
# command line too (`-o BatchMode=maybe`: "command-line line 0: unsupported option").
VALUES_CHECKED_AS_READ: dict[str, Callable[[str, str], object]] = {
    "batchmode": _flag,
    "identitiesonly": _flag,
    "hashknownhosts": _flag,
    "stricthostkeychecking": lambda value, _keyword: _strict_host_key_checking(value),
    "addressfamily": lambda value, _keyword: _address_family(value),
    "connecttimeout": lambda value, keyword: _seconds(value, keyword, 0.0),
    "serveraliveinterval": lambda value, keyword: _seconds(value, keyword, 0.0),
    "ciphers": _algorithm_list,
    "macs": _algorithm_list,
    "kexalgorithms": _kex_list,
    **dict.fromkeys(("hostkeyalgorithms", "pubkeyacceptedalgorithms", "pubkeyacceptedkeytypes", "hostbasedacceptedalgorithms",
                     "hostbasedkeytypes", "casignaturealgorithms"), _key_type_list),
}

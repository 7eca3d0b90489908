"""Identity files as ssh(1) reads them: which files (IdentityFile, else ~/.ssh/id_*), their
public keys (FILE, FILE.pub, or the clear part of an OpenSSH private key), and the keys opened
from them, an encrypted one with its passphrase asked once per run."""

from __future__ import annotations

import base64
import fnmatch
import getpass
import glob
import ipaddress
import itertools
import os
import pwd
import re
import stat

import paramiko
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa

from spec_debug.runner.ssh_auth_options import AuthOptions, _Attempts
from spec_debug.runner.ssh_config import DEFAULT_IDENTITY_FILES, SSHTarget, _criteria_in_lower_case
from spec_debug.runner.ssh_errors import _one_line
from spec_debug.runner.ssh_quoting import argv_split
from spec_debug.runner.ssh_terminal import _PROMPT_LOCK, _can_ask, read_passphrase


# Decrypted keys by path, so a 16-host fleet prompts once, not 16 times.
_KEY_CACHE: dict[str, paramiko.PKey] = {}


def _identity_files(target: SSHTarget) -> list[str]:
    configured = [os.path.expanduser(path) for path in target.identity_files]
    if configured:
        # `IdentityFile none`: no file, and no default ones either (ssh(1) then offers only
        # agent keys); it was reported as a missing file named "none".
        return list(dict.fromkeys(path for path in configured if path.lower() != "none"))
    return [os.path.expanduser(path) for path in DEFAULT_IDENTITY_FILES if os.path.isfile(os.path.expanduser(path))]


def passwd_home_elsewhere() -> tuple[str, str] | None:
    """($HOME, the passwd database's home) where the two are different folders, else None."""
    home = os.path.expanduser("~")
    try:
        passwd_home = pwd.getpwuid(os.getuid()).pw_dir
    except KeyError:
        return None
    if not passwd_home or os.path.realpath(passwd_home) == os.path.realpath(home):
        return None
    return home, passwd_home


_KEYWORD = re.compile(r"^\s*[A-Za-z]+(\s*=\s*|\s+)")  # a config line's keyword and what parts it from its words


def _config_text(config_file: str) -> str:
    try:
        with open(config_file, encoding="utf-8", errors="replace") as handle:
            return handle.read(1 << 20)
    except OSError:
        return ""


def _included_files(line: str, home: str) -> list[str]:
    """The files an `Include` line names. A relative path is under home's ~/.ssh and `~`
    is home, as ssh(1) takes them for the user's config (openssh-portable readconf.c,
    process_config_line_depth, oInclude: _PATH_SSH_USER_DIR, then tilde_expand_filename;
    READCONF_MAX_DEPTH 16, which the callers keep): a `Host` block kept in ~/.ssh/config.d/
    (`Include config.d/*`) was not found. The words as argv_split gives them: a quoted path
    with a space (`Include "~/Library/Application Support/lab/*"`) is one path."""
    try:
        paths = argv_split(_KEYWORD.sub("", line, count=1), terminate_on_comment=True)
    except ValueError:  # an unclosed quote: ssh(1) refuses the line
        return []
    found: list[str] = []
    for path in paths:
        if path.startswith("~"):
            path = home + path[1:] if path == "~" or path.startswith("~/") else os.path.expanduser(path)
        elif not path.startswith("/"):
            path = os.path.join(home, ".ssh", path)
        found += sorted(glob.glob(path))
    return found


def _names_host(config_file: str, alias: str, home: str, depth: int = 0) -> bool:
    """Whether a `Host` line of config_file, or of a file it `Include`s, names alias by a pattern
    of its own (not `*` alone) that no `!` pattern of the line vetoes, or a `Match` line's host
    or originalhost criterion does (_match_names). Read as text: no `Match exec` runs for a hint."""
    if depth > 16:
        return False
    for line in _config_text(config_file).splitlines():
        words = line.replace("=", " ", 1).split()
        if len(words) < 2:
            continue
        keyword = words[0].lower()
        if keyword == "include":
            if any(_names_host(found, alias, home, depth + 1) for found in _included_files(line, home)):
                return True
            continue
        if keyword == "match" and _match_names(line, alias):
            return True
        if keyword == "host" and _in_pattern_list(alias, _host_patterns(line), own=True, fold_case=False):
            return True
    return False


def _host_patterns(line: str) -> list[str]:
    """A Host line's patterns as ssh(1) reads them: quotes removed (`Host "gpu01"` is gpu01),
    up to a `#` comment (openssh-portable readconf.c: the line's words through argv_split)."""
    try:
        return argv_split(_KEYWORD.sub("", line, count=1), terminate_on_comment=True)
    except ValueError:  # an unclosed quote: ssh(1) refuses the line
        return []


def _match_criteria(line: str) -> list[tuple[str, list[str]]] | None:
    """A Match line's criteria (lower case, `!` kept) with their pattern lists ([] for all,
    canonical and final); None for a line ssh(1) refuses (an unclosed quote)."""
    try:
        words = argv_split(_criteria_in_lower_case(line.strip()), terminate_on_comment=True)[1:]
    except ValueError:
        return None
    criteria: list[tuple[str, list[str]]] = []
    index = 0
    while index < len(words):
        criterion = words[index]
        if criterion.lstrip("!") in ("all", "canonical", "final"):
            criteria.append((criterion, []))
            index += 1
            continue
        criteria.append((criterion, words[index + 1].split(",") if index + 1 < len(words) else []))
        index += 2
    return criteria


def _in_pattern_list(alias: str, patterns: list[str], *, own: bool, fold_case: bool = True) -> bool:
    """ssh(1)'s match_pattern_list for a host name: a `!` pattern that matches vetoes it. `own`:
    only a pattern with more than `*`/`?` counts (one that names this host, not every host).
    `fold_case`: Match host/originalhost compare in lower case (match.c, match_hostname); a Host
    line compares the name as typed (readconf.c, oHost: match_pattern), so `Host GPU01` is not
    gpu01's block (OpenSSH_9.2p1 `ssh -G`)."""
    def fold(text: str) -> str:
        return text.lower() if fold_case else text

    name = fold(alias)
    if any(fnmatch.fnmatchcase(name, fold(pattern[1:])) for pattern in patterns if pattern.startswith("!")):
        return False
    return any((pattern.strip("*?") or not own) and fnmatch.fnmatchcase(name, fold(pattern))
               for pattern in patterns if not pattern.startswith("!"))


def _match_names(line: str, alias: str) -> bool:
    """Whether a Match line's `originalhost` or `host` criterion (not negated) has a pattern of
    its own for alias and no negation of it. ssh(1) applies `Match originalhost gpubox` to
    `ssh gpubox` as it applies `Host gpubox`; the argument is a comma list with `!` negations
    (openssh-portable: readconf.c, match_cfg_line, match_pattern_list), and the host name is
    the alias itself where no HostName came before. Other criteria (user, exec) are not asked."""
    return any(criterion in ("host", "originalhost") and _in_pattern_list(alias, patterns, own=True)
               for criterion, patterns in _match_criteria(line) or [])


def _applies(keyword: str, line: str, alias: str) -> bool:
    """Whether a Host or Match line's block surely applies to alias in ssh(1)'s first pass: a
    Match with a criterion other than all/host/originalhost (user, exec, canonical) counts as
    not applying, since no command runs for a hint."""
    if keyword == "host":
        return _in_pattern_list(alias, _host_patterns(line), own=False, fold_case=False)
    criteria = _match_criteria(line)
    return bool(criteria) and all(
        criterion == "all" or (criterion in ("host", "originalhost") and _in_pattern_list(alias, patterns, own=False))
        for criterion, patterns in criteria or [])


_CANONICAL_KEYWORDS = ("canonicalizehostname", "canonicaldomains", "canonicalizemaxdots")


def _canonical_values(config_file: str, alias: str, home: str, found: dict[str, list[str]], *, depth: int = 0,
                      enclosing: bool = True) -> dict[str, list[str]]:
    """The first value of each CanonicalizeHostname keyword that applies to alias in
    config_file and what it Includes (first value wins: openssh-portable readconf.c). The blocks
    of a file included from a block that does not apply never apply (SSHCONF_NEVERMATCH)."""
    if depth > 16:
        return found
    applies = enclosing
    for line in _config_text(config_file).splitlines():
        words = line.replace("=", " ", 1).split()
        if len(words) < 2 or words[0].startswith("#"):
            continue
        keyword = words[0].lower()
        if keyword in ("host", "match"):
            applies = enclosing and _applies(keyword, line, alias)
        elif keyword == "include":
            for included in _included_files(line, home):
                _canonical_values(included, alias, home, found, depth=depth + 1, enclosing=applies)
        elif applies and keyword in _CANONICAL_KEYWORDS:
            found.setdefault(keyword, list(itertools.takewhile(lambda word: not word.startswith("#"), words[1:])))
    return found


def _canonical_domains(config_file: str, alias: str, home: str, *, proxied: bool) -> list[str]:
    """The CanonicalDomains ssh(1) tries alias in under config_file: CanonicalizeHostname yes or
    always, a name with no more dots than CanonicalizeMaxDots (1) that is not an address nor
    ends with a dot (openssh-portable ssh.c, resolve_canonicalize). `yes` leaves a host reached
    through a jump host (`proxied`) as it is; only `always` canonicalizes it too."""
    values = _canonical_values(config_file, alias, home, {})
    mode = values.get("canonicalizehostname", ["no"])[0].lower()
    if mode in ("yes", "true") and proxied:  # `true` is yes (readconf.c, multistate_canonicalizehostname)
        return []
    domains = values.get("canonicaldomains", [])
    try:
        max_dots = int(values.get("canonicalizemaxdots", ["1"])[0])
    except ValueError:
        return []
    if mode not in ("yes", "true", "always") or not domains or domains[0].lower() == "none" or alias.endswith("."):
        return []
    try:
        ipaddress.ip_address(alias)
        return []
    except ValueError:
        pass
    return domains if alias.count(".") <= max_dots else []


def passwd_home_config_note(alias: str, *, proxied: bool = False) -> str | None:
    """The ssh config ssh(1) reads, when it names alias and the one spec-debug read does not.
    ssh(1) reads ~/.ssh/config under the passwd database's home, not $HOME (openssh-portable:
    ssh.c, main: `pw = getpwuid(getuid())`, then process_config_files reads
    `pw->pw_dir/_PATH_SSH_USER_CONFFILE`). Under `sudo -E` or a CI container that sets HOME, an
    alias in that file only was "cannot resolve host name" with a hint to check the file."""
    homes = passwd_home_elsewhere()
    if homes is None:
        return None
    home, passwd_home = homes
    ours, theirs = os.path.join(home, ".ssh", "config"), os.path.join(passwd_home, ".ssh", "config")
    if _names_host(ours, alias, home):
        return None
    if _names_host(theirs, alias, passwd_home):
        return (f"spec-debug reads ~/.ssh/config under $HOME ({home}), which has no `Host {alias}`; ssh(1) reads {theirs}, "
                f"under this account's home in the passwd database, which has: run with -F {theirs} (or HOME={passwd_home})")
    # `CanonicalizeHostname yes` with CanonicalDomains there: ssh(1) looks up gpu01.lab.example
    # for `ssh gpu01` (ssh.c, resolve_canonicalize), which resolves where gpu01 alone does not.
    domains = _canonical_domains(theirs, alias, passwd_home, proxied=proxied)
    if not domains or _canonical_domains(ours, alias, home, proxied=proxied):
        return None
    tried = ", ".join(f"{alias}.{domain}" for domain in domains)
    return (f"spec-debug reads ~/.ssh/config under $HOME ({home}), which does not canonicalize {alias}; ssh(1) reads {theirs}, "
            f"under this account's home in the passwd database, whose CanonicalizeHostname and CanonicalDomains make it "
            f"look up {tried}: run with -F {theirs} (or HOME={passwd_home})")


def passwd_home_identity_note(missing: list[str]) -> str | None:
    """Where ssh(1) finds an IdentityFile missing under $HOME (`~/.ssh/lab_key`, as _short
    names it): ssh(1) expands a leading `~/` with the passwd database's home (openssh-portable
    misc.c, tilde_expand: getpwuid(uid)), so under `sudo -E` or a CI container that sets HOME it
    logged in with /root/.ssh/lab_key while spec-debug said only "no such IdentityFile"."""
    homes = passwd_home_elsewhere()
    if homes is None:
        return None
    home, passwd_home = homes
    for short in missing:
        found = os.path.join(passwd_home, short[2:]) if short.startswith("~/") else None
        if found is not None and os.path.isfile(found):
            return (f"{short} is not under $HOME ({home}), where spec-debug expands ~; ssh(1) expands ~ to {passwd_home}, "
                    f"this account's home in the passwd database, and finds {found}: name that path in IdentityFile (or -i)")
    return None


def default_keys_home_note() -> str | None:
    """Where ssh(1) would have looked for the default keys (~/.ssh/id_*), when that is not where
    we looked. ssh(1) takes `~` from the passwd database, not $HOME (openssh-portable: ssh.c,
    main: `pw = getpwuid(getuid())`, the user's files under pw->pw_dir; misc.c, tilde_expand
    with getpw*); spec-debug, like Python's expanduser, takes $HOME. The two differ under
    `sudo -E`, a CI container job that sets HOME (GitHub Actions: /github/home) or a pod's env:
    "no keys found" there, where `ssh` finds /root/.ssh/id_ed25519, named no reason."""
    homes = passwd_home_elsewhere()
    if homes is None:
        return None
    home, passwd_home = homes
    return (f"no default key ~/.ssh/id_* under $HOME ({home}), where spec-debug looks; ssh(1) looks under "
            f"{passwd_home}, this account's home in the passwd database: name the key with IdentityFile (or -i)")


def _public_blobs(files: list[str]) -> set[bytes]:
    """Public key blobs of the configured identities, from FILE itself when it is a public key
    (ssh_config(5) allows that, to pick a key held by the agent), `FILE.pub`, or the public
    part of an OpenSSH-format private key FILE, in ssh(1)'s order."""
    blobs: set[bytes] = set()
    for path in files:
        blob = _public_blob(path) or _public_blob(path + ".pub") or _public_blob(path, from_private=True)
        if blob is not None:
            blobs.add(blob)
    return blobs


def _public_blob(path: str, *, from_private: bool = False) -> bytes | None:
    """The public key blob of a public key file (or, `from_private`, of an OpenSSH-format
    private key file); None for anything else."""
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read(65536)
    except (OSError, UnicodeDecodeError):
        return None
    if text.lstrip().startswith(_OPENSSH_PRIVATE_BEGIN):
        return _private_file_public_blob(text) if from_private else None
    try:
        fields = text.split()
        return paramiko.PublicBlob.from_string(f"{fields[0]} {fields[1]}").key_blob
    except (IndexError, ValueError):
        return None


_OPENSSH_PRIVATE_BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----"
_OPENSSH_PRIVATE_MAGIC = b"openssh-key-v1\x00"


def _private_file_public_blob(text: str) -> bytes | None:
    """The public key an OpenSSH-format private key file carries in clear, even when the key
    is encrypted (openssh-portable: PROTOCOL.key; sshkey.c, sshkey_parse_private2).

    ssh(1) reads it when an IdentityFile has no `.pub` beside it (sshconnect2.c,
    pubkey_prepare, via sshkey_load_public), so `IdentitiesOnly yes` still lets the agent
    sign with that key. Without it, every agent key was skipped, and an encrypted key file
    then failed under --batch ("forbids the passphrase prompt") although ssh-agent held it.
    """
    body = text.strip()[len(_OPENSSH_PRIVATE_BEGIN):].split("-----END", 1)[0]
    try:
        raw = base64.b64decode("".join(body.split()), validate=True)
        if not raw.startswith(_OPENSSH_PRIVATE_MAGIC):
            return None
        message = paramiko.Message(raw[len(_OPENSSH_PRIVATE_MAGIC):])
        for _ in range(3):  # cipher name, KDF name, KDF options
            message.get_binary()
        if message.get_int() < 1:
            return None
        blob = message.get_binary()
    except (ValueError, IndexError, TypeError, paramiko.SSHException):
        return None
    return blob or None


def _load_key(path: str, options: AuthOptions, attempts: _Attempts) -> paramiko.PKey | None:
    if path in _KEY_CACHE:
        return _KEY_CACHE[path]
    if not os.path.isfile(path):
        # ssh(1) says so only with -v ("no such identity"); the failure below names it.
        attempts.missing.append(_short(path))
        return None
    if _public_blob(path) is not None:
        # A public key as IdentityFile: it chose an agent key above; the private key, if
        # any, is the file without `.pub` (what people mean when they point at the .pub).
        private = path[: -len(".pub")] if path.endswith(".pub") else None
        if private and os.path.isfile(private):
            return _load_key(private, options, attempts)
        attempts.tried.append(f"{_short(path)} (a public key, and no such key in ssh-agent)")
        return None
    try:
        key = open_key_file(path)
    except TypeError:  # cryptography: "Key is password-protected, but password was not provided"
        return _load_encrypted_key(path, options, attempts)
    except (ValueError, OSError, paramiko.SSHException) as exc:
        attempts.tried.append(f"{_short(path)} (unreadable: {_unreadable_reason(path, exc)})")
        return None
    except Exception as exc:  # noqa: BLE001 - see _unusable: one key file must not fail the host
        attempts.tried.append(f"{_short(path)} ({_unusable(exc, path)})")
        return None
    _KEY_CACHE[path] = key
    return key


# PKCS#8 PEM: what Oracle Cloud's console hands out, `openssl genpkey` and `ssh-keygen -m PKCS8` write.
_PKCS8_HEADERS = (b"-----BEGIN PRIVATE KEY-----", b"-----BEGIN ENCRYPTED PRIVATE KEY-----")


def open_key_file(path: str, passphrase: bytes | None = None) -> paramiko.PKey:
    """The key in `path` (and its `-cert.pub`), as paramiko's PKey.from_path opens it, and also in
    PKCS#8 form, RSA or ECDSA, which ssh(1) takes (openssh-portable: sshkey.c,
    sshkey_parse_private_pem_fileblob, through OpenSSL). paramiko tells the type from such a file
    and then parses only PKCS#1 and OpenSSH forms (paramiko/pkey.py, from_path): "not a valid RSA
    private key file". Raises as from_path does: TypeError without a needed passphrase,
    ValueError for a wrong one."""
    try:
        return paramiko.PKey.from_path(path, passphrase)
    except paramiko.SSHException:
        with open(path, "rb") as handle:
            data = handle.read()
        if not data.lstrip().startswith(_PKCS8_HEADERS):
            raise
        loaded = serialization.load_pem_private_key(data, passphrase)
        if isinstance(loaded, rsa.RSAPrivateKey):
            key: paramiko.PKey = paramiko.RSAKey(key=loaded)
        elif isinstance(loaded, ec.EllipticCurvePrivateKey):
            key = paramiko.ECDSAKey(vals=(loaded, loaded.public_key()))
        else:
            raise  # an ed25519 PKCS#8 key: ssh(1) 9.x refuses it too ("invalid format")
    if os.path.exists(f"{path}-cert.pub"):
        key.load_certificate(f"{path}-cert.pub")
    return key


def too_open_mode(path: str) -> str | None:
    """`0644` for a private key file of ours that others may read or write, which ssh(1) ignores
    ("UNPROTECTED PRIVATE KEY FILE!", "This private key will be ignored"): it checks only a file
    the user owns, against 077 (openssh-portable: sshkey.c, sshkey_perm_ok). We still offer it,
    so a run that works is not broken; a refused login names it (ssh_auth)."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    if found.st_uid != os.getuid() or not found.st_mode & 0o077:
        return None
    return f"0{stat.S_IMODE(found.st_mode):03o}"


# The ciphers paramiko opens an OpenSSH-format key with (paramiko/pkey.py, _read_private_key_openssh,
# through Transport._cipher_info; checked against paramiko 5.1 with every `ssh -Q cipher` name: the
# others fail, "Unsupported cipher" or, for aes256-gcm@openssh.com, KeyError 'mode').
_OPENABLE_KEY_CIPHERS = frozenset({"none", "aes256-ctr", "aes256-cbc"})
_OPENSSH_KEY_MAGIC = b"openssh-key-v1\0"


def _key_cipher(path: str) -> str | None:
    """The cipher an OpenSSH-format key file is encrypted with (`ssh-keygen -Z`; PROTOCOL.key in
    openssh-portable: the header's first string), or None for another file."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(64 * 1024).decode("ascii", "replace")
        body = text.split("-----BEGIN OPENSSH PRIVATE KEY-----", 1)[1].split("-----END", 1)[0]
        blob = base64.b64decode("".join(body.split()))
    except (OSError, IndexError, ValueError):
        return None
    if not blob.startswith(_OPENSSH_KEY_MAGIC) or len(blob) < len(_OPENSSH_KEY_MAGIC) + 4:
        return None
    at = len(_OPENSSH_KEY_MAGIC)
    size = int.from_bytes(blob[at : at + 4], "big")
    return blob[at + 4 : at + 4 + size].decode("ascii", "replace") or None


def _unusable(exc: BaseException, path: str) -> str:
    """Why a key file that parses as a key cannot be used, for the "tried:" list.

    cryptography refuses FIDO security keys (`sk-ssh-ed25519@openssh.com`, `ssh-keygen -t
    ed25519-sk`: "sk-ssh-ed25519 private keys cannot be loaded", UnsupportedAlgorithm), which
    paramiko cannot sign with, and raises assorted errors (AssertionError, UnsupportedAlgorithm)
    on a damaged file. Escaping the login, either failed the host as "internal error", although
    ssh(1) goes on to the next identity and a later key in the list would have worked.
    """
    text = _one_line(exc)
    if "sk-" in text:
        return "a FIDO security key (-sk), which spec-debug cannot use: give it a plain ed25519 key too"
    cipher = _key_cipher(path)
    if cipher is not None and cipher not in _OPENABLE_KEY_CIPHERS:
        # ssh(1) opens every cipher `ssh-keygen -Z` offers; paramiko two of them. "unusable:
        # 'mode'" (aes256-gcm's KeyError) named neither the cipher nor a way out.
        return (f"encrypted with {cipher}, which spec-debug cannot open: load it into ssh-agent (`ssh-add {_short(path)}`), "
                f"or re-encrypt it with `ssh-keygen -p -Z aes256-ctr -f {_short(path)}`")
    return f"unusable: {text}"


def _load_encrypted_key(path: str, options: AuthOptions, attempts: _Attempts) -> paramiko.PKey | None:
    if options.batch:
        attempts.encrypted_skipped.append(_short(path))
        return None
    if options.prompt is getpass.getpass and not _can_ask():
        # getpass falls back to reading stdin without a terminal: in CI or under nohup that
        # blocks forever on an open pipe, or fails with EOFError on /dev/null.
        attempts.encrypted_skipped.append(_short(path))
        attempts.no_terminal = True
        return None
    with _PROMPT_LOCK:
        if path in _KEY_CACHE:  # another host thread asked while we waited
            return _KEY_CACHE[path]
        with options.prompt_guard():
            key = _ask_passphrase(path, options, attempts)
        if key is not None:
            return key
    if not (attempts.tried and attempts.tried[-1].startswith(f"{_short(path)} (")):  # _unusable said why already
        attempts.tried.append(f"{_short(path)} (encrypted, no valid passphrase given)")
    return None


def _ask_passphrase(path: str, options: AuthOptions, attempts: _Attempts) -> paramiko.PKey | None:
    """Up to three tries, like ssh(1); None when none opened the key (or no answer came)."""
    for _ in range(3):
        question = f"Enter passphrase for key '{_short(path)}': "
        if options.prompt is getpass.getpass:
            passphrase = read_passphrase(question, attempts.give_up)
        else:
            passphrase = None if attempts.give_up() else options.prompt(question)
        if not passphrase:
            return None
        try:
            key = open_key_file(path, passphrase.encode())
        except (ValueError, TypeError):
            continue  # wrong passphrase: ask again, like ssh(1)
        except Exception as exc:  # noqa: BLE001 - opened, but a key we cannot use (_unusable)
            attempts.tried.append(f"{_short(path)} ({_unusable(exc, path)})")
            return None
        _KEY_CACHE[path] = key
        return key
    return None


def _unreadable_reason(path: str, exc: BaseException) -> str:
    """A short reason instead of cryptography's "Unable to load PEM file. See https://..."."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(64)
    except OSError as error:
        return error.strerror or str(error)
    if head.startswith(b"PuTTY-User-Key-File"):
        return "a PuTTY .ppk key; convert it with `puttygen KEY -O private-openssh -o KEY.openssh`"
    if not head.strip():
        return "empty file"
    text = str(exc).split(". See https://", 1)[0].strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _short(path: str) -> str:
    home = os.path.expanduser("~")
    return "~" + path[len(home) :] if home != "/" and path.startswith(home + "/") else path

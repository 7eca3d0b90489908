"""Where `--host gpu01` really goes: OpenSSH client configuration, resolved like `ssh` does.

Pure functions over a parsed config: `parse_destination` splits `user@host:port`, and
`resolve_target` turns a name into a `SSHTarget` (address, port, user, keys, jump hosts,
known_hosts files, timeouts) using paramiko's ssh_config parser, which implements the
first-match-wins rule and token expansion (paramiko/paramiko: paramiko/config.py).

What OpenSSH does and we follow (openssh-portable: readconf.c, ssh.c, ssh_config(5)):
- `-F FILE` replaces the user's ~/.ssh/config entirely (the system file is not read either).
- A user or port given on the command line (`user@host:port`, or an inventory's
  ansible_user/ansible_port) wins over the config, and is the one that `%r`/`%p` expand to and
  `Match user` sees: ssh(1) sets it before reading the config, where the first value wins.
- Host keys are looked up under HostKeyAlias if set, else under the resolved HostName,
  written `[host]:port` when the port is not 22.
- Jump hosts are resolved through the same config, each with its own settings.
- A host key RevokedHostKeys revokes, or an RSA one shorter than RequiredRSASize, is refused
  before known_hosts is read, and NoHostAuthenticationForLocalhost takes any key of a loopback
  address connected to directly (ssh_revoked_keys; ssh_handshake, _host_authentication_skipped).
- `%` tokens in IdentityFile and ProxyCommand are ssh(1)'s, `%n`, `%p` and `%%` included;
  `Match exec` commands run (as in ssh(1)) with stdin and stdout on /dev/null;
  CanonicalizeHostname applies to the HostName, never replaces it.
- Values are read as ssh(1) splits them (misc.c, argv_split: `IdentityFile ~/.ssh/"my key"`);
  SendEnv lines add up and SetEnv's first line wins (readconf.c), sent on every session
  (environment_to_send; ssh.py sends them).

Read but deliberately not followed: CheckHostIP. Off by default since OpenSSH 8.5, and ssh(1)
skips it anyway for a loopback address, a host named by its address, and any ProxyCommand or
ProxyJump (openssh-portable: sshconnect.c, check_host_key). Where it is on, ssh(1) also files the
address's key in known_hosts and warns when it differs from the name's; here the key is checked
under the name (or HostKeyAlias) only, and the address's entries serve only to name the fix when
the name has none (ssh_handshake, _other_known_hosts_names). BindAddress and BindInterface are
followed (ssh_config_values, _bind_address; ssh_tcp, _create_connection).

Where OpenSSH releases differ, the tests' ground truth is `ssh -G` of OpenSSH 9.2 (Debian 12):
%C does not hash the ProxyJump (9.6 added it: readconf.c, ssh_connection_hash). What later
releases read that 9.2 refuses or takes literally is read as they read it, so that a config
written for them is never refused: their keywords and Match criteria, `%j` (9.6), `${VAR}` and
this machine's `%` tokens in Include (9.9: readconf.c, oInclude), `%` tokens and `${VAR}` in
User (10.0: ssh.c, main), RefuseConnection (10.1: readconf.c, oRefuseConnection), several
RevokedHostKeys files and fractional seconds (10.3: readconf.c, oRevokedHostKeys; misc.c,
convtime_double).

This module reads the files (Include, each line as ssh(1) splits it) and resolves a host; the
rules it applies each have a module: ssh_target (Destination, SSHTarget, `user@host:port`),
ssh_quoting (argv_split, trailing comments), ssh_env (SendEnv/SetEnv), ssh_tokens (`%` tokens
and `${VAR}`), ssh_lookup (paramiko's lookup made ssh(1)'s: Match, CanonicalizeHostname),
ssh_local_network (`Match localnetwork`, BindInterface), ssh_config_values (keyword values:
flags, times, ports), ssh_config_keywords (the lines ssh(1) refuses: unknown keywords, missing
or extra values, bad Host/Match lines) and ssh_args (ssh's command-line options).
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import stat
from pathlib import Path

import paramiko

from spec_debug.errors import UsageError
from spec_debug.record import shown_surrogate
from spec_debug.runner.ssh_args import ADDED_UP_SEPARATOR, SSH_CONFIG_FILE_OPTION, parse_ssh_args
from spec_debug.runner.ssh_config_keywords import (
    BadConfigLine,
    check_block_line,
    check_config_line,
    ignored_unknown_patterns,
    sets_nothing,
)
from spec_debug.runner.ssh_config_modes import opens, refuse_if_others_can_write
from spec_debug.runner.ssh_config_values import (
    VALUES_CHECKED_AS_READ,
    _add_keys_to_agent,
    _address_family,
    _bind_address,
    _certificate_files,
    _flag,
    _global_known_hosts_files,
    _login_methods,
    _no_key_logins,
    _number,
    _port,
    _revoked_host_keys,
    _seconds,
    _strict_host_key_checking,
    _unless_none,
    _user_known_hosts_files,
)
from spec_debug.runner.ssh_env import _ENVIRONMENT_KEYS, _LINE_IDS, _check_environment_word, _environment, environment_to_send
from spec_debug.runner.ssh_errors import HostUnreachableError
from spec_debug.runner.ssh_lookup import (
    BLOCK_AGAIN_CRITERION,
    BLOCK_ID_CRITERION,
    CERTIFICATE_FILE_KEY,
    HOST_LINE_COMMA,
    HOST_LINE_CRITERION,
    _with_command_line,
)
from spec_debug.runner.ssh_quoting import _RAW_LINE_KEYWORDS, _argv_quoted, argv_split, without_trailing_comment
from spec_debug.runner.ssh_agent_forward import agent_to_forward
from spec_debug.runner.ssh_control_master import master_control_path
from spec_debug.runner.ssh_target import (
    BLOCKING_CONNECT_S,
    DEFAULT_CONNECT_TIMEOUT_S,
    DEFAULT_IDENTITY_FILES,
    DEFAULT_KEEPALIVE_S,
    DEFAULT_PORT,
    DEFAULT_REQUIRED_RSA_SIZE,
    PROXY_COMMAND_HANDSHAKE_S,
    AddKeysToAgent,
    Destination,
    JumpHop,
    SSHTarget,
    parse_destination,
    parse_proxy_jump,
)
from spec_debug.runner.ssh_tokens import (
    RefusedExpansion,
    _environment_expanded_strict,
    identity_agent_socket,
    include_path_expanded,
    local_user,
    user_expanded,
)

# The public names of this module before it was split (ssh_target, ssh_quoting, ssh_env,
# ssh_args hold them now): callers and tests import them from here.
__all__ = [
    "AddKeysToAgent",
    "BLOCKING_CONNECT_S",
    "DEFAULT_CONNECT_TIMEOUT_S",
    "DEFAULT_IDENTITY_FILES",
    "DEFAULT_KEEPALIVE_S",
    "DEFAULT_PORT",
    "Destination",
    "JumpHop",
    "SSHTarget",
    "SSH_CONFIG_FILE_OPTION",
    "argv_split",
    "environment_to_send",
    "expand_includes",
    "load_ssh_config",
    "parse_destination",
    "parse_proxy_jump",
    "parse_ssh_args",
    "resolve_target",
    "system_ssh_config",
    "without_trailing_comment",
]


INVALID_HOST_NAME = "not a valid host name: a dot-separated part of it is empty or longer than 63 characters"
"""Why a name Python's idna encoding refuses (UnicodeError, not socket.gaierror) resolves to nothing."""


def invalid_host_name(name: str) -> str:
    """Why Python's idna encoding refused name. A byte that is not UTF-8 (`ssh $'h\\xe9'`: PEP 383
    gives Python's argv the surrogate U+DCE9) is refused as an "Invalid character", not for a
    part's length; the reason said so, sending the user to count the name's dots."""
    byte = next((char for char in name if "\udc80" <= char <= "\udcff"), None)
    if byte is None:
        return INVALID_HOST_NAME
    return f"not a valid host name: it holds the byte {shown_surrogate(byte)}, which is not UTF-8"


def quoted_host_name(name: str) -> str:
    """name quoted as repr() quotes it, but a byte that is not UTF-8 shown as run.json and the
    reports show it (record.shown_surrogate: `'h\\xe9'`); repr() wrote its surrogate (`'h\\udce9'`),
    a form beside the record's `h\\xe9` that names no byte."""
    if name.isascii():
        return repr(name)
    return "'" + "".join(shown_surrogate(char) if "\udc80" <= char <= "\udcff" else repr(char)[1:-1] for char in name) + "'"


def system_ssh_config() -> Path:
    """The system-wide file ssh(1) reads after the user's (ssh_config(5), FILES). Overridable
    for tests and unusual installs (``SPEC_DEBUG_SYSTEM_SSH_CONFIG``)."""
    return Path(os.environ.get("SPEC_DEBUG_SYSTEM_SSH_CONFIG", "/etc/ssh/ssh_config"))


def load_ssh_config(path: Path | str | None) -> paramiko.SSHConfig:
    """The config `ssh` would read: FILE when given (`-F`, and then nothing else, as ssh(1)
    does), else ~/.ssh/config followed by the system-wide /etc/ssh/ssh_config. Clusters put
    their ProxyJump rules in /etc/ssh/ssh_config.d/*.conf; without it `ssh gpu01` works where
    we could not connect. The first value obtained wins, so the user's file comes first."""
    if path is not None and str(path).lower() == "none":
        # ssh(1), -F: "If set to none, no configuration files will be read" (openssh-portable:
        # ssh.c, main): how scripts ask for a host exactly as given. It was "file not found: none".
        return paramiko.SSHConfig()
    if path is not None:
        config_path = Path(os.path.expanduser(str(path)))
        if _is_the_null_device(config_path):
            # `-F /dev/null`, the common way to have ssh(1) read no config file at all (scripts,
            # Ansible's ansible_ssh_common_args): ssh(1) reads it as an empty file. Not a regular
            # file, it was "ssh config file not found: /dev/null" and the run stopped.
            return paramiko.SSHConfig()
        if config_path.is_dir():
            raise UsageError(f"ssh config file {config_path} is a folder",
                             hint=f"name the file, e.g. -F {config_path / 'config'}")
        if not config_path.is_file():
            raise UsageError(f"ssh config file not found: {config_path}")
        return _parse([(config_path, None)], checked=())
    user_file, system_file = Path(os.path.expanduser("~/.ssh/config")), system_ssh_config()
    # A system file's relative Include is under its own folder, /etc/ssh (readconf.c: the
    # user's file resolves under ~/.ssh, the system one under SSHDIR).
    return _parse([(p, base) for p, base in ((user_file, None), (system_file, str(system_file.parent)))
                   if opens(p)], checked=(user_file,))


def _is_the_null_device(path: Path) -> bool:
    """Whether `path` is /dev/null, by any name (a link to it, /proc/self/fd/N of it)."""
    try:
        info, null = path.stat(), os.stat(os.devnull)
    except OSError:
        return False
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == null.st_rdev


def _parse(files: list[tuple[Path, str | None]], checked: tuple[Path, ...]) -> paramiko.SSHConfig:
    """`checked`: the files whose owner and mode ssh(1) checks (~/.ssh/config; not `-F FILE` nor
    the system file; an included one always: ssh_config_modes)."""
    texts = []
    ignored_unknown: list[str] = []
    for config_path, relative_to in files:
        if config_path in checked:
            refuse_if_others_can_write(config_path)
        try:
            text = expand_includes(config_path, relative_to=relative_to, ignored_unknown=ignored_unknown)
        except BadConfigLine as exc:  # its message names the file (an included one, maybe) and line
            raise UsageError(f"ssh config {exc}", hint=exc.hint) from None
        except (OSError, ValueError) as exc:  # unreadable, or not UTF-8
            raise UsageError(f"cannot read ssh config {config_path}: {exc}") from None
        texts.append(("Host *\n" if texts else "") + text)  # ends the previous file's last block
    if not texts:
        return paramiko.SSHConfig()
    try:
        return paramiko.SSHConfig.from_text("".join(texts))
    except (paramiko.ConfigParseError, ValueError) as exc:
        raise UsageError(f"cannot read ssh config {', '.join(str(p) for p, _ in files)}: {exc}") from None


_INCLUDE = re.compile(r"^\s*include(?:\s*=\s*|\s+)(.+)$", re.IGNORECASE)
_BLOCK = re.compile(r"^\s*(host|match)(\s*=\s*|\s+)", re.IGNORECASE)
_MAX_INCLUDE_DEPTH = 16  # OpenSSH's READCONF_MAX_DEPTH


def expand_includes(path: Path, *, depth: int = 0, relative_to: str | None = None, enclosing: str = "Host *",
                    ignored_unknown: list[str] | None = None) -> str:
    """The config text with `Include` lines replaced by the files they name.

    paramiko's parser ignores Include (paramiko/paramiko: paramiko/config.py), yet many
    ~/.ssh/config files are a list of `Include config.d/*`. As in OpenSSH (readconf.c,
    ssh_config(5)): relative names are under ~/.ssh, globs expand in sorted order, a missing
    file is skipped, and an Include inside a Host/Match block only applies within it. The
    enclosing block header is repeated after the included text so that the lines after the
    Include stay in their block (a Match header as the result it had: _again), and the
    included file's own Host/Match blocks are narrowed to it (`enclosing`: see _narrowed). A line ssh(1) refuses is refused here too, naming the
    file and line (ssh_config_keywords); `ignored_unknown` collects IgnoreUnknown's patterns
    across the files read, as ssh(1) keeps them in one options struct.
    """
    if ignored_unknown is None:
        ignored_unknown = []
    if depth > _MAX_INCLUDE_DEPTH:
        raise UsageError(f"ssh config: Include nested deeper than {_MAX_INCLUDE_DEPTH} at {path}")
    base = relative_to or os.path.expanduser("~/.ssh")
    within = _criteria(enclosing)
    lines: list[str] = []
    block = enclosing
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    if text.startswith("\ufeff"):
        # Notepad's "UTF-8 with BOM", PowerShell 5's `Out-File -Encoding utf8`: ssh(1) stops at
        # it ("Bad configuration option: \357\273\277host"), and paramiko's "Unparsable line
        # Host gpu01" showed nothing wrong, the mark being invisible.
        raise ValueError(f"{path} starts with a byte-order mark (saved as \"UTF-8 with BOM\" by a Windows editor); "
                         "ssh(1) refuses it too: save the file as plain UTF-8")
    if text.startswith(("\udcff\udcfe", "\udcfe\udcff")) or _utf16_without_mark(text[:4]):
        # Windows PowerShell 5's `>` and Out-File write UTF-16: ssh(1) stops at its first line
        # ('no argument after keyword "\377\376h"'), or, big-endian with no mark, reads each
        # line as empty (it starts with NUL) and applies none; read here up to each NUL, it was "Unparsable line H".
        raise ValueError(f"{path} is saved as UTF-16 (as Windows PowerShell's `>` and Out-File write it); "
                         "ssh(1) cannot read it either: save the file as UTF-8")
    # Lines end at "\n" only, as ssh(1) reads them (getline; a "\r" before it is trailing blank):
    # str.splitlines also breaks at U+2028, U+0085 and form feeds, so a comment pasted from a web
    # page became two lines, the second one "Bad configuration option", and line numbers shifted.
    # A block's first ProxyCommand wins, as every keyword's first value does in ssh(1); paramiko
    # lets a later `ProxyCommand none` in the same block replace it (paramiko/config.py, parse
    # stores none as None over what is there), so the host was reached directly, not through
    # the bastion `ssh gpu01` uses. Later ProxyCommand lines of a block are dropped here.
    proxy_command_met = False
    for number, line in enumerate(text.removesuffix("\n").split("\n"), 1):
        # ssh(1) reads each line as a C string, which ends at its first NUL byte (readconf.c,
        # read_config_file: getline, then process_config_line on the text): a config whose tail
        # a crash filled with zeros (written just before a power loss) works with `ssh`, where
        # paramiko refused the whole file ("Unparsable line \x00") and every host of the run.
        line = line.split("\x00", 1)[0].removesuffix("\r")
        uncommented = without_trailing_comment(line)
        line = "" if sets_nothing(uncommented, line) else _utf8_outside_comments(uncommented, path, number)
        include = _INCLUDE.match(line)
        if include is None:
            if _BLOCK.match(line):
                line = _criteria_in_lower_case(line)
                words = _check_block(line, path, number)
                line = _remembered(_narrowed(_without_trailing_all(line, words), within))
                block = line.strip()
                proxy_command_met = False
            else:
                _check_line(line, path, number, ignored_unknown)
                keyword = _KEYWORD_LINE.match(line)
                if keyword is not None and keyword.group(2).lower() == "proxycommand":
                    line, proxy_command_met = ("" if proxy_command_met else line), True
                line = _as_ssh_reads_it(line, path, number)
            lines.append(line)
            continue
        for written in shlex.split(include.group(1)):
            pattern = include_path_expanded(written)
            if pattern is None:
                continue
            pattern = os.path.expanduser(pattern)
            if not os.path.isabs(pattern):
                pattern = os.path.join(base, pattern)
            for included in sorted(glob.glob(pattern)):
                if os.path.isfile(included):
                    refuse_if_others_can_write(Path(included), included=True)
                    lines.append(expand_includes(Path(included), depth=depth + 1, relative_to=relative_to, enclosing=block,
                                                 ignored_unknown=ignored_unknown))
                    lines.append(_again(block))
                    proxy_command_met = False  # the repeated header opens a new block for paramiko
    return "\n".join(lines) + "\n"


def _utf16_without_mark(head: str) -> bool:
    """Whether a file's first four characters are two UTF-16 code units of ASCII text ("H\\0o\\0",
    "\\0H\\0o"): NUL and not NUL in turn. Two alone were taken for it, so a zero-filled file whose
    first line was one character ("\\n", "#") was refused as UTF-16 where ssh(1) reads it."""
    if len(head) < 4:
        return False
    nul = [char == "\x00" for char in head]
    return nul in ([False, True, False, True], [True, False, True, False])


def _check_line(line: str, path: Path, number: int, ignored_unknown: list[str]) -> None:
    """Refuse a line ssh(1) refuses (ssh_config_keywords), after noting an IgnoreUnknown's patterns."""
    if line.lstrip().startswith("#"):
        return
    ignored_unknown.extend(ignored_unknown_patterns(line))
    match = _KEYWORD_LINE.match(line)
    words = None
    if match is not None:
        # ssh(1) splits every line's value before it looks at the keyword or the block, and
        # refuses the whole file on a quote left open (openssh-portable: readconf.c,
        # process_config_line_depth: "invalid quotes"), a command's line too. A
        # `ProxyCommand "/opt/proxy %h` was run as written, and an open quote under another
        # host's block passed, where `ssh` refuses the file.
        try:
            words = argv_split(match.group(3), terminate_on_comment=True)
        except ValueError as exc:  # `unclosed " in '"/usr/bin/nc %h %p'`
            raise BadConfigLine(f"{path} line {number}: invalid quotes ({exc})",
                                "ssh(1) refuses this file too; close the quote") from None
        if match.group(2).lower() in _RAW_LINE_KEYWORDS:
            words = None  # a command: its words are the shell's to split
    check_config_line(line, words, path, number, ignored_unknown)
    if match is not None and words:
        _check_value(match.group(2), words[0], f"{path} line {number}")


def _check_value(keyword: str, value: str, where: str) -> None:
    """Refuse a value ssh(1) refuses, naming the file and line. `StrictHostKeyChecking maybe`
    under the host looked up stopped the run without them ("ssh config: StrictHostKeyChecking
    'maybe' is not a value ssh(1) knows"), and under another host's block passed, where `ssh`
    refuses the whole file."""
    check = VALUES_CHECKED_AS_READ.get(keyword.lower())
    if check is None:
        return
    try:
        check(value, keyword)
    except UsageError as exc:
        raise BadConfigLine(f"{where}: {exc.message.removeprefix('ssh config: ')}",
                            exc.hint or "ssh(1) refuses this file too; fix the value, or delete the line") from None


def _check_block(line: str, path: Path, number: int) -> list[str] | None:
    """Refuse a Host or Match line ssh(1) refuses (ssh_config_keywords), naming file and line;
    the line's words after the keyword."""
    block = _BLOCK.match(line)
    assert block is not None
    try:
        words: list[str] | None = argv_split(line[block.end():])
    except ValueError:
        words = None
    check_block_line(block.group(1), words, path, number)
    return words


_KEYWORD_LINE = re.compile(r"^(\s*)(\w+)(?:\s*=\s*|\s+)(.*)$")
_QUOTING = re.compile(r"[\"'\\]")
# Values that are lists of words, split again with argv_split after the lookup (_split_files).
_WORD_LIST_KEYWORDS = frozenset({"userknownhostsfile", "globalknownhostsfile", "revokedhostkeys"})
_SERVER_ALIVE_INTERVAL_ALIASES = frozenset({"protocolkeepalives", "setuptimeout"})


def _as_ssh_reads_it(line: str, path: Path, number: int) -> str:
    """A config line rewritten so that paramiko's parser gets the values ssh(1) reads.

    Quotes: ssh(1) splits every value with argv_split, so `IdentityFile ~/.ssh/"my key"` names
    `~/.ssh/my key`; paramiko drops quotes only around a whole value (paramiko/config.py, parse)
    and kept them, naming a file that does not exist. A value with a quote or backslash is split
    here and written back as paramiko then reads it; other lines are left exactly as written.

    SendEnv and SetEnv: paramiko keeps a keyword's first value (it lists only IdentityFile and
    the forwards), but ssh(1) adds every SendEnv line that applies to the list (readconf.c,
    oSendEnv: "appends to list; doesn't respect first-match-wins") and takes the first SetEnv
    line whole (oSetEnv). Each such line gets a key of its own, numbered in config order, so the
    lookup keeps all of them; _environment reads them back. Bad names are refused here, in any
    block, as ssh(1) refuses them ("Invalid environment name", "Invalid SetEnv").
    """
    match = _KEYWORD_LINE.match(line)
    if match is None:
        return line
    indent, keyword, value = match.groups()
    key = keyword.lower()
    if key in _RAW_LINE_KEYWORDS and value.strip()[:1] == value.strip()[-1:] == '"' and len(value.strip()) > 1:
        # ssh(1) runs the command as written, quotes and all (readconf.c, parse_command); paramiko
        # drops a first and last `"` of a value, so Azure Arc's `ProxyCommand "/path/sshProxy" -r
        # "/path/relay_info"` ran as `/path/sshProxy" -r "/path/relay_info`, and the shell
        # refused its quotes. A pair of its own for paramiko to drop keeps the command whole.
        return f'{indent}{keyword} "{value.strip()}"'
    if key in _RAW_LINE_KEYWORDS or key in ("host", "match", "include"):
        return line
    if key in _SERVER_ALIVE_INTERVAL_ALIASES:
        # Debian's and Ubuntu's ssh(1) read both as ServerAliveInterval (debian/patches/
        # keepalive-extensions.patch; `ssh -G` there shows `serveraliveinterval`), first value winning.
        keyword = "ServerAliveInterval"
        line = f"{indent}{keyword} {value}"
    if key == "certificatefile":
        # ssh(1) offers every CertificateFile that applies (readconf.c, add_certificate_file);
        # paramiko kept the first, so a valid certificate on a second line was never offered.
        keyword = f"{CERTIFICATE_FILE_KEY}{next(_LINE_IDS):09d}"
        line = f"{indent}{keyword} {value}"
    if key not in _ENVIRONMENT_KEYS and not _QUOTING.search(value):
        return line
    words = argv_split(value)  # its quotes close: _check_line refused the line otherwise
    if key in _ENVIRONMENT_KEYS:
        if not words:
            raise ValueError(f"{path} line {number}: {keyword} names no variable")
        for word in words:
            _check_environment_word(key, word, f"{path} line {number}")
        return f"{indent}{_ENVIRONMENT_KEYS[key]}{next(_LINE_IDS):09d} {_argv_quoted(words)}"
    if key in _WORD_LIST_KEYWORDS:
        return f"{indent}{keyword} {_argv_quoted(words)}"
    if len(words) == 1:
        return f'{indent}{keyword} "{words[0]}"'  # paramiko drops exactly these outer quotes
    if not any(blank in word for word in words for blank in " \t"):
        return f"{indent}{keyword} {' '.join(words)}"  # `AddKeysToAgent "confirm" 5m`
    return line


def _utf8_outside_comments(line: str, path: Path, number: int) -> str:
    """`line` (comment removed) if it is UTF-8; ValueError (a usage error, by _parse) if not.

    ssh(1) reads bytes: a comment saved in Latin-1 by an old editor (`# Rechner für ...`)
    stopped every run as "cannot read ssh config: 'utf-8' codec can't decode". Only bytes in
    a comment are let through (read with surrogateescape, then dropped with the comment); a
    value that is not UTF-8 (a user or path paramiko would have to send) is still refused.
    """
    if line.lstrip().startswith("#") or not any("\udc80" <= char <= "\udcff" for char in line):
        return line
    raise ValueError(f"{path} line {number} is not UTF-8: {line.encode('utf-8', 'surrogateescape')!r}")


# A word as argv_split reads it: quoted parts (with their backslash escapes) and all.
_MATCH_WORD = re.compile(r"""(?:"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\\.|[^\s"'\\])+""")
_CRITERIA_WITHOUT_ARGUMENT = frozenset({"all", "canonical", "final"})


def _criteria_in_lower_case(header: str) -> str:
    """A Match line with its criteria's names in lower case, their arguments as written.

    ssh(1) reads the names in any case (openssh-portable: readconf.c, match_cfg_line uses
    strcasecmp), and home-manager writes them capitalised (`match = "Host rfive.de User git"`).
    paramiko compares them as written: `Match Final` / `Match All` stopped every run ("Missing
    parameter to Match 'Final' keyword"), and the unknown `User` counted as met by every host.

    `criterion=argument` (`Match host=gpu* user=ml`) is split into the two words: ssh(1) takes
    both forms (OpenSSH 9.2 splits Match words at `=` too; 10.x reads the `=` form on purpose,
    openssh-portable: readconf.c, match_cfg_line, strprefix "host="), where paramiko took
    `host=gpu*` for a criterion and `user=ml` for its argument.
    """
    block = _BLOCK.match(header)
    if block is None or block.group(1).lower() != "match":
        return header
    words = []
    expect_argument = False
    for word in _MATCH_WORD.finditer(header, block.end()):
        text = word.group(0)
        if expect_argument:
            expect_argument = False
        elif text.startswith("#"):
            break
        else:
            name, equals, argument = text.partition("=")
            if equals and not argument and name.lstrip("!").lower() in ("tagged", "command"):
                argument = '""'  # `tagged=`: the empty tag (10.x takes an empty argument for these two)
            if equals and name.lstrip("!").lower() not in _CRITERIA_WITHOUT_ARGUMENT:
                text = f"{name.lower()} {argument}" if argument else name.lower()
                expect_argument = not argument
            else:
                text = text.lower()
                expect_argument = text.lstrip("!") not in _CRITERIA_WITHOUT_ARGUMENT
        words.append((word.start(), word.end(), text))
    rebuilt, last = [header[:block.end()]], block.end()
    for start, end, text in words:
        rebuilt += [header[last:start], text]
        last = end
    return "".join(rebuilt) + header[last:]


def _narrowed(header: str, within: tuple[str, ...]) -> str:
    """A Host/Match line of a file included inside a block, as a Match that also requires that
    block's criteria (`within`).

    In OpenSSH the blocks of a file included from a Host or Match block that does not apply
    can never apply either (openssh-portable: readconf.c, oInclude passes SSHCONF_NEVERMATCH,
    and process_config_line_depth then leaves every Host/Match inactive). Flattened into one
    text for paramiko, `Host *.work` + `Include work_config` holding `Host *  ProxyJump
    work-bastion` sent every host, home ones too, through the work bastion.
    """
    if not within:
        return header
    combined = (*within, *_criteria(header))
    return "Match " + " ".join(combined) if combined else "Host *"


def _without_trailing_all(header: str, words: list[str] | None) -> str:
    """`Match final all` as `Match final` (and `canonical all` as `canonical`, `host gpu01 all`
    as `host gpu01`, `!all` as a host that never matches): the same condition, as ssh(1) reads
    it (readconf.c, match_cfg_line: `all` may end a line after one other criterion, check_block_line).
    paramiko refuses the form ("Match does not allow 'all' mixed with
    anything but 'canonical'": paramiko/config.py, _get_matches), and Fedora and RHEL ship it
    in /etc/ssh/ssh_config.d/50-redhat.conf (around the crypto-policies Include), as do
    hardening profiles (02-ospp.conf) and 1Password's setup guides: on such a machine every
    run stopped before reaching any host, where `ssh` worked."""
    block = _BLOCK.match(header)
    if block is None or block.group(1).lower() != "match":
        return header
    raw = list(_MATCH_WORD.finditer(header, block.end()))
    if not words or len(words) != len(raw):  # `words`: the header's, split by _check_block
        return header
    # Walk the words as match_cfg_line does: a criterion other than all/canonical/final takes
    # the next word as its argument, so `Match canonical host all` is a host named "all" (the
    # last of three words, yet no `all` criterion). check_block_line refused the rest (`all` not
    # last, twice, or after two criteria).
    at, last_criterion = 0, -1
    while at < len(words):
        last_criterion = at
        at += 1 if words[at].lstrip("!").lower() in _CRITERIA_WITHOUT_ARGUMENT else 2
    if last_criterion != len(words) - 1 or words[-1].lstrip("!").lower() != "all":
        return header
    kept = header[: raw[-1].start()].rstrip()
    if not words[-1].startswith("!"):
        # `Match "all"` (quoted: ssh(1) unquotes it, argv_split) as paramiko reads it.
        return kept + " all" if len(words) == 1 else kept
    # `Match !all` holds for no host in ssh(1) (match_cfg_line: negated, result 0), a way to
    # switch a block off; paramiko refused it as `all` mixed with something. "/" is in no host name.
    return kept + " host /"


def _remembered(header: str) -> str:
    """A Match line marked so that its result is kept for the repeats of it (_again): see
    BLOCK_ID_CRITERION. `all` stays alone, as paramiko requires (and it never changes)."""
    block = _BLOCK.match(header)
    if block is None or block.group(1).lower() != "match":
        return header
    rest = header[block.end():].strip()
    if "all" in rest.lower().split():
        return header
    return f"Match {BLOCK_ID_CRITERION} {next(_LINE_IDS)} {rest}"


def _again(header: str) -> str:
    """The header repeated after an Include: a Host line as it is (it tests only the name), a
    marked Match line as the result it had (BLOCK_AGAIN_CRITERION)."""
    words = header.split()
    if len(words) > 2 and words[0] == "Match" and words[1] == BLOCK_ID_CRITERION:
        return f"Match {BLOCK_AGAIN_CRITERION} {words[2]}"
    return header


def _criteria(header: str) -> tuple[str, ...]:
    """A Host/Match line's condition as Match criteria; () for one that every host meets."""
    block = _BLOCK.match(header)
    if block is None:
        return ()
    rest = header[block.end():].strip()
    if block.group(1).lower() == "match":
        words = rest.split()
        if len(words) > 1 and words[0] == BLOCK_ID_CRITERION:
            return (f"{BLOCK_AGAIN_CRITERION} {words[1]}",)  # the block as it was met, once
        if words and words[-1].lower() == "all" and all(word.lower() in ("all", "canonical", "final") for word in words):
            return tuple(word for word in words if word.lower() != "all")  # `all` may not be combined
        return (rest,)
    patterns = rest.split()
    if patterns == ["*"]:
        return ()
    # `Host a* !ab`: a positive pattern matches and no negated one does (ssh_config(5), PATTERNS).
    positive = [pattern for pattern in patterns if not pattern.startswith("!")]
    negated = [pattern[1:] for pattern in patterns if pattern.startswith("!")]
    # Only negations: ssh(1) never matches such a Host line; "/" is in no host name.
    # As a Host line, not `originalhost`: case-sensitive, against the name of the pass
    # (HOST_LINE_CRITERION). `originalhost` ignores case, so `Host gpu*` + `Include gpu.conf`
    # holding `Host gpu0?` applied to `GPU01`, which neither Host line matches in ssh(1).
    # A comma is no list separator on a Host line: `Host gpu*,*.lab` is one glob, holding a
    # comma (oHost calls match_pattern, not match_pattern_list), that no host name matches.
    # Joined into the criterion's comma list as it is, it became gpu* or *.lab.
    criteria = [f"{HOST_LINE_CRITERION} {','.join(map(_comma_kept, positive)) or '/'}"]
    if negated:
        criteria.append(f"!{HOST_LINE_CRITERION} {','.join(map(_comma_kept, negated))}")
    return tuple(criteria)


def _comma_kept(pattern: str) -> str:
    """A Host line's pattern for HOST_LINE_CRITERION's comma list, its own commas kept (see
    HOST_LINE_COMMA)."""
    return pattern.replace(",", HOST_LINE_COMMA)


def _refuse_jump_through_itself(alias: str, hostname: str, port: int, user: str, proxy_jump: tuple[JumpHop, ...]) -> None:
    """Refuse, as ssh(1) does ("jumphost loop via b.corp": openssh-portable: ssh.c, main), a
    last ProxyJump hop that is the host itself as written: the same name as the HostName (case
    and all), port and user, the hop's unset port being 22 and its unset user the host's.

    `Host b  HostName b.corp  ProxyJump b.corp`: the hop `b.corp` matches no `Host b` block, so
    it has no ProxyJump of its own and no loop showed (_refuse_jump_loop compares resolved
    hops); we logged in to b.corp to reach b.corp, where ssh(1) refuses the config.
    """
    if not proxy_jump:
        return
    hop = proxy_jump[-1].destination  # ssh(1) keeps the last entry as jump_host (readconf.c, parse_jump)
    if hop.host == hostname and (hop.port or DEFAULT_PORT) == port and (hop.user or user) == user:
        raise UsageError(
            f"{alias}: ProxyJump loop in ssh config: jumphost loop via {hop.host} (the host is set to be reached through itself)",
            hint=f"remove the ProxyJump from the `Host {alias}` block, or put `ProxyJump none` in a block for it above the one that sets it",
        )


def _refuse_if_config_refuses(host: str, refusal: str | None) -> None:
    """RefuseConnection (OpenSSH 10.1+) in a block that applies: ssh(1) stops before it connects
    and prints the argument (openssh-portable: readconf.c, oRefuseConnection: "RefuseConnection:
    %s"), what a team sets under `Match originalhost prod-*` to keep production hosts out of reach.
    Ignored, the playbook ran on them. Any argument refuses, `no` included: it is a message, not a flag."""
    if refusal is not None:
        raise HostUnreachableError(
            f"{host}: your ssh config refuses to connect to it: RefuseConnection: {refusal}",
            hint="as ssh(1) refuses it: leave the host out of the run, or change the ssh config block that refuses it",
        )


def _connection_attempts(value: str | None, host: str) -> int:
    """ConnectionAttempts as ssh(1) takes it: 0 is refused after the config is read (ssh.c: "Invalid
    number of ConnectionAttempts"), where it was read as one attempt."""
    attempts = _number(value, "ConnectionAttempts", 1)
    if attempts <= 0:
        raise UsageError(f"{host}: ConnectionAttempts {value}: Invalid number of ConnectionAttempts",
                         hint="ssh(1) refuses it too; write 1 or more (the attempts made, one second apart)")
    return attempts


def resolve_target(
    destination: Destination | str,
    config: paramiko.SSHConfig,
    *,
    user: str | None = None,
    port: int | None = None,
    identity_file: str | None = None,
    connect_timeout_s: float | None = None,
    ssh_options: dict[str, str] | None = None,
) -> SSHTarget:
    """Resolve a destination through the config, command-line values winning (like ssh(1)).

    `user` and `port` (from an inventory) win over the destination's own, which win over the
    config; `ssh_options` are `-o Key=Value` options (lower-case keys, see parse_ssh_args),
    which also win over the config.
    """
    if isinstance(destination, str):
        destination = parse_destination(destination)
    user = user or destination.user
    port = port or destination.port
    seed = {key.lower(): value for key, value in (ssh_options or {}).items()}
    for keyword, own_key in _ENVIRONMENT_KEYS.items():
        # `-o SendEnv=HF_*` (ansible_ssh_common_args) comes before every config line, as in ssh(1).
        if keyword in seed:
            value = seed.pop(keyword)
            try:
                words = argv_split(value)
                for word in words:
                    _check_environment_word(keyword, word, "ssh option")
            except ValueError as exc:
                raise UsageError(f"-o {keyword}: {exc}") from None
            seed[f"{own_key}{0:09d}"] = _argv_quoted(words)
    if user:
        seed["user"] = user
    if port:
        seed["port"] = str(port)
    try:
        entry = _with_command_line(config, seed).lookup(destination.host)
    except paramiko.CouldNotCanonicalize:
        # ssh(1): 'Could not resolve host "gpu01"' (openssh-portable: ssh.c, resolve_canonicalize):
        # a name that is in none of the domains is an unreachable host, not a usage error.
        raise HostUnreachableError(
            f"{destination.host}: cannot resolve host name {quoted_host_name(destination.host)} in any CanonicalDomains of your ssh config",
            hint="check the name; CanonicalizeFallbackLocal no forbids trying it as given",
        ) from None
    except UnicodeError:
        # CanonicalizeHostname's lookup of NAME.DOMAIN (paramiko/config.py, canonicalize) meets
        # Python's idna encoding, which refuses an over-63-character label: that host is one
        # that cannot be resolved, as ssh_tcp says of it without canonicalization.
        raise HostUnreachableError(
            f"{destination.host}: cannot resolve host name {quoted_host_name(destination.host)} ({invalid_host_name(destination.host)})",
            hint="check the name, or its HostName in your ssh config",
        ) from None
    except UsageError:
        raise
    except Exception as exc:  # paramiko raises bare exceptions (KeyError, ValueError) on odd values
        raise UsageError(f"cannot resolve {quoted_host_name(destination.host)} through ssh config: {exc}") from None
    _refuse_if_config_refuses(destination.host, entry.get("refuseconnection"))
    port = _port(entry.get("port"))
    user = entry.get("user") or local_user()
    if "user" in entry and "user" not in seed:
        user = user_expanded(user, alias=destination.host, hostname=str(entry.get("hostname", destination.host)), port=port,
                             host_key_alias=entry.get("hostkeyalias"), proxy_jump=entry.get("proxyjump"))
    # Each file once, in the order met (readconf.c, add_identity_file: "Avoid registering
    # duplicates"); paramiko keeps a name twice when one block lists it twice.
    identity_files = tuple(dict.fromkeys(_environment_expanded_strict(path, "IdentityFile")
                                         for path in entry.get("identityfile", [])))
    if identity_file:
        identity_files = (os.path.expanduser(identity_file), *identity_files)
    proxy_command = entry.get("proxycommand")
    proxy_jump_value = entry.get("proxyjump")
    if "proxycommand" in entry and "proxyjump" in entry:  # paramiko files `ProxyCommand none` as None
        # The first of the two met wins (openssh-portable: readconf.c, oProxyJump is
        # "considered only if ProxyCommand wasn't specified", and a ProxyCommand after a
        # ProxyJump is skipped), except that a first `ProxyJump none` still lets a later
        # ProxyCommand apply (as `ssh -G` shows with OpenSSH 9). paramiko's lookup fills its
        # dict in config order, so the first key in it is the first one met. Preferring
        # ProxyJump always sent `Host bastion: ProxyCommand none` beside `Host *: ProxyJump
        # bastion` through itself, and was refused as a loop.
        keys = list(entry)
        if keys.index("proxycommand") < keys.index("proxyjump"):
            proxy_jump_value = None
        elif str(proxy_jump_value).strip().lower() != "none":
            proxy_command = None
    if proxy_command and proxy_command.strip().lower() == "none":
        proxy_command = None
    if isinstance(proxy_command, RefusedExpansion):
        raise UsageError(
            f"{destination.host}: ssh config: ProxyCommand {proxy_command}: %{proxy_command.refused_token} is not a token "
            "ssh(1) expands there (percent_expand failed)",
            hint="ProxyCommand takes %h, %k, %n, %p, %r and %%; write %% for a literal %",
        )
    if isinstance(proxy_jump_value, RefusedExpansion):
        # ssh(1) makes ProxyJump the ProxyCommand `ssh -W '[%h]:%p' HOP` and expands that
        # (openssh-portable: ssh.c, main; sshconnect.c, expand_proxy_command), so a token
        # ProxyCommand does not take stops it there ("percent_expand: unknown key %C").
        raise UsageError(
            f"{destination.host}: ssh config: ProxyJump {proxy_jump_value}: %{proxy_jump_value.refused_token} is not a token "
            "ssh(1) expands there (percent_expand failed)",
            hint="ProxyJump takes %h, %k, %n, %p, %r and %%; write %% for a literal %",
        )
    proxy_jump = parse_proxy_jump(proxy_jump_value)
    _refuse_jump_through_itself(destination.host, str(entry.get("hostname", destination.host)), port, user, proxy_jump)
    timeout = connect_timeout_s
    if timeout is None:
        timeout = _seconds(entry.get("connecttimeout"), "ConnectTimeout", DEFAULT_CONNECT_TIMEOUT_S)
    if timeout <= 0:
        # ssh(1) reads ConnectTimeout 0 as no timeout of its own (openssh-portable: misc.c,
        # timeout_connect: "No timeout: just do a blocking connect()"). As a socket timeout, 0
        # made every connect non-blocking: "cannot reach HOST: Operation now in progress"; read
        # as our 15 s default, it failed a slow host sooner than the user asked for. As long as
        # the kernel's own connect waits, still bounded so a hung host does not hold the run.
        timeout = BLOCKING_CONNECT_S
    keepalive = _seconds(entry.get("serveraliveinterval"), "ServerAliveInterval", DEFAULT_KEEPALIVE_S)
    if keepalive <= 0:  # 0 means "off" in OpenSSH; we still want dead peers detected
        keepalive = DEFAULT_KEEPALIVE_S
    send_env, set_env = _environment(entry)
    identity_agent = identity_agent_socket(entry.get("identityagent"))
    known_hosts = _user_known_hosts_files(entry.get("userknownhostsfile"))
    global_known = _global_known_hosts_files(entry.get("globalknownhostsfile"))
    return SSHTarget(
        alias=destination.host,
        hostname=entry.get("hostname", destination.host),
        port=port,
        user=user,
        identity_files=identity_files,
        identity_agent=identity_agent,
        forward_agent=agent_to_forward(entry.get("forwardagent"), identity_agent),
        identities_only=_flag(entry.get("identitiesonly"), "IdentitiesOnly"),
        proxy_command=proxy_command,
        proxy_jump=proxy_jump,
        connect_timeout_s=timeout,
        handshake_wait_s=(PROXY_COMMAND_HANDSHAKE_S if proxy_command and connect_timeout_s is None
                          and entry.get("connecttimeout") is None else None),
        keepalive_s=keepalive,
        keepalive_count_max=_number(entry.get("serveralivecountmax"), "ServerAliveCountMax", 3),
        known_hosts_files=known_hosts,
        global_known_hosts_files=global_known,
        host_key_alias=entry.get("hostkeyalias"),
        strict_host_key_checking=_strict_host_key_checking(entry.get("stricthostkeychecking")),
        revoked_host_keys=_revoked_host_keys(entry.get("revokedhostkeys")),
        verify_host_key_dns=str(entry.get("verifyhostkeydns", "no")).strip().lower() in ("yes", "true", "ask"),
        required_rsa_size=_number(entry.get("requiredrsasize"), "RequiredRSASize", DEFAULT_REQUIRED_RSA_SIZE),
        no_host_authentication_for_localhost=_flag(entry.get("nohostauthenticationforlocalhost"),
                                                   "NoHostAuthenticationForLocalhost"),
        hash_known_hosts=_flag(entry.get("hashknownhosts"), "HashKnownHosts"),
        host_key_algorithms=entry.get("hostkeyalgorithms"),
        # PubkeyAcceptedKeyTypes: the name before OpenSSH 8.5, still read by ssh(1) (openssh-portable: readconf.c).
        pubkey_accepted_algorithms=entry.get("pubkeyacceptedalgorithms", entry.get("pubkeyacceptedkeytypes")),
        kex_algorithms=entry.get("kexalgorithms"),
        ciphers=entry.get("ciphers"),
        macs=entry.get("macs"),
        certificate_files=_certificate_files(
            # `-o CertificateFile=` first, then the config's lines in order, as ssh(1) adds them.
            [*(entry["certificatefile"].split(ADDED_UP_SEPARATOR) if entry.get("certificatefile") else []),
             *(entry[key] for key in sorted(entry) if key.startswith(CERTIFICATE_FILE_KEY))]
        ),
        batch_mode=_flag(entry.get("batchmode"), "BatchMode"),
        connection_attempts=_connection_attempts(entry.get("connectionattempts"), destination.host),
        address_family=_address_family(entry.get("addressfamily")),
        known_hosts_command=_unless_none(entry.get("knownhostscommand")),
        login_methods=_login_methods(entry),
        password_prompts=max(0, _number(entry.get("numberofpasswordprompts"), "NumberOfPasswordPrompts", 3)),
        add_keys_to_agent=_add_keys_to_agent(entry.get("addkeystoagent")),
        key_logins=_no_key_logins(entry),
        bind_address=_bind_address(entry, destination.host, str(entry.get("hostname", destination.host)),
                                   _address_family(entry.get("addressfamily")), bool(proxy_command or proxy_jump)),
        pkcs11_provider=_unless_none(entry.get("pkcs11provider")),
        send_env=send_env,
        set_env=set_env,
        request_tty=_request_tty(entry.get("requesttty")),
        control_path=master_control_path(entry.get("controlpath"), entry.get("controlmaster")),
    )


def _request_tty(value: object) -> str | None:
    """RequestTTY as ssh(1) reads it (readconf.c, multistate_requesttty: yes and true, force,
    no and false, auto): `force` or `yes` where the config asks for a terminal, else None."""
    word = str(value).strip().lower() if value is not None else ""
    if word == "force":
        return "force"
    return "yes" if word in ("yes", "true") else None

"""ssh(1) command-line options (`-o Key=Value`, `-J`, `-p`, `-F`, ...) as ssh_config keywords:
what Ansible inventories put in ansible_ssh_args, ansible_ssh_common_args and ansible_ssh_extra_args."""

from __future__ import annotations

import re
import shlex

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_config_keywords import _INTEGER_KEYWORDS, _integer_refusal, did_you_mean, known_keyword
from spec_debug.runner.ssh_config_values import OPENSSH_CIPHERS, OPENSSH_MACS, VALUES_CHECKED_AS_READ, unknown_algorithm
from spec_debug.runner.ssh_env import _pattern_matches
from spec_debug.runner.ssh_target import BAD_PORT_HINT, a2port, parse_proxy_jump
from spec_debug.session.shell import SSH_VALUE_FLAGS


SSH_CONFIG_FILE_OPTION = "-F"
"""The key parse_ssh_args files `-F FILE` under: not a keyword, the config file itself."""

ADDED_UP_OPTIONS = frozenset({"identityfile", "certificatefile"})
"""Keywords whose every `-i`/`-o` adds a file, as each config line does (openssh-portable: ssh.c,
main, case 'i'; readconf.c, oIdentityFile and oCertificateFile: add_identity_file,
add_certificate_file): `-i ~/.ssh/new -i ~/.ssh/old` tries both keys. Only the first was kept,
and the hosts that took only the second key failed authentication."""
ADDED_UP_SEPARATOR = "\0"
"""Between the files of one ADDED_UP_OPTIONS value: the one character no path can hold."""


def added_up(options: dict[str, str], keyword: str, value: str) -> None:
    """`value` after the files `options` already holds for `keyword`, each file once."""
    files = options[keyword].split(ADDED_UP_SEPARATOR) if options.get(keyword) else []
    options[keyword] = ADDED_UP_SEPARATOR.join(dict.fromkeys([*files, *value.split(ADDED_UP_SEPARATOR)]))


def merge_option(options: dict[str, str], keyword: str, value: str) -> None:
    """One more `keyword` `value` into `options`, as ssh(1) takes a repeated option: each SendEnv
    adds names, as each config line does (readconf.c, oSendEnv); each ADDED_UP_OPTIONS value adds
    files; any other keyword keeps its first value."""
    if keyword == "sendenv" and keyword in options:
        options[keyword] += " " + value
    elif keyword in ADDED_UP_OPTIONS:
        added_up(options, keyword, value)
    else:
        options.setdefault(keyword, value)


# ssh(1)'s options, as its getopt string lists them (openssh-portable: ssh.c, main:
# "1246ab:c:e:fgi:kl:m:no:p:qstvx" "AB:CD:E:F:GI:J:KL:MNO:P:Q:R:S:TVw:W:XYy"): those that take
# a value are shell.SSH_VALUE_FLAGS (one set for the transcript reader and us), the rest stand
# alone. The ssh_config keyword of the value flags that matter here:
_SSH_FLAGS_ALONE = frozenset("1246afgknqstvxACGKMNTVXYy")
_SSH_FLAG_KEYWORDS = {"J": "proxyjump", "l": "user", "p": "port", "i": "identityfile", "I": "pkcs11provider", "P": "tag"}
# -P is the Tag that `Match tagged` tests (OpenSSH 9.4+, ssh(1)); it was skipped, so the blocks
# an inventory's `-P gpu` chose never applied.
# Value flags that set their keyword over any value before them, -o or flag (ssh.c, main: case
# 'b', 'B', 'c', 'm', 'S' assign it; recorded with OpenSSH_9.2p1 `ssh -G -o BindAddress=127.0.0.3
# -b 127.0.0.2` -> bindaddress 127.0.0.2, and `-b A -b B` -> B). They were dropped: a
# multi-homed login node's `ansible_ssh_extra_args: -b 10.1.0.5`, which its hosts' firewalls
# let through, connected from another address and timed out; `-c`/`-m` (a cipher or MAC list)
# and `-S` (the master's ControlPath) went unread likewise.
_SSH_FLAG_LAST_WINS = {"b": "bindaddress", "B": "bindinterface", "c": "ciphers", "m": "macs", "S": "controlpath"}

def _refuse_unknown_algorithms(flag: str, value: str, source: str, text: str) -> None:
    """`-c CIPHERS` / `-m MACS` (flag "c"/"m") with a name ssh(1) does not know: ssh(1) stops
    before it connects ("Unknown cipher type '...'": ssh.c, main, case 'c' and 'm'; `-c` may
    start with `+` or `^`, `-m` with nothing), so Ansible reports the host unreachable. A `-c
    aes128-gcm` (the name is aes128-gcm@openssh.com) in an inventory was read, and every host of
    it failed at connect time with "ssh config: Ciphers ... leaves no algorithm", naming neither
    the inventory nor its line; `-c aes128-ctr,aes128-gcm` dropped the unknown name and
    connected where ssh(1) refuses. (`-o Ciphers=`, `-o MACs=`: VALUES_CHECKED_AS_READ.)"""
    cipher = flag == "c"
    names = value[1:] if value[:1] in "+^" and cipher else value
    unknown = unknown_algorithm(names, OPENSSH_CIPHERS if cipher else OPENSSH_MACS)
    if unknown is None:
        return
    because = "" if unknown == names else f" ({unknown!r} is not one)"
    raise UsageError(f"{source}: -{flag} {value}: Unknown {'cipher' if cipher else 'mac'} type {value!r}{because}",
                     hint=f"ssh(1) refuses it too; `ssh -Q {'cipher' if cipher else 'mac'}` lists the names it takes "
                          f"({'no patterns' if cipher else 'no patterns, no +/^/- before them'}): fix it in {text!r}")


# ssh(1) ends an option's keyword at the first blank or `=`, and skips one `=` with the blanks
# around it (openssh-portable: misc.c, strdelim_internal).
_OPTION = re.compile(r"\s*([^\s=]*)\s*(?:=\s*)?(.*)", re.DOTALL)


def _keyword_and_value(option: str) -> tuple[str, str]:
    """`-o`'s argument split as ssh(1) splits it. Replacing the first `=` with a blank broke
    `-o 'ProxyCommand ssh -o StrictHostKeyChecking=no -W %h:%p bastion'` (Ansible's
    ansible_ssh_common_args): the proxy ran `ssh -o StrictHostKeyChecking no -W ...`, for which
    `no` is the host to log in to, and every host behind the bastion was unreachable."""
    match = _OPTION.fullmatch(option)
    assert match is not None  # the pattern matches any text
    return match.group(1), match.group(2).strip()


def _refuse_unknown_keyword(key: str, option: str, options: dict[str, str], source: str, text: str) -> None:
    """`-o Keyword=...` with a keyword ssh(1) does not know stops ssh ("command-line line 0: Bad
    configuration option": openssh-portable: readconf.c, parse_token), unless an earlier
    `-o IgnoreUnknown=` names it. A misspelt `-o ProxyComand=...` in ansible_ssh_common_args
    was dropped, and the hosts behind the bastion were tried directly and timed out."""
    if known_keyword(key):
        return
    ignored = options.get("ignoreunknown", "")
    if any(_pattern_matches(key.lower(), pattern.lower()) for pattern in re.split(r"[\s,]+", ignored) if pattern):
        return
    raise UsageError(f"{source}: -o {option}: Bad configuration option: {key}{did_you_mean(key)}",
                     hint=f"ssh(1) refuses it too; fix the keyword in {text!r}")


def _refuse_bad_value(key: str, rest: str, option: str, source: str) -> None:
    """`-o BatchMode=maybe`, `-o ConnectTimeout=10sec`, `-o StrictHostKeyChecking=maybe`: a value
    ssh(1) refuses as it reads the option ("command-line line 0: unsupported option", "invalid
    time value"), before it connects, whichever value wins (readconf.c checks each). It was
    checked only where the host was looked up, at connect time, and said as "ssh config:
    BatchMode 'maybe' is not yes or no", naming neither the inventory, its line nor the
    variable, once for every host of the group."""
    if key.lower() in _INTEGER_KEYWORDS and rest:
        # readconf.c, parse_int: `-o ServerAliveCountMax=three` -> "integer value invalid"
        refusal = _integer_refusal(rest.split()[0])
        if refusal is not None:
            raise UsageError(f"{source}: -o {option}: {key} {rest.split()[0]!r}: integer value {refusal}",
                             hint="ssh(1) refuses it too; write a whole number (0 or more)")
    check = VALUES_CHECKED_AS_READ.get(key.lower())
    if check is None or not rest:
        return
    try:
        check(rest.split()[0], key)
    except UsageError as exc:
        raise UsageError(f"{source}: -o {option}: {exc.message.removeprefix('ssh config: ')}",
                         hint=exc.hint or "ssh(1) refuses it too; fix the value") from None


def _refuse_bad_jump(option: str, hops: str, source: str, text: str) -> None:
    """`-J user@:22`, `-o ProxyJump=bastion:99999`: a jump ssh(1) cannot parse stops it before it
    connects ("Invalid -J argument", "command-line line 0: Invalid ProxyJump"; openssh-portable:
    ssh.c, main, case 'J'; readconf.c, oProxyJump: parse_jump checks every hop). It was refused
    only when the host was looked up, at connect time, as "ProxyJump 'user@:22': cannot parse
    host", naming neither the inventory nor its line, once for every host of the group."""
    try:
        parse_proxy_jump(hops)
    except UsageError as exc:
        raise UsageError(f"{source}: {option}: {exc.message.removeprefix(f'ProxyJump {hops!r}: ')}",
                         hint=f"ssh(1) refuses it too; {exc.hint or 'fix the jump host'} (in {text!r})") from None


def parse_ssh_args(text: str, *, source: str = "ssh arguments", after: dict[str, str] | None = None) -> dict[str, str]:
    """`-o ProxyCommand="ssh -W %h:%p bastion" -J jump -p 2222` -> ssh_config keywords and values.

    What Ansible inventories put in `ansible_ssh_common_args` / `ansible_ssh_extra_args`. As on
    ssh's command line the first value of a keyword wins; flags that do not change where or how
    we connect (-C, -v, -q, ...) are ignored (-M is ControlMaster, which decides whether
    ssh(1) would ride an open master: ssh_control_master), as are `-o` keywords we do not use; what
    ssh(1) refuses (an unknown option letter, a bad port, a second -J) is refused.

    `after`: the options of the words that stand before `text` on the same ssh(1) command line
    (Ansible puts ssh_args, ssh_common_args and ssh_extra_args on one line, in that order),
    read on from, and updated in place: a later -a, -T, -4/-6 or -F sets its option over an
    earlier one, and a second -t forces a terminal, as ssh(1)'s getopt loop reads them. Merged
    per variable with the first value winning, `ansible_ssh_args: -A` with a host's
    `ansible_ssh_extra_args: -a` forwarded the agent to a host the user had kept it from.
    """
    try:
        words = shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"{source}: {exc}: {text!r}") from None
    options: dict[str, str] = {} if after is None else after
    earlier = frozenset(options)
    index = 0
    while index < len(words):
        word = words[index]
        index += 1
        if not word.startswith("-") or len(word) < 2 or word == "--":  # after `--` ssh(1) reads the host
            raise UsageError(f"{source}: unexpected {word!r} in {text!r}", hint="give ssh options only, e.g. -o ProxyJump=bastion")
        # One word may bundle flags, as getopt reads it: `-At`, and `-vJ jump` or `-Ap2222`,
        # whose value flag takes the rest of the word, else the next word (`ssh -G -vJ jump
        # gpu01` prints `proxyjump jump`). Only the second character was read: `-vJ jump` left
        # `jump` a stray word and was refused, `-Ap2222` lost its port.
        for at, flag in enumerate(word[1:], start=2):
            if flag in SSH_VALUE_FLAGS:
                break
            if flag not in _SSH_FLAGS_ALONE:
                raise UsageError(f"{source}: unknown option -- {flag} in {text!r}",
                                 hint="ssh(1) refuses it too (ssh(1) lists its options); fix or drop it")
            # -4 and -6 are AddressFamily (ssh(1)); the last one given wins there, as in ssh's getopt loop.
            if flag in "46":
                options["addressfamily"] = "inet" if flag == "4" else "inet6"
            # -A / -a: ForwardAgent yes / no, the last one given (ssh.c, main sets it per flag);
            # `ansible_ssh_common_args='-A'` is how Ansible users forward their agent.
            if flag in "Aa":
                options["forwardagent"] = "yes" if flag == "A" else "no"
            # -t asks for a terminal, a second (-tt) forces one, -T asks for none; each sets
            # RequestTTY over any -o before it (ssh.c, main: case 't', case 'T'). Dropped, and
            # `ansible_ssh_args: -tt` ran the steps without one with no word of it, where
            # `-o RequestTTY=force` gets the host's warning (ssh.request_tty_warning).
            # -M makes this ssh a master (ControlMaster yes) and a second -M (-MM) asks first
            # (ask), each over any value before it (ssh.c, main, case 'M': yes unless already
            # yes, then ask; `ssh -G -o ControlMaster=auto -M` says yes). Dropped, a host whose
            # ssh arguments say `-M -S ~/.ssh/cm-gpu01` was taken to ride the master open there,
            # and a failed login said `ssh` would log in through it (ssh_control_master), where
            # ssh(1) with -M makes a master of its own and logs in anew.
            if flag == "M":
                options["controlmaster"] = "ask" if options.get("controlmaster", "").lower() in ("yes", "true") else "yes"
            if flag == "t":
                options["requesttty"] = "force" if options.get("requesttty", "").lower() in ("yes", "true") else "yes"
            elif flag == "T":
                options["requesttty"] = "no"
        else:
            continue
        if word[at:]:
            value = word[at:]
        elif index < len(words):
            value = words[index]
            index += 1
        else:
            raise UsageError(f"{source}: -{flag} needs a value in {text!r}")
        _take_value(flag, value, options, source, text, earlier)
    return options


def _take_value(flag: str, value: str, options: dict[str, str], source: str, text: str,
                earlier: frozenset[str] = frozenset()) -> None:
    """One value flag's value into `options`, refused where ssh(1) refuses it; `earlier`: the
    keywords set by the words before `text` (parse_ssh_args' `after`)."""
    if flag == "o":
        key, rest = _keyword_and_value(value)
        keyword = key.lower()
        _refuse_unknown_keyword(key, value, options, source, text)
        if key and not rest.strip():
            # readconf.c, process_config_line_depth: every keyword needs a value ("command-line
            # line 0: no argument after keyword \"user\""), before ssh(1) connects. `-o User=`
            # (a variable that rendered empty) was dropped, and the login went as the local user.
            raise UsageError(f"{source}: -o {value}: no argument after keyword {keyword!r}",
                             hint=f"ssh(1) refuses it too; give {key} a value, or drop it from {text!r}")
        if keyword == "port" and rest.strip() and a2port(rest.strip()) is None:
            # readconf.c, oPort checks every -o Port, set or not: "command-line line 0: Bad port"
            raise UsageError(f"{source}: -o {value}: Bad port {rest.strip()!r}", hint=BAD_PORT_HINT)
        _refuse_bad_value(key, rest.strip(), value, source)
        if keyword == "proxyjump":
            _refuse_bad_jump(f"-o {value}", rest.strip(), source, text)
        if key and rest.strip():
            merge_option(options, keyword, rest.strip())
    elif flag == "p" and "port" not in options and a2port(value) is None:
        # ssh.c, main reads -p only while no port is set, and then exits "Bad port '0'": a
        # pasted -p 0 or -p 65536 was taken, and the run said "port 0 out of range" of no option.
        raise UsageError(f"{source}: -p {value}: Bad port {value!r}", hint=BAD_PORT_HINT)
    elif flag == "J" and "proxyjump" in options:
        # ssh.c, main: "Only a single -J option is permitted (use commas to separate multiple
        # jump hops)", also after -o ProxyJump, and after one in an earlier variable of the line.
        where = (f"after ProxyJump {options['proxyjump']} in the ssh arguments before it" if "proxyjump" in earlier
                 else f"in {text!r}")
        raise UsageError(f"{source}: -J {value}: only a single -J option is permitted {where}",
                         hint="ssh(1) refuses it too; name every hop in one, separated by commas: -J jump1,jump2")
    elif flag == "J" and "proxycommand" in options:
        # ssh.c, main, case 'J': "Cannot specify -J with ProxyCommand" once any -o ProxyCommand
        # stands before it (`none` too), in this variable or an earlier one of the line. The
        # ProxyCommand was used: a host whose extra args say `-J jump2` under a group's
        # `-o ProxyCommand="ssh -W %h:%p bastion"` went through the bastion, where Ansible stops.
        raise UsageError(f"{source}: -J {value}: Cannot specify -J with ProxyCommand (given before it: "
                         f"{options['proxycommand']!r})",
                         hint="ssh(1) refuses it too; keep one way to the host: drop the -o ProxyCommand or the -J")
    elif flag == "J":
        _refuse_bad_jump(f"-J {value}", value, source, text)
        options.setdefault("proxyjump", value)
    elif flag == "i":
        added_up(options, "identityfile", value)
    elif flag in _SSH_FLAG_LAST_WINS:
        if flag in "cm":
            _refuse_unknown_algorithms(flag, value, source, text)
        options[_SSH_FLAG_LAST_WINS[flag]] = value
    elif flag in _SSH_FLAG_KEYWORDS:
        options.setdefault(_SSH_FLAG_KEYWORDS[flag], value)
    elif flag == "F":
        # `ansible_ssh_common_args: -F ssh.cfg`, how Ansible setups often describe their
        # bastion: ssh(1) then reads that file instead of ~/.ssh/config; it was ignored, and
        # the hosts it describes were unreachable. The last -F wins, as in ssh's getopt loop.
        options[SSH_CONFIG_FILE_OPTION] = value

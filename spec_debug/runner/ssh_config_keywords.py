"""Which ssh_config lines ssh(1) refuses outright: an unknown keyword, a keyword with no value,
and extra words after a one-value keyword (openssh-portable: readconf.c, parse_token and
process_config_line_depth). ssh(1) refuses the whole file for any of them, in any block,
whether or not that block applies ("terminating, 1 bad configuration options").

paramiko skips an unknown keyword silently, so `Hostnam 10.0.0.7` (a typo) sent us to the
alias itself as a DNS name, where `ssh gpu01` stops and names the line; `HostName` with no
value was "Unparsable line HostName", naming neither file nor line; `User alice bob` logged in
as "alice bob".
"""

from __future__ import annotations

import difflib
import re
import sys
from pathlib import Path

from spec_debug.runner.ssh_env import _pattern_matches
from spec_debug.runner.ssh_target import a2port

# openssh-portable: readconf.c, `keywords[]`, the union over every release tag up to V_10_5_P1
# (`git show TAG:readconf.c`), deprecated and unsupported names included: ssh(1) warns about
# those and goes on. A keyword a release has since dropped stays known, as the ssh(1) the config
# was written for still reads it: HostbasedAlgorithms (8.5 and 8.6 only, then renamed
# HostbasedAcceptedAlgorithms) and ZeroKnowledgePasswordAuthentication (5.2 to 6.5).
_OPENSSH_KEYWORDS = frozenset("""
protocol cipher fallbacktorsh globalknownhostsfile2 rhostsauthentication userknownhostsfile2
useroaming usersh useprivilegedport afstokenpassing kerberosauthentication kerberostgtpassing
rsaauthentication rhostsrsaauthentication compressionlevel gssapiauthentication
gssapidelegatecredentials pkcs11provider smartcarddevice forwardagent forwardx11
forwardx11trusted forwardx11timeout exitonforwardfailure xauthlocation gatewayports
passwordauthentication kbdinteractiveauthentication kbdinteractivedevices
challengeresponseauthentication skeyauthentication tisauthentication pubkeyauthentication
dsaauthentication hostbasedauthentication identityfile identityfile2 identitiesonly
certificatefile addkeystoagent identityagent hostname hostkeyalias proxycommand port ciphers
macs remoteforward localforward permitremoteopen user host match tag escapechar
globalknownhostsfile userknownhostsfile connectionattempts batchmode checkhostip
stricthostkeychecking compression tcpkeepalive keepalive numberofpasswordprompts
syslogfacility loglevel logverbose dynamicforward preferredauthentications hostkeyalgorithms
casignaturealgorithms bindaddress bindinterface clearallforwardings enablesshkeysign
verifyhostkeydns nohostauthenticationforlocalhost rekeylimit connecttimeout addressfamily
serveraliveinterval serveralivecountmax sendenv setenv controlpath controlmaster
controlpersist hashknownhosts include tunnel tunneldevice localcommand permitlocalcommand
remotecommand visualhostkey kexalgorithms ipqos requesttty sessiontype stdinnull
forkafterauthentication proxyusefdpass canonicaldomains canonicalizefallbacklocal
canonicalizehostname canonicalizemaxdots canonicalizepermittedcnames streamlocalbindmask
streamlocalbindunlink revokedhostkeys fingerprinthash updatehostkeys
hostbasedacceptedalgorithms hostbasedkeytypes pubkeyacceptedalgorithms pubkeyacceptedkeytypes
ignoreunknown proxyjump securitykeyprovider knownhostscommand requiredrsasize
enableescapecommandline obscurekeystroketiming channeltimeout versionaddendum
refuseconnection warnweakcrypto hostbasedalgorithms zeroknowledgepasswordauthentication
""".split())

# Keywords of the OpenSSH builds people have, beyond upstream's: the GSSAPI key exchange patch
# of Debian, Ubuntu, Fedora and RHEL (Debian: openssh, debian/patches/gssapi.patch; RHEL's
# crypto-policies file sets GSSAPIKexAlgorithms), Apple's UseKeychain (macOS ssh(1)), and
# HPN-SSH's, which HPC sites install (rapier1/hpn-ssh: readconf.c, keywords[]; HPNBufferSize
# and TcpRcvBuf from its older releases), and Debian's and Ubuntu's ProtocolKeepAlives and
# SetupTimeOut (Debian: openssh, debian/patches/keepalive-extensions.patch: both are
# ServerAliveInterval there, and ssh_config.py reads them so). A config written for those is
# fine with the ssh(1) its user runs, so it is fine here too.
_VENDOR_KEYWORDS = frozenset("""
protocolkeepalives setuptimeout gssapikeyexchange gssapitrustdns gssapiclientidentity gssapiserveridentity
gssapirenewalforcesrekey gssapikexalgorithms usekeychain
noneenabled nonemacenabled noneswitch usemptcp disablemtaes metrics metricspath
metricsinterval fallback fallbackport tcprcvbufpoll hpndisabled hpnbuffersize tcprcvbuf
""".split())

# Keywords that take exactly one value (readconf.c: parse_string and friends end with "keyword
# %s extra arguments at end of line"), among those that choose the machine, user, key or agent.
_ONE_VALUE_KEYWORDS = frozenset({
    "hostname", "user", "hostkeyalias", "identityfile", "identityfile2", "certificatefile",
    "identityagent", "bindaddress", "bindinterface",
})

_KEYWORD = re.compile(r"^\s*([^\s=]+)(?:\s*=\s*|\s*)(.*)$")

# Keywords whose words ssh(1) reads in a loop with no minimum (readconf.c, OpenSSH 9.2 to 10.5:
# parse_char_array, oSendEnv, oSetEnv, oInclude, oCanonicalDomains, oCanonicalizePermittedCNAMEs,
# oLogVerbose). ssh(1) tests for a missing value before it drops a trailing comment, so
# `SendEnv # none yet` (a template's empty list) sets nothing there; it was "no argument" here.
_MAY_HOLD_NO_WORDS = frozenset({
    "sendenv", "setenv", "include", "canonicaldomains", "canonicalizepermittedcnames",
    "globalknownhostsfile", "userknownhostsfile", "logverbose",
})


def sets_nothing(uncommented: str, written: str) -> bool:
    """Whether a line as written held a value that was only a comment, for a keyword of
    _MAY_HOLD_NO_WORDS: ssh(1) accepts it and sets nothing, so it is read as a blank line."""
    match = _KEYWORD.match(uncommented)
    return (match is not None and not match.group(2).strip() and uncommented.strip() != written.strip()
            and match.group(1).lower() in _MAY_HOLD_NO_WORDS)


def known_keyword(keyword: str) -> bool:
    """Whether ssh(1) (upstream, or a vendor build listed above) knows the keyword, in any case."""
    return keyword.lower() in _OPENSSH_KEYWORDS or keyword.lower() in _VENDOR_KEYWORDS


# The names readconf.c keeps only to warn about or ignore (oDeprecated, oUnsupported, oIgnore) and
# those later releases dropped: known, so a config holding one is read, but never suggested. The
# closest name to `Cipherz` was `cipher` (SSH-1's, ignored since 7.6), where the user meant
# `Ciphers`.
_NOT_SUGGESTED = frozenset("""
protocol cipher fallbacktorsh globalknownhostsfile2 rhostsauthentication userknownhostsfile2
useroaming usersh useprivilegedport afstokenpassing kerberosauthentication kerberostgtpassing
rsaauthentication rhostsrsaauthentication compressionlevel hostbasedalgorithms
zeroknowledgepasswordauthentication
""".split())
_SUGGESTED = sorted(_OPENSSH_KEYWORDS - _NOT_SUGGESTED)


def did_you_mean(keyword: str) -> str:
    """` (did you mean identityfile?)` for a misspelt keyword close to a known one that ssh(1)
    still acts on, else ""."""
    close = difflib.get_close_matches(keyword.lower(), _SUGGESTED, n=1, cutoff=0.75)
    return f" (did you mean {close[0]}?)" if close else ""


def near_known(keyword: str) -> bool:
    """Whether the keyword is a near miss of one ssh(1) knows, deprecated ones included: a typo
    every ssh(1) refuses (`UseRoamingX`), not a newer or vendor keyword."""
    return bool(difflib.get_close_matches(keyword.lower(), _OPENSSH_KEYWORDS, n=1, cutoff=0.75))


_WARNED: set[str] = set()


def _warn_once(message: str) -> None:
    """One line on stderr per message and process (a fleet reads the config for every host)."""
    if message not in _WARNED:
        _WARNED.add(message)
        sys.stderr.write(f"warning: {message}\n")


class BadConfigLine(ValueError):
    """A line ssh(1) refuses; the message names the file and line as ssh(1) does."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def ignored_unknown_patterns(line: str) -> list[str]:
    """The patterns of an `IgnoreUnknown` line, or [] for any other line."""
    match = _KEYWORD.match(line)
    if match is None or match.group(1).lower() != "ignoreunknown":
        return []
    return [pattern for pattern in re.split(r"[\s,]+", match.group(2)) if pattern]


def check_config_line(line: str, words: list[str] | None, path: Path, number: int, ignored_unknown: list[str]) -> None:
    """Raise BadConfigLine for a line (comment removed) that ssh(1) would refuse.

    `words` are the line's value as ssh(1) splits it (argv_split), or None where it was not
    split; `ignored_unknown` holds the IgnoreUnknown patterns met so far (ssh_config(5):
    "IgnoreUnknown ... should be placed early in the configuration file as it will not be
    applied to unknown options that appear before it").
    """
    match = _KEYWORD.match(line)
    if match is None or not line.strip():
        return
    keyword, value = match.group(1).lower(), match.group(2).strip()
    where = f"{path} line {number}"
    if not known_keyword(keyword):
        if any(_pattern_matches(keyword, pattern.lower()) for pattern in ignored_unknown):
            return
        close = did_you_mean(keyword)
        if not close and not near_known(keyword):
            # A keyword of an OpenSSH newer than our table, or of a vendor build: the user's own
            # ssh(1) may well read this file, and refusing it would stop every host of the run.
            # It is passed over with a warning; a near miss of a known keyword (Hostnam) is a
            # typo that every ssh(1) refuses, and is refused below.
            _warn_once(f"{where}: unknown ssh_config keyword {match.group(1)!r} (a newer or vendor ssh's?): "
                       "ignored; put `IgnoreUnknown " + match.group(1) + "` above it to silence this")
            return
        raise BadConfigLine(
            f"{where}: Bad configuration option: {match.group(1)}{close}",
            f"ssh(1) refuses this file too; fix the keyword, or, if a patched ssh(1) of yours knows it, "
            f"put `IgnoreUnknown {match.group(1)}` above it",
        )
    if not value:
        raise BadConfigLine(f"{where}: no argument after keyword \"{match.group(1)}\"",
                            "ssh(1) refuses this file too; give the value, or delete the line")
    if keyword == "port":
        port = words[0] if words else value
        if a2port(port) is None:
            # ssh(1) checks every Port line as it reads it, in any block (openssh-portable:
            # readconf.c, oPort: "Bad port" before it looks at *activep): `Port 0` under another
            # host's block, or a second `Port 65536` after the one that applies, was passed over.
            raise BadConfigLine(
                f"{where}: Bad port {port!r}: Port {port!r} is not a number from 1 to 65535 or a TCP service name",
                "ssh(1) refuses this file too; write a number from 1 to 65535, or a TCP service name of "
                "/etc/services (ssh, https)",
            )
    if keyword in _INTEGER_KEYWORDS:
        number_text = words[0] if words else value
        refusal = _integer_refusal(number_text)
        if refusal is not None:
            # ssh(1) reads these with parse_int, a whole number from 0 (openssh-portable: readconf.c,
            # parse_int / misc.c atoi_err), in any block: `ConnectionAttempts -1` or `1.5` was read
            # as one attempt (float, then at least 1), where ssh(1) stops
            raise BadConfigLine(f"{where}: {match.group(1)} {number_text}: integer value {refusal}",
                                "ssh(1) refuses this file too; write a whole number (0 or more)")
    if keyword in _ONE_VALUE_KEYWORDS and words == [""]:
        # `IdentityFile ""` (a template's empty variable): ssh(1) says "Missing argument".
        raise BadConfigLine(f"{where}: {match.group(1)}: missing argument (an empty value)",
                            "ssh(1) refuses this file too; give the value, or delete the line")
    if keyword in _ONE_VALUE_KEYWORDS and words is not None and len(words) > 1:
        raise BadConfigLine(
            f"{where}: keyword {match.group(1)} extra arguments at end of line: {value}",
            "ssh(1) refuses this file too; it takes one value: quote a value that holds spaces",
        )


# The keywords ssh(1) reads as a plain integer (readconf.c: `goto parse_int`); ConnectTimeout and
# ServerAliveInterval are times (parse_time) and read elsewhere.
_INTEGER_KEYWORDS = frozenset({"connectionattempts", "numberofpasswordprompts", "serveralivecountmax",
                               "requiredrsasize", "canonicalizemaxdots"})


def _integer_refusal(text: str) -> str | None:
    """How ssh(1)'s atoi_err refuses ``text`` ("invalid", "too small"), None for a number it takes:
    strtonum's decimal (an optional sign, digits) from 0 to INT_MAX."""
    digits = text.strip()
    body = digits[1:] if digits[:1] in "+-" else digits
    if not body.isascii() or not body.isdigit():
        return "invalid"
    number = int(digits)
    if number < 0:
        return "too small"
    return "too large" if number > 2**31 - 1 else None


# Match criteria (openssh-portable: readconf.c, match_cfg_line, OpenSSH 10): these three stand
# alone, the others take one argument (tagged and command may take an empty one).
_MATCH_CRITERIA_ALONE = frozenset({"all", "canonical", "final"})
_MATCH_CRITERIA_WITH_ARGUMENT = frozenset({
    "exec", "localnetwork", "host", "originalhost", "user", "localuser", "tagged", "command", "version", "sessiontype",
})


def check_block_line(keyword: str, words: list[str] | None, path: Path, number: int) -> None:
    """Raise BadConfigLine for a Host or Match line ssh(1) refuses, naming the file and line.

    paramiko's own messages named neither ("Missing parameter to Match 'host' keyword",
    "No closing quotation", "Unparsable host"), and a criterion it does not know was only
    caught when a host was looked up, so the file and line were lost. `words` are the line's
    words after the keyword as argv_split reads them, None when a quote is left open.
    """
    where = f"{path} line {number}"
    if words is None:
        raise BadConfigLine(f"{where}: invalid quotes", "ssh(1) refuses this file too; close the quote")
    if not words:
        raise BadConfigLine(f"{where}: no argument after keyword \"{keyword}\"",
                            "ssh(1) refuses this file too; give the patterns, or delete the line")
    if keyword.lower() != "match":
        return
    criteria, at = [], 0
    while at < len(words):
        word = words[at]
        if word.startswith("#"):
            break
        name = word.lstrip("!").lower()
        criteria.append(name)
        at += 1
        if name in _MATCH_CRITERIA_ALONE:
            continue
        if name not in _MATCH_CRITERIA_WITH_ARGUMENT:
            raise BadConfigLine(
                f"{where}: Match {word}: unsupported Match attribute",
                "ssh(1) refuses this file too; ssh_config(5), Match: all, canonical, final, exec, localnetwork, host, "
                "originalhost, tagged, command, user, localuser, version, sessiontype",
            )
        if at >= len(words) and name not in ("tagged", "command"):
            raise BadConfigLine(f"{where}: Match {word}: missing Match criteria for {name}",
                                f"ssh(1) refuses this file too; write the patterns after it: Match {name} PATTERN")
        at += 1
    # `all` stands alone, or last after one other criterion of any kind: match_cfg_line counts the
    # criteria before it ("attributes > 1", its attributes++ comes after the `all` test), so
    # ssh(1) 9.2 and 10.x read `Match host gpu01 all` as `Match host gpu01`; it was refused here.
    # `Match all all` / `Match !all all`: the first `all` meets a word after it, and ssh(1) refuses the line.
    if "all" in criteria and (criteria.index("all") != len(criteria) - 1 or len(criteria) > 2):
        raise BadConfigLine(f"{where}: 'all' cannot be combined with other Match attributes",
                            "ssh(1) refuses this file too; write `Match all` alone, or last after one other criterion")

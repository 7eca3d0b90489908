"""SendEnv and SetEnv: which environment variables go with every session, read from the config
as ssh(1) reads them (openssh-portable: readconf.c, oSendEnv and oSetEnv; clientloop.c)."""

from __future__ import annotations

import itertools
import os
import re

import paramiko

from spec_debug.runner.ssh_quoting import argv_split
from spec_debug.runner.ssh_target import SSHTarget


# SendEnv and SetEnv, filed one key per config line (see _as_ssh_reads_it); the keys sort in
# config order, command line first.
_SEND_ENV_KEY = "specdebugsendenv"
_SET_ENV_KEY = "specdebugsetenv"
_ENVIRONMENT_KEYS = {"sendenv": _SEND_ENV_KEY, "setenv": _SET_ENV_KEY}
_LINE_IDS = itertools.count(1)


def _check_environment_word(key: str, word: str, where: str) -> None:
    """ValueError for a SendEnv name ssh(1) refuses (empty, or holding `=`) or a SetEnv word
    without `=` (openssh-portable: readconf.c, oSendEnv and oSetEnv)."""
    if key == "sendenv" and (not word.lstrip("-") or "=" in word):
        raise ValueError(f"{where}: SendEnv {word!r} is not a variable name or pattern (write SetEnv NAME=value to set one)")
    if key == "setenv" and "=" not in word:
        raise ValueError(f"{where}: SetEnv {word!r} is not NAME=value")


def _environment(entry: paramiko.SSHConfigDict) -> tuple[tuple[str, ...], tuple[tuple[str, str], ...]]:
    """SendEnv patterns and SetEnv pairs from the per-line keys of _as_ssh_reads_it, in config
    order. SendEnv lines add up, and `-PATTERN` drops the patterns listed so far that PATTERN
    matches (openssh-portable: readconf.c, rm_env); the first SetEnv line that applies is the
    one used, a name repeated within it keeping its first value (oSetEnv)."""
    patterns: list[str] = []
    pairs: dict[str, str] | None = None
    for key in sorted(k for k in entry if k.startswith((_SEND_ENV_KEY, _SET_ENV_KEY))):
        words = argv_split(str(entry[key]))
        if key.startswith(_SEND_ENV_KEY):
            for word in words:
                if word.startswith("-"):
                    patterns = [pattern for pattern in patterns if not _pattern_matches(pattern, word[1:])]
                elif word not in patterns:
                    patterns.append(word)
        elif pairs is None:
            pairs = {}
            for word in words:
                name, _, value = word.partition("=")
                pairs.setdefault(name, value)
    return tuple(patterns), tuple((pairs or {}).items())


def environment_to_send(target: SSHTarget, environ: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The `env` requests ssh(1) sends on each session before its command: the local variables
    a SendEnv pattern matches, in the environment's order, then SetEnv's (openssh-portable:
    clientloop.c, client_session2_setup). sshd keeps those its AcceptEnv patterns allow (SetEnv
    in sshd_config wins over them) and quietly drops the rest."""
    local = os.environ if environ is None else environ
    sent = [(name, value) for name, value in local.items()
            if any(_pattern_matches(name, pattern) for pattern in target.send_env)]
    return sent + list(target.set_env)


def _pattern_matches(text: str, pattern: str) -> bool:
    """ssh(1)'s match_pattern: `*` and `?` wildcards, case-sensitive; no `[...]` classes
    (openssh-portable: match.c), so a `[` in a pattern is itself."""
    return re.fullmatch("".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern), text, re.DOTALL) is not None

"""paramiko's ssh_config lookup made to answer as ssh(1)'s does: command-line values first,
ssh(1)'s `%` tokens, the Match criteria paramiko lacks or gets wrong (`Match exec` included),
and CanonicalizeHostname (paramiko/paramiko: paramiko/config.py; openssh-portable: readconf.c)."""

from __future__ import annotations

import os
import re
import subprocess
from types import SimpleNamespace

import paramiko

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_args import ADDED_UP_SEPARATOR
from spec_debug.runner.ssh_env import _SET_ENV_KEY, _pattern_matches
from spec_debug.runner.ssh_local_network import _on_local_network
from spec_debug.runner.ssh_quoting import _argv_quoted, argv_split
from spec_debug.runner.ssh_target import _is_address, address_as_ssh_writes_it
from spec_debug.runner.ssh_tokens import (
    RefusedExpansion,
    _environment_expanded_strict,
    _match_exec_token,
    _own_token,
    hostname_expanded,
    local_user,
)


class _MatchExec:
    """`Match exec "COMMAND"` run as ssh(1) runs it: through the user's shell, with stdin and
    stdout on /dev/null and stderr shown (openssh-portable: readconf.c, execute_in_shell).

    OpenSSH runs these commands, and configs rely on them (`Match host gpu* exec "on-vpn"`), so
    we run them too. paramiko runs them with invoke.run (paramiko/config.py, _does_match),
    which forwards our own stdin to the command: it swallowed whatever spec-debug's stdin held
    (`run --step` answers, a piped host list) and switched a terminal to cbreak mode from a
    host thread. paramiko.config's module-level `invoke` is its only use of invoke, so this
    object stands in for it (run(command, hide=..., warn=...) -> result with `.ok`).
    """

    @staticmethod
    def run(command: str, **_ignored: object) -> SimpleNamespace:
        shell = os.environ.get("SHELL") or "/bin/sh"
        try:
            done = subprocess.run([shell, "-c", command], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, check=False)
        except OSError:
            return SimpleNamespace(ok=False)  # no shell: the criterion fails, as a failing command
        return SimpleNamespace(ok=done.returncode == 0)


paramiko.config.invoke = _MatchExec  # type: ignore[attr-defined]
# paramiko's `Match localuser`, `Match user`'s default and its %u/%r take getpass.getuser(), which
# reads $USER first; ssh(1) takes the password database's name (ssh_tokens, local_user).
# paramiko.config's module-level `getpass` serves only those (paramiko/config.py).
# paramiko asks for the name on every lookup, needed or not (paramiko/config.py, _tokenize and
# _does_match); where there is none (a random-uid container) a marker stands in, and only a
# value that took it in (a %u, a %r with no User) refuses the host (_without_missing_user):
# `User bob` in the config, or bob@gpu01, still connects there.
_NO_LOCAL_USER = "\x00no-local-user\x00"


def _local_user_or_marker() -> str:
    try:
        return local_user()
    except UsageError:
        return _NO_LOCAL_USER


def _without_missing_user(options: paramiko.SSHConfigDict) -> paramiko.SSHConfigDict:
    """The options, or local_user's error where one of them was built from the missing name."""
    for value in options.values():
        values = value if isinstance(value, list) else [value]
        if any(_NO_LOCAL_USER in str(one) for one in values):
            local_user()  # raises the one-line error naming how to fix it
    return options


paramiko.config.getpass = SimpleNamespace(getuser=_local_user_or_marker)  # type: ignore[attr-defined]


def _with_command_line(config: paramiko.SSHConfig, seed: dict[str, str]) -> paramiko.SSHConfig:
    """The config with the command line's options in front, as ssh(1) reads them.

    paramiko's lookup expands `%r`/`%p` (ProxyCommand, IdentityFile) and evaluates `Match user`
    from the first User/Port it meets; a leading `Host *` block makes those ours, so
    `bob@gpu:2200` through `ProxyCommand ssh -W %h:%p` goes to port 2200 as in OpenSSH.
    paramiko keeps parsed blocks in `_config` (paramiko/paramiko: paramiko/config.py, parse).
    """
    block: dict[str, object] = {key: value for key, value in seed.items() if key != "identityfile"}
    if "identityfile" in seed:
        # paramiko keeps IdentityFile as a list; every -i and -o IdentityFile= is one (ssh_args, added_up).
        block["identityfile"] = seed["identityfile"].split(ADDED_UP_SEPARATOR)
    seeded = _OpenSSHTokens()
    front = [{"host": ["*"], "config": block}] if block else []
    # Last, as OpenSSH's built-in defaults: no CanonicalDomains means nothing to try (paramiko
    # raises KeyError on `CanonicalizeHostname yes` without it: paramiko/config.py, lookup).
    defaults = [{"host": ["*"], "config": {"canonicaldomains": ""}}]
    seeded._config = [*front, *config._config, *defaults]
    return seeded


# The `%` tokens ssh_config(5) documents per keyword (OpenSSH 9), beyond what paramiko expands
# (paramiko/config.py, TOKENS_BY_CONFIG_KEY: no %n, %p, %i, %k, %L or %% in IdentityFile, no %n
# or %% in ProxyCommand). `IdentityFile ~/.ssh/keys/%n` (a key per alias) otherwise names a
# file that does not exist and the host "fails authentication" with no key tried at all.
# UserKnownHostsFile takes the same tokens as IdentityFile (ssh_config(5), TOKENS), which paramiko
# leaves unexpanded: `UserKnownHostsFile ~/.ssh/known_hosts.d/%k` found no file, and
# --accept-new wrote a file literally named `%k`. CertificateFile too (ssh(1) loads
# `~/.ssh/%r-cert.pub` as the file of the jump entry's `ops@login`, checked with `ssh -v`);
# paramiko expands none there, and the certificate was never found. `%l` and `%C` paramiko
# expands otherwise than ssh(1) (_own_token).
_OWN_TOKENS = {
    "identityfile": set("nipkLljC"),
    "identityagent": set("nipkLljC"),
    "userknownhostsfile": set("nipkLljC"),
    "certificatefile": set("nipkLljC"),
    # RevokedHostKeys takes every client token, and `~` in each of its files (openssh-portable:
    # ssh.c, main, tilde_expand_filename then default_client_percent_dollar_expand).
    "revokedhostkeys": set("nipkLljC"),
    # ProxyCommand takes %h, %k, %n, %p, %r and %% (openssh-portable: sshconnect.c,
    # expand_proxy_command); paramiko leaves %k as written, where ssh(1) runs the HostKeyAlias.
    "proxycommand": set("nk"),
    # ProxyJump becomes the ProxyCommand `ssh -W '[%h]:%p' HOP`, whose tokens ssh(1) then
    # expands (openssh-portable: ssh.c, main; sshconnect.c, ssh_proxy_connect): `ProxyJump
    # %n-gw` jumps through `gpu01-gw` for gpu01; here it was a host named `%n-gw`. Like
    # ProxyCommand it takes %h, %k, %n, %p, %r and %% (expand_proxy_command) and nothing else.
    "proxyjump": set("nk"),
    # ControlPath takes every client token and a leading ~ (openssh-portable: ssh.c, main,
    # tilde_expand_filename then default_client_percent_dollar_expand); paramiko's own %C and %l
    # are not ssh(1)'s, so the socket `ControlPath ~/.ssh/cm-%C` names was another file.
    "controlpath": set("nipkLljC"),
}
_TOKEN = re.compile(r"%(.)")
# Each CertificateFile line under a key of its own, numbered in config order (ssh_config's
# _as_ssh_reads_it): ssh(1) adds every one (readconf.c, oCertificateFile, add_certificate_file),
# paramiko keeps the first.
CERTIFICATE_FILE_KEY = "specdebugcertificatefile"
# A Host line's patterns as a Match criterion (ssh_config's _narrowed, for the blocks of a file
# included inside a block): tested as ssh(1) tests a Host line (readconf.c, oHost:
# match_pattern, case-sensitive, on the name of the pass), which no Match criterion does.
HOST_LINE_CRITERION = "specdebug-hostline"
# A comma inside one of those patterns (`Host gpu*,*.lab` is one glob to ssh(1)), as written
# into the criterion's comma list; put back before the pattern is tested.
HOST_LINE_COMMA = "{specdebug-comma}"
# A Match block's result, kept for the lines after an Include inside it. ssh(1) evaluates a
# Match line once, where it stands (readconf.c, match_cfg_line); flattened for paramiko, the
# block's header is repeated after the included text (ssh_config, expand_includes) and was
# evaluated again, after the included file had set User or HostName: `Match host gpu*` +
# `Include cluster.conf` (HostName 10.0.0.5) + `User ml` logged in as the local user, and a
# `Match exec` ran twice. The header carries `specdebug-block ID`; its repeat, and the blocks
# of the included file, `specdebug-again ID`: the result the header had.
BLOCK_ID_CRITERION = "specdebug-block"
BLOCK_AGAIN_CRITERION = "specdebug-again"


class _OpenSSHTokens(paramiko.SSHConfig):
    """paramiko's config with ssh(1)'s token expansion for IdentityFile and ProxyCommand: one
    left-to-right pass (so `%%h` stays `%h`, which paramiko's replace-each-token turns into
    `%HOST`), the tokens paramiko lacks added, the rest as paramiko computes them."""

    _original_host: str | None = None
    _hostname_final = False
    _block_results: dict[str, bool] = {}  # replaced per lookup

    def _expand_variables(self, config: dict[str, object], target_hostname: str) -> dict[str, object]:
        """The options' tokens expanded (paramiko), the HostKeyAlias first put in lower case, as
        ssh.c, main lowercases it before it is used or expanded: `HostKeyAlias GPU01-Node` is
        `gpu01-node` in %k and in the known_hosts line ssh(1) writes, hashed (HashKnownHosts) or
        not, and `ssh -G` prints it so (OpenSSH 9.2p1: `UserKnownHostsFile ~/.ssh/kh_%k` made
        kh_gpu01-node). Taken as written, a hashed entry ssh(1) wrote was not found (the hash
        is of the lower-case name) and a %k file was one ssh(1) never wrote: an "unknown" host
        key where `ssh` connects."""
        alias = config.get("hostkeyalias")
        if isinstance(alias, str):
            config["hostkeyalias"] = alias.lower()
        return super()._expand_variables(config, target_hostname)  # type: ignore[no-any-return]

    def _tokenize(self, config: dict[str, object], target_hostname: str, key: str, value: str) -> str:
        if key.startswith(_SET_ENV_KEY):
            # OpenSSH 10.0 expands SetEnv's values (not its names) as it does UserKnownHostsFile:
            # `SetEnv HF_HOME=${HOME}/hf RUN_HOST=%h` (openssh-portable: ssh.c, main, "expanded
            # SetEnv"). Word by word, so that what a token or variable brings stays one value.
            expanded = []
            for word in argv_split(value):
                name, _, text = word.partition("=")
                text = self._tokenize(config, target_hostname, "userknownhostsfile", text)
                try:
                    expanded.append(f"{name}={_environment_expanded_strict(text, 'SetEnv')}")
                except UsageError as unset:  # ssh(1) refuses it too; the value is no path
                    raise UsageError(f"{unset.message} (in SetEnv {name})", hint="set it, or write the value out") from None
            return _argv_quoted(expanded)
        if key == "match-exec":
            original = self._original_host or target_hostname
            host = self._hostname_so_far(config, target_hostname)

            def exec_token(match: re.Match[str]) -> str:
                expanded = _match_exec_token(match.group(1), config, host, original)
                return match.group(0) if expanded is None else expanded

            return _TOKEN.sub(exec_token, value)
        if key == "hostname":
            return value  # expanded once, by lookup (hostname_expanded): `%%h` stays `%h`
        if key.startswith(CERTIFICATE_FILE_KEY):
            key = "certificatefile"
        own = _OWN_TOKENS.get(key)
        if own is None:
            return super()._tokenize(config, target_hostname, key, value)
        if key in ("identityfile", "identityagent", "controlpath"):
            value = os.path.expanduser(value)  # a leading ~ only (openssh-portable: misc.c, tilde_expand)
        # ProxyCommand gets no `~` expansion of ours (paramiko replaces every `~`): as in ssh(1),
        # the shell that runs it expands a leading one (_ProxyCommand in ssh_proxy_command).
        # paramiko's ControlPath tokens lack %d: its IdentityFile ones (%d, %h, %r, %u) serve there too.
        source_key = key if key in self.TOKENS_BY_CONFIG_KEY and key != "controlpath" else "identityfile"
        inherited = {c[1] for c in self._allowed_tokens(source_key) if c.startswith("%")}

        unknown: list[str] = []

        def expand(match: re.Match[str]) -> str:
            token = match.group(1)
            if token == "%":
                return "%"
            if token in own:
                return _own_token(token, config, self._original_host or target_hostname)
            if token in inherited:
                return str(super(_OpenSSHTokens, self)._tokenize(config, target_hostname, source_key, match.group(0)))
            unknown.append(token)
            return match.group(0)  # ssh(1) refuses an unknown token; left as written, it shows in errors

        expanded = _TOKEN.sub(expand, value)
        if unknown and key in ("proxycommand", "proxyjump"):
            # ssh(1) refuses to run it ("percent_expand: failed"); paramiko ran `nc %C` as
            # written, and `ProxyJump %C@bastion` logged in to bastion as a user named `%C`.
            # Marked, not raised: the one of the two met first overrides the other (resolve_target).
            return RefusedExpansion(expanded, unknown[0])
        return expanded

    def _pattern_matches(self, patterns: str | list[str], target: str) -> bool:
        """A Host line's patterns (and Match user/localuser's) as ssh(1) matches them: `*` and `?`
        only (openssh-portable: match.c, match_pattern). paramiko uses fnmatch, where `[...]` is a
        class: `Host gpu[0-9]` applied to gpu1, and a placeholder left in a published config,
        `Host [*.mydomain]`, to every one-letter alias; ssh(1) reads the brackets as themselves."""
        return _pattern_list_matches(target, patterns)

    def _does_match(
        self, match_list: list[dict[str, object]], target_hostname: str, canonical: bool, final: bool, options: dict[str, object]
    ) -> object:
        """Whether a Match line's criteria are met (_criteria_met), its result kept where the line
        carries a BLOCK_ID_CRITERION, for the repeats of its header."""
        if match_list and str(match_list[0]["type"]).lower() == BLOCK_ID_CRITERION:
            met = bool(self._criteria_met(match_list[1:], target_hostname, canonical, final, options))
            self._block_results[str(match_list[0].get("param"))] = met
            return met
        return self._criteria_met(match_list, target_hostname, canonical, final, options)

    def _criteria_met(
        self, match_list: list[dict[str, object]], target_hostname: str, canonical: bool, final: bool, options: dict[str, object]
    ) -> object:
        """`Match` criteria paramiko does not know, evaluated as ssh(1) does, before its own.

        paramiko counts a criterion it does not know as met (paramiko/config.py, _does_match),
        so `Match localnetwork 10.0.0.0/8` + `ProxyJump none` (OpenSSH 9.4: "on the office
        network, no bastion") applied everywhere, and a misspelt `Match hots gpu*` matched
        every host; ssh(1) refuses an unknown criterion ("Unsupported Match attribute",
        openssh-portable: readconf.c, match_cfg_line).
        """
        known: list[dict[str, object]] = []
        for candidate in match_list:
            kind, param = str(candidate["type"]).lower(), str(candidate.get("param") or "")
            if kind in _PARAMIKO_MATCH_CRITERIA:
                known.append(candidate)
                continue
            if kind == HOST_LINE_CRITERION:
                passed = _pattern_list_matches(target_hostname, [one.replace(HOST_LINE_COMMA, ",") for one in param.split(",")])
            elif kind == BLOCK_AGAIN_CRITERION:
                passed = self._block_results.get(param, False)
            elif kind in ("host", "originalhost"):
                given = self._original_host or target_hostname if kind == "originalhost" else target_hostname
                name = self._hostname_so_far(options, given) if kind == "host" else given
                passed = _pattern_list_matches(name.lower(), param.lower())
            elif kind == "localnetwork":
                passed = _on_local_network(param)
            elif kind == "tagged":  # the Tag keyword (or -P): none set is the empty tag
                passed = _pattern_list_matches(str(options.get("tag") or ""), param)
            elif kind == "sessiontype":  # ours are commands (exec) and SFTP, never a shell
                passed = _pattern_list_matches("exec", param)
            elif kind in ("command", "version"):  # no one remote command; we are not OpenSSH
                passed = False
            else:
                raise UsageError(
                    f"ssh config: Match {candidate['type']} is not a criterion ssh(1) knows",
                    hint="ssh_config(5), Match: all, canonical, final, exec, localnetwork, host, originalhost, tagged, user, localuser",
                )
            if self._should_fail(passed, candidate):
                return False
        if not known:
            return bool(match_list)  # an empty list is a Host block's: no Match to meet
        return super()._does_match(known, target_hostname, canonical, final, options)

    def lookup(self, hostname: str) -> paramiko.SSHConfigDict:
        """The options for `hostname` in ssh(1)'s passes over the config (openssh-portable: ssh.c,
        main; readconf.c, match_cfg_line): one pass, and a second one only where
        CanonicalizeHostname is on (yes, true or always) or some `Match final` asks for it. In
        that second pass `Match canonical` and `Match final` both hold, whatever the name.

        paramiko always made a second pass (paramiko/config.py, lookup), and canonicalized only
        names with at most CanonicalizeMaxDots dots: a `Match host 10.*` block above `Host gpu01
        HostName 10.0.0.1` applied to gpu01, where `ssh -G` applies it to nothing; `Match canonical`
        blocks did not apply to `gpu01.cluster.example.org` under `CanonicalizeHostname yes` (nor
        to any host under `CanonicalizeHostname true`, nor beside a `Match final`), where they do in
        ssh(1); and `Match exec` commands ran twice.
        """
        # The name as given, for `Match originalhost`, %n and %k: the second pass is over the
        # canonical name (paramiko passes that alone, and `Match originalhost gpu01` then failed).
        self._original_host = hostname
        self._hostname_final = False
        self._block_results = {}
        options = self._lookup(hostname=hostname)
        # The HostName from here on, in every %h and in the second pass, is in lower case (an
        # address excepted), as ssh.c, main lowercases it: `HostName Johns-MacBook-Pro.local`
        # with `UserKnownHostsFile ~/.ssh/known_hosts.d/%h` is johns-macbook-pro.local there,
        # and was a file ssh(1) never wrote here.
        name = self._hostname_so_far(options, hostname)
        # An address in ssh(1)'s form of it (address_as_ssh_writes_it): `HostName 2001:0db8::0001`
        # is 2001:db8::1 in known_hosts and %h.
        options["hostname"] = address_as_ssh_writes_it(name, str(options.get("addressfamily") or "any"))
        self._hostname_final = True
        canonicalizing = str(options.get("canonicalizehostname") or "no").strip().lower() in ("yes", "true", "always")
        if not canonicalizing and not self._has_match_final():
            return _without_missing_user(self._expand_variables(options, hostname))
        if canonicalizing:
            domains = str(options.get("canonicaldomains") or "").split()
            options["hostname"] = self.canonicalize(hostname, options, domains)
        # Host lines of the second pass are tested against that HostName, not the alias
        # (ssh.c, main passes it as `host` to process_config_files): `Host 10.0.0.*` applies
        # there to `Host gpu01  HostName 10.0.0.1` beside a `Match final`.
        return _without_missing_user(self._lookup(str(options["hostname"]), options, canonical=True, final=True))

    def _hostname_so_far(self, options: dict[str, object], target_hostname: str) -> str:
        """The HostName met so far with its tokens expanded (hostname_expanded), as `Match host`
        and `Match exec`'s %h see it (openssh-portable: readconf.c, match_cfg_line); the name
        being looked up where none is set. Expanded once: after the first pass it is final.

        `Match host` compares it in lower case, its patterns lowered too (match.c,
        match_hostname); paramiko compared case-sensitively, so `Match host GPU*` never matched
        `gpu01`, which `ssh -G` (OpenSSH 9.2) matches. `Host` lines stay case-sensitive: ssh(1)
        tests them with match_pattern against the name as typed (readconf.c, oHost).
        """
        name = options.get("hostname")
        if not name:
            return target_hostname
        return str(name) if self._hostname_final else hostname_expanded(str(name), target_hostname)

    def _has_match_final(self) -> bool:
        """Whether a `Match final` is anywhere in the config: ssh(1) then reads it a second time
        (readconf.c, match_cfg_line sets want_final_pass whether or not the line applies)."""
        return any(str(criterion.get("type")).lower() == "final"
                   for block in self._config for criterion in block.get("matches", []))

    def canonicalize(self, hostname: str, options: dict[str, object], domains: list[str]) -> str:
        """CanonicalizeHostname as ssh(1) applies it (openssh-portable: ssh.c, main and
        resolve_canonicalize): to the HostName when one is set, never to an address or a name
        with more dots than CanonicalizeMaxDots, and under `yes` not through a proxy.

        paramiko canonicalizes the alias and then overwrites HostName with the result
        (paramiko/config.py, lookup): `Host *  CanonicalizeHostname yes` beside
        `Host gpu01  HostName 10.0.0.1` sent us to the DNS name `gpu01` (or a CanonicalDomains
        match of it), not to 10.0.0.1.
        """
        name = str(options.get("hostname") or hostname)  # expanded by lookup
        proxied = any(str(options.get(key) or "none").lower() != "none" for key in ("proxycommand", "proxyjump"))
        if proxied and str(options.get("canonicalizehostname")).lower() != "always":
            return name
        if _is_address(name) or name.count(".") > int(str(options.get("canonicalizemaxdots", 1))):
            return name
        # paramiko falls back to the name as given only on a literal "yes" (paramiko/config.py,
        # canonicalize): `CanonicalizeFallbackLocal true` (yes to ssh(1), readconf.c) made every
        # host "cannot resolve host name" that ssh(1) reaches.
        fallback = str(options.get("canonicalizefallbacklocal", "yes")).strip().lower()
        fallback = {"true": "yes", "false": "no"}.get(fallback, fallback)
        return str(super().canonicalize(name, {**options, "canonicalizefallbacklocal": fallback}, domains))


# `host` and `originalhost` are ours (_hostname_so_far): paramiko compares them case-sensitively.
_PARAMIKO_MATCH_CRITERIA = frozenset({"all", "canonical", "final", "exec", "user", "localuser"})


def _pattern_list_matches(value: str, patterns: str | list[str]) -> bool:
    """ssh(1)'s match_pattern_list: comma-separated globs (`*` and `?` only, as _pattern_matches),
    a matching `!glob` vetoes."""
    matched = False
    for pattern in patterns.split(",") if isinstance(patterns, str) else patterns:
        negated = pattern.startswith("!")
        if _pattern_matches(value, pattern[1:] if negated else pattern):
            if negated:
                return False
            matched = True
    return matched

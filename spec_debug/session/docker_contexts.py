"""The host a ``docker exec`` reaches through a docker context the same shell log created.

A context is a name in the CLI's store (``~/.docker/contexts``), not a host: ``docker --context
gpu07 exec sglang nvidia-smi``, ``DOCKER_CONTEXT=gpu07 docker exec ...`` and ``docker context use
gpu07`` then ``docker exec ...`` say where only through the context's endpoint, which the log
shows only where it created the context: ``docker context create gpu07 --docker
host=ssh://root@gpu07`` (docs.docker.com, engine/manage-resources/contexts; docker/cli
cli/command/context/create.go, the ``--docker`` "host=" field). Then the container runs on that
endpoint's host, as with ``DOCKER_HOST`` (:func:`shell.with_daemon_host`); a context the log did
not create names no host. Which one a command uses follows docker/cli cli/command/cli.go,
``resolveContextName``: ``--context``/``-c`` first, then ``-H``/``DOCKER_HOST`` (no context), then
``DOCKER_CONTEXT``, then the one ``docker context use`` made current."""

from __future__ import annotations

import re
import shlex
from dataclasses import replace

from spec_debug.session.shell import Target, daemon_login, on_daemon, split_words

_CURRENT = "docker context (current)"
"""The key under which the shell's variables keep the context ``docker context use`` chose."""
_ENDPOINT = "docker context "
"""Keys ``docker context NAME`` keep each created context's endpoint under."""
_DOCKER_HOST_FIELD = re.compile(r"(?:^|,)host=((?:ssh|tcp)://[^,\s]+)")
_LINE_CONTEXT = re.compile(r"(?:^|[\s;&|(])DOCKER_CONTEXT=([\w.-]+)")


def note_contexts(command: str, variables: dict[str, str | None]) -> None:
    """What ``command`` tells of docker contexts, noted in ``variables`` (a shell's, per host):
    the endpoint of one it creates, the one it makes current."""
    words = split_words(command)
    for i in range(len(words) - 2):
        if words[i].rsplit("/", 1)[-1] != "docker" or words[i + 1] != "context":
            continue
        verb, rest = words[i + 2], words[i + 3:]
        if verb == "use" and rest:
            variables[_CURRENT] = rest[0]
        elif verb == "create" and rest:
            name, endpoint = None, None
            for j, word in enumerate(rest):
                flag, _, value = word.partition("=")
                if flag == "--docker":
                    value = word[len("--docker="):] if "=" in word else (rest[j + 1] if j + 1 < len(rest) else "")
                    if m := _DOCKER_HOST_FIELD.search(value):
                        endpoint = m.group(1)
                elif not word.startswith("-") and name is None and (j == 0 or rest[j - 1] not in _VALUE_FLAGS):
                    name = word
            if name:
                variables[_ENDPOINT + name] = endpoint


_VALUE_FLAGS = frozenset({"--docker", "--description", "--from"})
"""``docker context create``'s options that take a value (docker/cli create.go)."""


def with_context_host(command: str, target: Target, variables: dict[str, str | None]) -> Target:
    """``target``, a container of a ``docker exec`` with no host, on the host of the endpoint of
    the context ``command`` uses, where the log created that context; as before otherwise."""
    if target.host is not None or target.container is None or not target.container.startswith("docker:"):
        return target
    words = split_words(command)
    docker = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] == "docker"), None)
    if docker is None or "exec" not in words[docker:]:
        return target
    name = None
    for i in range(docker + 1, words.index("exec", docker)):  # the CLI's own options, before exec's
        flag, _, value = words[i].partition("=")
        if flag in ("--context", "-c"):
            name = value or (words[i + 1] if i + 1 < len(words) else None)
        elif flag in ("-H", "--host"):
            return target  # a daemon named outright, no context (shell._docker_elsewhere read it)
    login = _context_login(command, name, variables)
    return target if login is None else replace(target, user=login[0], host=login[1], port=login[2])


def run_on_context_host(command: str, target: Target, variables: dict[str, str | None]) -> Target:
    """``docker --context gpu08 run --rm IMAGE CMD`` (or after ``docker context use gpu08``, or with
    ``DOCKER_CONTEXT=gpu08``), the context created by this log with ``--docker host=ssh://…``: the
    new container runs on that endpoint's host, so the command ran there, as ``ssh gpu08 docker
    run …`` would (was the machine the session ran on, where only an exec was placed). The CLI
    resolves the context alike for every subcommand (docker/cli cli/command/cli.go,
    ``resolveContextName``), so the daemon's other commands (``docker --context gpu08 logs
    sglang``, ``ps``, ``restart``: :func:`shell.on_daemon`) ran there too. ``target`` as before for
    any other command (``cp``, ``version``) or context."""
    if target.host is not None or target.container is not None:
        return target
    words = split_words(command)
    docker = next((i for i, word in enumerate(words) if word.rsplit("/", 1)[-1] == "docker"), None)
    if docker is None:
        return target
    i, name = docker + 1, None
    while i < len(words) and words[i].startswith("-"):  # the CLI's own options, before run
        flag, _, value = words[i].partition("=")
        if flag in ("-H", "--host"):
            return target  # a daemon named outright, no context (shell._run_elsewhere read it)
        if flag in ("--context", "-c", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"):
            if not value:
                value = words[i + 1] if i + 1 < len(words) else ""
                i += 1
            if flag in ("--context", "-c"):
                name = value
        i += 1
    if not on_daemon(words, i):
        return target
    login = _context_login(command, name, variables)
    if login is None:
        return target
    return Target(host=login[1], user=login[0], port=login[2], inner=shlex.join(["docker"] + words[i:]))


def _context_login(command: str, name: str | None, variables: dict[str, str | None]) -> tuple[str | None, str, int | None] | None:
    """The (user, host, port) of the ssh endpoint behind the context ``command`` talks to: the one
    it names (``name``, from ``--context``), else ``DOCKER_CONTEXT=`` on the line, the exported
    variable or the context made current by ``docker context use``; None where a ``DOCKER_HOST``
    wins over the current context (the CLI's order) or the log never created that context."""
    if name is None:
        if variables.get("DOCKER_HOST") or "DOCKER_HOST=" in command:
            return None
        line = _LINE_CONTEXT.search(command) if "DOCKER_CONTEXT=" in command else None
        name = line.group(1) if line else variables.get("DOCKER_CONTEXT") or variables.get(_CURRENT)
    endpoint = variables.get(_ENDPOINT + name) if name else None
    return daemon_login(endpoint) if endpoint else None

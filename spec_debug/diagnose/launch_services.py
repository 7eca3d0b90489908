"""Service definitions that run a server: a systemd unit (`ExecStart=`, `Environment=`) and a
supervisord program (`command=`, `environment=`), pasted with the server's command."""

from __future__ import annotations

import re


def service_environment(commands: list[list[str]]) -> list[str]:
    """The engine variables a service definition gives its program, from any of its lines: a
    systemd unit's `Environment="A=1" "B=2"` (systemd.exec(5)) and a supervisord program's
    `environment=A="1",B="2"` (supervisord docs: KEY="val",KEY2="val2" pairs)."""
    found: list[str] = []
    for command in commands:
        if command[0].startswith("Environment="):
            found += [command[0][len("Environment="):], *command[1:]]
        elif command[0].startswith("environment="):
            pairs = " ".join([command[0][len("environment="):], *command[1:]])
            found += re.split(r",(?=[A-Za-z_][A-Za-z0-9_]*=)", pairs)
    return without_unit_unset([tok for tok in found if re.fullmatch(r"(SGLANG_|SGL_|VLLM_)[A-Za-z0-9_]*=.*", tok)],
                              commands)


def without_unit_unset(assignments: list[str], commands: list[list[str]]) -> list[str]:
    """The assignments a systemd unit's `UnsetEnvironment=` lines leave (systemd.exec(5),
    UnsetEnvironment=: a space-separated list of names or assignments; a name removes every
    assignment of it, `NAME=value` only that exact one, and "the effect of UnsetEnvironment= is
    applied as final step when the environment list passed to executed processes is compiled",
    so it undoes an Environment= wherever the two lines stand; an empty assignment resets the
    list, which _without_reset_unit_settings has already dropped). Was: a unit with
    `Environment=SGLANG_ENABLE_SPEC_V2=1` and `UnsetEnvironment=SGLANG_ENABLE_SPEC_V2` audited as
    if the server ran with the variable."""
    names: set[str] = set()
    exact: set[str] = set()
    for command in commands:
        if command[0].startswith("UnsetEnvironment="):
            for word in [command[0][len("UnsetEnvironment="):], *command[1:]]:
                (exact if "=" in word else names).add(word)
    if not names and not exact:
        return assignments
    return [tok for tok in assignments if tok not in exact and tok.partition("=")[0] not in names]


def service_command(command: list[str], unit_env: list[str]) -> list[str]:
    """The program a service line runs, with the service's engine variables before it; any
    other command as it is."""
    if command[0].startswith("ExecStart="):
        # systemd.service(5): `ExecStart=/opt/venv/bin/python -m sglang.launch_server ...`
        command = [command[0][len("ExecStart="):].lstrip("-@:+!"), *command[1:]]
        return [*unit_env, *command] if unit_env else command
    if command[0].startswith("command="):
        # a supervisord `[program:x]` section's `command=` (supervisord docs, "[program:x]
        # Section Values"), run with its `environment=` wherever that line is (was: the
        # program read as a variable named `command`, and SGLANG_ENABLE_SPEC_V2 there lost)
        return [*unit_env, command[0][len("command="):], *command[1:]]
    return command

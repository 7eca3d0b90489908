"""A postmortem is shared: `spec-debug analyze` masks the secrets the session typed in every
output (docs/analyze.md, "Secrets"). Passwords that clients take on their command line were
masked for docker login -p, redis-cli -a, mysql -pPASS, sshpass -p, curl -u, `echo PASS | sudo
-S`, PGPASSWORD=..., but not for the same password given to podman/nerdctl login -p, `helm
registry login -p`, redis-cli --pass (the alias of -a), nor in the environment variables
MYSQL_PWD and REDISCLI_AUTH: the JSON analysis (commands[].command) and the Markdown
postmortem quoted them as typed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.redact import MASK, redact_text
from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json
from spec_debug.session.postmortem import render_postmortem
from tests.session.test_hardening67_install_folder import _BENCH, _session

SECRET = "hunter2-Zq9"
_BENCH_CMD = "python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100"

_TYPED = [
    f"podman login -u deploy -p {SECRET} quay.io",
    f"nerdctl login --username deploy -p {SECRET} registry.example.com",
    f"helm registry login registry.example.com -u deploy -p {SECRET}",
    f"redis-cli -h 10.0.0.2 --pass {SECRET} ping",
    f"redis-cli --user default --pass '{SECRET}' info",
    f"MYSQL_PWD={SECRET} mysql -u root -e 'select 1'",
    f'export REDISCLI_AUTH="{SECRET}"',
]


@pytest.mark.parametrize("command", _TYPED)
def test_the_password_is_masked(command: str) -> None:
    masked = redact_text(command)
    assert SECRET not in masked
    assert masked.replace(MASK, SECRET) == command  # only the password itself is replaced


@pytest.mark.parametrize("command", [
    "podman login -u deploy --password-stdin quay.io",  # read from standard input: nothing typed
    "podman run -p 30000:30000 lmsysorg/sglang:latest",  # a port, no login
    "helm install sglang ./charts/sglang -n ml",
    "redis-cli --pass $REDIS_PASSWORD ping",  # a variable, not a secret
    "MYSQL_PWD=$DB_PASS mysql -u root",
    "redis-cli -h 10.0.0.2 ping",
])
def test_what_holds_no_password_is_kept(command: str) -> None:
    assert redact_text(command) == command


def test_analyze_outputs_hold_no_password(tmp_path: Path) -> None:
    # the login on the line of the upgrade the rise followed: the Resolution quotes that line
    login = f"helm registry login registry.example.com -u deploy -p {SECRET} && helm upgrade sglang ./charts/sglang"
    typed = [*_TYPED, login]
    steps = [(_BENCH_CMD, _BENCH.format("60.5"), "/root"), *[(c, "", "/root") for c in typed],
             (_BENCH_CMD, _BENCH.format("120.3"), "/root")]
    analysis = analyze_path(_session(tmp_path / "s.jsonl", steps))
    shown = [c["command"] for c in json.loads(analysis_json(analysis))["commands"]]
    assert shown == [_BENCH_CMD, *[redact_text(c) for c in typed], _BENCH_CMD]
    assert sum(MASK in c for c in shown) == len(typed)
    for fmt in ("md", "html"):
        assert SECRET in render_postmortem(analysis, fmt, redact=False)  # the report quotes the line
        text = render_postmortem(analysis, fmt)
        assert SECRET not in text
        assert "-u deploy -p " + MASK in text
    assert SECRET in analysis_json(analysis, redact=False)  # --no-redact keeps them as typed

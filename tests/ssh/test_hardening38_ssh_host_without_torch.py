"""A drafter probe run by a host Python without torch names that Python and the fix.

The playbooks run probes with the host's `python3` unless told otherwise, and on GPU hosts
torch lives in a venv or conda env, not there. The step said "probe drafter_eval failed on the
host: ModuleNotFoundError: No module named 'torch'", naming neither the interpreter that lacked
it nor how to choose another; its SD003 evidence also carried an empty line (the probe printed
nothing on stderr). Now the message names the Python's version and path and `--var python=...`.

The host is real: sshd with a ForceCommand that gives the session an empty home and a PATH of
its own (tests/ssh/test_fleet_faults.FreshHost), whose python3 is this Python without its
site-packages (`-S`), as a bare system Python is.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, fresh_server, load_run
from tests.sshd_fixture import ClientSetup, SshServer

StartServer = Callable[..., SshServer]


def test_a_drafter_probe_on_a_python_without_torch_names_it_and_the_fix(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: StartServer, tmp_path: Path
) -> None:
    fresh = fresh_server(client, sshd_factory, tmp_path, "notorch", python=False)
    (fresh.bin / "python3").write_text(f'#!/bin/sh\nexec {sys.executable} -S "$@"\n')
    (fresh.bin / "python3").chmod(0o755)
    draft = fresh.home / "draft"
    draft.mkdir()
    (draft / "config.json").write_text('{"architectures": ["Eagle3Speculator"]}\n')
    playbook = tmp_path / "accuracy.yaml"
    playbook.write_text(
        "name: accuracy\nsteps:\n"
        "  - id: drafter_eval\n    probe: drafter_eval\n"
        f"    with:\n      draft_model: {draft}\n      hidden_states: {fresh.home}/hidden_states\n"
        "  - id: after\n    run: echo after\n"
    )
    out = tmp_path / "runs"
    result = cli("run", str(playbook), "--host", "notorch", "-F", str(client.config), "--batch", "--out", str(out), timeout=60)
    assert_clean_cli(result)
    assert result.code == 0, result.stdout + result.stderr  # SD003 is a warning
    _, record = load_run(out)
    steps = by_id(record, "notorch")
    message = steps["drafter_eval"]["message"]
    assert steps["drafter_eval"]["status"] == "error" and "\n" not in message, message
    assert "No module named 'torch'" in message, message
    assert f"Python {sys.version.split()[0]} at {sys.executable}" in message, message
    assert "a Python that has torch (--var python=" in message, message
    [finding] = [f for f in record["findings"] if f["code"] == "SD003" and f["step"] == "drafter_eval"]
    assert finding["evidence"] == [message], finding["evidence"]  # no empty line for an empty stderr
    assert steps["after"]["status"] == "passed"

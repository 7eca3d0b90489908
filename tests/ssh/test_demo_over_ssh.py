"""The incident playbook over a real SSH connection: the probe bundle (with the drafter) is
uploaded once, runs with the host's Python, and finds the demo host's three root causes."""

from __future__ import annotations

import json
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Callable

from spec_debug.demo import demo_vars, fixture_dir
from tests.sshd_fixture import ClientSetup, SshServer

# torch's intra-op threads (one per core) busy-wait for each other in OpenMP: on a 2-core CI
# machine shared with pytest and sshd, the drafter probes' small matmuls took 12x longer with 2
# threads than with 1 (hidden_layout of the demo under load: 117 s, OMP_NUM_THREADS=1: 10 s).
# A host's environment is sshd's to set (SetEnv), as a site's /etc/environment would.
_ONE_THREAD = "OMP_NUM_THREADS=1"


def test_perf_regression_over_ssh_finds_the_incident(
    cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path
) -> None:
    host = sshd_factory("demo", set_env=_ONE_THREAD)
    client.trust(host)
    client.alias("target", host)
    with ExitStack() as stack:
        fixture = fixture_dir(stack)
        variables = demo_vars(fixture, healthy=False)
        out = tmp_path / "runs"
        args = ["run", "perf_regression", "--host", "target", "-F", str(client.config), "--batch", "--out", str(out)]
        for key, value in variables.items():
            args += ["--var", f"{key}={value}"]
        result = cli(*args, timeout=300)
    assert result.code == 1, result.stderr  # error findings
    [run_dir] = [p for p in out.iterdir() if p.is_dir()]
    record = json.loads((run_dir / "run.json").read_text())
    assert record["hosts"][0]["transport"] == "ssh"
    errors = sorted({f["code"] for f in record["findings"] if f["severity"] == "error"})
    assert errors == ["SD101", "SD201", "SD501"]
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["drafter_eval"]["status"] == "passed"
    probe_commands = [s["command"] for s in record["steps"] if s.get("command") and ".pyz" in s["command"]]
    assert probe_commands and all(".cache/spec-debug/bundle-" in c for c in probe_commands)
    assert all(c.startswith(sys.executable) for c in probe_commands)

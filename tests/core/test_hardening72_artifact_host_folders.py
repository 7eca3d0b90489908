"""Two hosts whose names differ only in characters an artifacts folder cannot hold keep two
folders.

A host's artifacts folder is its name with each character outside [A-Za-z0-9_.@-] written
as "_". gpü01 and gpö01 (one inventory, a real `--host local`-style run of both) were both
artifacts/gp_01/: the second host's flood.stdout.log replaced the first's, and run.json still
named that one file as each host's artifact, so the first host's output was lost. A cleaned
name now ends with ~ and a hash of the whole name; a plain name is kept as it is. Through the
real CLI.
"""

from __future__ import annotations

import hashlib

from spec_debug.runner.engine import _safe_name
from tests.conftest import only_run, run_cli


def test_hosts_that_clean_to_one_name_keep_their_own_artifacts(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nsteps:\n  - id: flood\n    run: |\n"
        "      head -c 300000 /dev/zero | tr '\\0' 'a'; echo; echo host={{ host }}\n"
    )
    inventory = tmp_path / "hosts.ini"
    inventory.write_text("[gpus]\ngpü01 ansible_connection=local\ngpö01 ansible_connection=local\n"
                         "gpu01 ansible_connection=local\n", encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--inventory", str(inventory), "--out", str(out),
                     env={"PYTHONUTF8": "1"})
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    by_host = {step["host"]: step for step in record["steps"]}
    assert sorted(by_host) == ["gpu01", "gpö01", "gpü01"]
    paths = {host: step["artifacts"] for host, step in by_host.items()}
    assert len({tuple(p) for p in paths.values()}) == 3, paths
    for host, step in by_host.items():
        assert step["truncated"] and len(step["artifacts"]) == 1, step["artifacts"]
        text = (run_dir / step["artifacts"][0]).read_text()
        assert text == "a" * 300000 + f"\nhost={host}\n", (host, text[-20:])
    # a plain name keeps its folder's name
    assert paths["gpu01"] == ["artifacts/gpu01/flood.stdout.log"]


def test_safe_name_marks_only_changed_names():
    digest = hashlib.sha256("gpü01".encode()).hexdigest()[:8]
    assert _safe_name("gpü01") == f"gp_01~{digest}"
    assert _safe_name("gpu01") == "gpu01"
    assert _safe_name("user@node-1.example") == "user@node-1.example"
    assert _safe_name("node 1") != _safe_name("node_1") == "node_1"
    # a folder named . or .. would be the artifacts folder or the run's own
    assert _safe_name("..") not in (".", "..") and _safe_name(".") not in (".", "..")

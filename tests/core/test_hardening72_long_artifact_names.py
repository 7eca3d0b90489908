"""A host or step whose name makes an artifact's file name longer than the file system holds
runs as any other.

Each step's output goes to artifacts/<host>/<step id>.<stream>.log. A step id of 250
characters (ids are [a-z0-9_]+, with no bound) or an inventory alias of 300 made a name past
NAME_MAX (255 bytes, linux/limits.h), and the host ended at its first step with "host local
error: internal error: OSError: [Errno 36] File name too long: ...", its steps never run. The
folder and the file names are now cut as fetched files' names are (engine._fitted: their
start, a hash of the whole name, the extension). Through the real CLI.
"""

from __future__ import annotations

from tests.conftest import only_run, run_cli

LONG_ID = "s" * 250
LONG_HOST = "h" * 300


def test_a_long_step_id_and_host_name_run(tmp_path):
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        f"name: p\nsteps:\n  - id: {LONG_ID}\n    run: echo hi\n"
        "  - id: flood\n    run: |\n      head -c 400000 /dev/zero | tr '\\0' 'a'\n"
    )
    inventory = tmp_path / "hosts.ini"
    inventory.write_text(f"[gpus]\n{LONG_HOST} ansible_connection=local\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--inventory", str(inventory), "--out", str(out))
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert [(s["id"], s["status"], s["stdout"][:3]) for s in record["steps"]] == [(LONG_ID, "passed", "hi\n"), ("flood", "passed", "aaa")]
    assert [h["status"] for h in record["hosts"]] == ["passed"]
    # the flood's output past the capture limit is kept whole in its artifact, under the host's folder
    flood = record["steps"][1]
    assert flood["truncated"] and len(flood["artifacts"]) == 1, flood["artifacts"]
    artifact = run_dir / flood["artifacts"][0]
    assert artifact.read_bytes() == b"a" * 400000
    folder = artifact.parent.name
    assert len(folder.encode()) <= 255 and folder.startswith("h" * 200), folder

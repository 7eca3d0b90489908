"""`fetch: src: /var/log/sglang/*.log` copies the files the pattern names, as scp(1) does.

scp expands a remote glob in the remote shell; people write fetch sources the same way (the
server logs of every rank, each draft checkpoint's config.json). The pattern went to the copy
as a file name and every such step failed with "No such file or directory: '...*.log'".
"""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """\
name: grab_logs
description: copy the server logs
vars:
  log_dir: ""
steps:
  - id: logs
    fetch:
      src: ["{{ log_dir }}/*.log", "{{ log_dir }}/rank[0-9].txt", "{{ log_dir }}/my run $(echo x)/*.json"]
      dest: logs
  - id: nothing
    fetch:
      src: "{{ log_dir }}/*.nope"
      dest: logs
  - id: folder
    fetch:
      src: "{{ log_dir }}"
      dest: logs
"""


def test_a_glob_in_fetch_copies_every_file_it_names_and_nothing_else(tmp_path, write_playbook):
    logs = tmp_path / "server logs"  # a space in the folder: the pattern's text is quoted
    logs.mkdir()
    (logs / "sglang_tp0.log").write_text("tp0 ready\n")
    (logs / "sglang_tp1.log").write_text("tp1 ready\n")
    (logs / "rank1.txt").write_text("rank 1\n")
    (logs / "rankX.txt").write_text("not a rank\n")
    (logs / "folder.log").mkdir()  # a folder the glob names is not a file to copy
    odd = logs / "my run $(echo x)"  # run as a command, $(echo x) would name "my run x"
    odd.mkdir()
    (odd / "config.json").write_text("{}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(write_playbook(PLAYBOOK)), "--host", "local", "--out", str(out), "--var", f"log_dir={logs}")
    assert "Traceback" not in result.stderr
    record = json.loads(next(out.glob("*/run.json")).read_text())
    steps = {s["id"]: s for s in record["steps"]}
    assert steps["logs"]["status"] == "passed", steps["logs"]["message"]
    names = sorted(a.rsplit("/", 1)[-1] for a in steps["logs"]["artifacts"])
    assert names == ["config.json", "rank1.txt", "sglang_tp0.log", "sglang_tp1.log"]
    run_dir = next(out.iterdir())
    assert (run_dir / "artifacts/local/logs/sglang_tp1.log").read_text() == "tp1 ready\n"
    # A pattern that names nothing says so, not "No such file or directory: '...*.nope'".
    assert steps["nothing"]["status"] == "error"
    assert steps["nothing"]["message"].endswith("*.nope: no file on the host matches this pattern")
    # A folder is no file to copy: the message says how to name its files.
    assert steps["folder"]["status"] == "error"
    assert f"such as {logs}/*.log" in steps["folder"]["message"], steps["folder"]["message"]

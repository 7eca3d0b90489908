"""A fetch step copies at most its limit to the controller, each file's size checked first.

`fetch: {src: /var/log/sglang/*.log}` on a host that kept a month of logs, or a mistaken
`src: /data/checkpoints/model-*.safetensors`, copied tens of GB into runs/<id>/artifacts/
and filled the controller's disk. Now a fetch step copies at most the step's `artifact_limit`
(else --artifact-limit, 256 MiB by default; 0: all) in all; a file over what is left is not
copied (its size read with stat before a byte moves), one longer than its stat said is cut,
and the step's message, facts and SD003 finding say which, how big, and how to raise it.
The checkpoints here are sparse files: stat says 1 GiB, the disk holds nothing.
"""

from __future__ import annotations

import os
import sys
import time

import pytest

from tests.conftest import only_run, run_cli
from tests.core.test_record_faults import _in_private_tmpfs, needs_tmpfs

GIB = 1024**3


def sparse(path, size):
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def checkpoint_folder(tmp_path):
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    sparse(ckpt / "model-00001-of-00002.safetensors", GIB)
    sparse(ckpt / "model-00002-of-00002.safetensors", GIB)
    (ckpt / "config.json").write_text('{"architectures": ["LlamaForCausalLMEagle3"]}\n')
    (ckpt / "train.log").write_text("step 100 loss 2.31\n" * 1000)  # 19 KB
    return ckpt


PLAYBOOK = """
name: grab
vars:
  ckpt: ""
steps:
  - id: ckpt
    fetch:
      src: ["{{ ckpt }}/model-*.safetensors", "{{ ckpt }}/config.json", "{{ ckpt }}/train.log"]
      dest: draft
    artifact_limit: 1M
"""


def test_a_mistaken_checkpoint_glob_copies_nothing_of_the_weights(tmp_path, write_playbook):
    ckpt = checkpoint_folder(tmp_path)
    out = tmp_path / "runs"
    started = time.monotonic()
    result = run_cli("run", str(write_playbook(PLAYBOOK)), "--host", "local", "--out", str(out), "--var", f"ckpt={ckpt}")
    assert time.monotonic() - started < 30  # 2 GiB were not read to find out
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    # The small files came; the weights did not, each named with its size and the way out.
    assert sorted(os.listdir(run_dir / "artifacts/local/draft")) == ["config.json", "train.log"]
    assert (run_dir / "artifacts/local/draft/train.log").read_text() == (ckpt / "train.log").read_text()
    assert step["facts"]["fetch_skipped"] == [
        {"src": str(ckpt / "model-00001-of-00002.safetensors"), "bytes": GIB},
        {"src": str(ckpt / "model-00002-of-00002.safetensors"), "bytes": GIB},
    ]
    assert step["facts"]["fetch_cut"] == []
    assert step["status"] == "error"
    assert "model-00001-of-00002.safetensors: not copied: 1.0 GiB, over this step's fetch limit of 1.0 MiB" in step["message"]
    assert "artifact_limit" in step["message"] and "--artifact-limit" in step["message"]
    (finding,) = record["findings"]
    assert finding["code"] == "SD003" and finding["step"] == "ckpt" and len(finding["evidence"]) == 2


def test_the_limit_counts_every_file_of_the_step(tmp_path, write_playbook):
    logs = tmp_path / "logs"
    logs.mkdir()
    for rank in range(3):
        (logs / f"sglang_tp{rank}.log").write_bytes(b"x" * 400_000)
    playbook = write_playbook(
        f"""
name: logs
steps:
  - id: logs
    fetch: {{src: "{logs}/*.log"}}
    artifact_limit: 1M
"""
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    assert [a.rsplit("/", 1)[-1] for a in step["artifacts"]] == ["sglang_tp0.log", "sglang_tp1.log"]
    assert step["facts"]["fetch_skipped"] == [{"src": str(logs / "sglang_tp2.log"), "bytes": 400_000}]
    assert "(781.2 KiB already copied by this step)" in step["message"]


def test_the_run_option_is_the_default_and_0_copies_all(tmp_path, write_playbook):
    log = tmp_path / "server.log"
    log.write_bytes(b"INFO decode batch\n" * 200_000)  # 3.6 MB
    playbook = write_playbook(f"name: one\nsteps:\n  - id: log\n    fetch: {{src: {log}}}\n")
    for limit, copied in (("2M", False), ("0", True), ("4M", True)):
        out = tmp_path / f"runs-{limit}"
        result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--artifact-limit", limit)
        assert "Traceback" not in result.stderr, result.stderr
        run_dir, record = only_run(out)
        (step,) = record["steps"]
        assert (step["status"] == "passed") is copied, (limit, step["message"])
        assert (run_dir / "artifacts/local/server.log").exists() is copied
        if copied:
            assert (run_dir / "artifacts/local/server.log").stat().st_size == log.stat().st_size


def test_a_file_longer_than_its_size_says_is_cut_at_the_limit(tmp_path, write_playbook):
    # /proc files stat as 0 bytes: their size is only known by reading them. This one is the
    # reading process's environment, made 100 KB long.
    playbook = write_playbook(
        "name: proc\nsteps:\n  - id: environ\n    fetch: {src: /proc/self/environ}\n    artifact_limit: 10K\n"
    )
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), env={"BIG_VALUE": "v" * 100_000})
    assert "Traceback" not in result.stderr, result.stderr
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert step["artifacts"] == ["artifacts/local/environ"]
    assert (run_dir / "artifacts/local/environ").stat().st_size == 10 * 1024
    assert step["facts"]["fetch_cut"] == [{"src": "/proc/self/environ", "artifact": "artifacts/local/environ", "bytes_kept": 10240}]
    assert "/proc/self/environ: cut after its first 10.0 KiB" in step["message"]
    assert not [p for p in (run_dir / "artifacts/local").iterdir() if ".part-" in p.name]


@needs_tmpfs
@pytest.mark.parametrize("disk_size", ["100m", "20m"])
def test_a_fetch_never_fills_the_controllers_disk(tmp_path, write_playbook, disk_size):
    # No limit asked (0), but the disk holding runs/ is small: a 1 GiB file is refused before
    # copying, with the free space named, and run.json is still written there. On a disk with
    # less than 64 MiB free the small files still come (half of what is free is kept).
    ckpt = checkpoint_folder(tmp_path)
    playbook = write_playbook(PLAYBOOK.replace("artifact_limit: 1M", "artifact_limit: 0"))
    disk, saved = tmp_path / "disk", tmp_path / "saved"
    cli = f"{sys.executable} -m spec_debug run {playbook} --host local --out {disk}/runs --var ckpt={ckpt}"
    proc = _in_private_tmpfs(disk, f"size={disk_size}", f"{cli}; rc=$?; cp -r {disk}/runs {saved}; exit $rc", tmp_path)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    _, record = only_run(saved)
    (step,) = record["steps"]
    assert len(step["facts"]["fetch_skipped"]) == 2
    assert sorted(a.rsplit("/", 1)[-1] for a in step["artifacts"]) == ["config.json", "train.log"]
    assert "more than the controller's disk has free for it" in step["message"], step["message"]
    assert "No space left" not in step["message"]


def test_a_pattern_naming_thousands_of_files_is_counted_whole(tmp_path, write_playbook):
    # 3,000 rotated logs with 100-byte names: a 300 KB listing. It was cut at the 256 KiB
    # capture limit and counted from its head and tail: "2203 files match".
    logs = tmp_path / "logs"
    logs.mkdir()
    for index in range(3000):
        (logs / f"sglang_rank{index:05d}_{'x' * 80}.log").touch()
    playbook = write_playbook(f'name: logs\nsteps:\n  - id: logs\n    fetch: {{src: "{logs}/*.log"}}\n')
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    assert step["message"] == f"{logs}/*.log: 3000 files match this pattern (at most 200): name fewer"

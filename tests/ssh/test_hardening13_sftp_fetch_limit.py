"""Over SSH a fetch step copies at most its limit, each file's size read on the host first.

A mistaken `src: /data/checkpoints/model-*.safetensors` copied tens of GB over SFTP into
runs/<id>/artifacts/ and filled the controller's disk. Now the server's stat of each file is
read before a byte moves: a file over what is left of the step's limit is not copied at all,
and one that holds more than its stat said (a /proc file, a log still written) is cut at the
limit. Both over SFTP and over the `cat` copies used where sshd has no SFTP. The checkpoints
are sparse files: stat says 1 GiB, reading them would move a GiB of zeros.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

import pytest

from spec_debug.runner.fetch_limit import FetchCut, FetchTooLarge
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h8_helpers import SftpLineServer
from tests.ssh.test_fleet_faults import assert_clean_cli, load_run
from tests.sshd_fixture import ClientKey, ClientSetup

GIB = 1024**3

PLAYBOOK = """
name: grab
vars:
  ckpt: ""
steps:
  - id: ckpt
    fetch:
      src: ["{{ ckpt }}/model-*.safetensors", "{{ ckpt }}/config.json", /proc/self/smaps]
      dest: draft
    artifact_limit: 16K
"""


def checkpoint_folder(tmp_path: Path) -> Path:
    ckpt = tmp_path / "ckpt"
    ckpt.mkdir()
    for shard in (1, 2):
        with open(ckpt / f"model-0000{shard}-of-00002.safetensors", "wb") as handle:
            handle.truncate(GIB)
    (ckpt / "config.json").write_text('{"architectures": ["LlamaForCausalLMEagle3"]}\n')
    return ckpt


@pytest.fixture
def no_sftp_host(tmp_path: Path, client_key: ClientKey, client: ClientSetup) -> Any:
    server = SftpLineServer(tmp_path / "sshd-nosftp", [client_key], subsystem="").start()
    client.trust(server)
    client.alias("nosftp", server)
    yield "nosftp"
    server.stop()


@pytest.mark.parametrize("copies", ["sftp", "cat"])
def test_a_mistaken_checkpoint_glob_copies_nothing_of_the_weights_over_ssh(
    cli: Callable[..., Any], client: ClientSetup, request: pytest.FixtureRequest, tmp_path: Path, copies: str
) -> None:
    host = "target" if copies == "sftp" else request.getfixturevalue("no_sftp_host")
    ckpt = checkpoint_folder(tmp_path)
    out = tmp_path / "runs"
    started = time.monotonic()
    playbook = tmp_path / "grab.yaml"
    playbook.write_text(PLAYBOOK)
    result = cli("run", str(playbook), "--host", host, "-F", str(client.config), "--batch", "--out", str(out), "--var", f"ckpt={ckpt}")
    assert time.monotonic() - started < 60  # 2 GiB did not cross the connection
    assert_clean_cli(result)
    run_dir, record = load_run(out)
    (step,) = record["steps"]
    assert step["facts"]["fetch_skipped"] == [
        {"src": str(ckpt / f"model-0000{shard}-of-00002.safetensors"), "bytes": GIB} for shard in (1, 2)
    ], step["message"]
    assert "not copied: 1.0 GiB, over this step's fetch limit of 16.0 KiB" in step["message"]
    # config.json came whole; the sshd process's memory map (a /proc file: stat says 0 bytes,
    # it holds tens of KB) was cut at what was left of the 16 KiB.
    assert (run_dir / "artifacts" / host / "draft/config.json").read_text() == (ckpt / "config.json").read_text()
    (cut,) = step["facts"]["fetch_cut"]
    assert cut["src"] == "/proc/self/smaps" and cut["bytes_kept"] == 16 * 1024 - len((ckpt / "config.json").read_bytes())
    assert (run_dir / cut["artifact"]).stat().st_size == cut["bytes_kept"]
    assert "/proc/self/smaps: cut after its first" in step["message"]
    assert step["status"] == "error" and [f["code"] for f in record["findings"]] == ["SD003"]
    assert not list((run_dir / "artifacts").rglob("*.part-*"))


def test_the_transport_refuses_before_copying_and_copies_within_the_limit(client: ClientSetup, tmp_path: Path) -> None:
    ckpt = checkpoint_folder(tmp_path)
    with SSHTransport.connect("target", client.options()) as transport:
        with pytest.raises(FetchTooLarge) as refused:
            transport.get(str(ckpt / "model-00001-of-00002.safetensors"), tmp_path / "back" / "model.safetensors", 1024)
        assert refused.value.size == GIB
        assert not (tmp_path / "back").exists() or not list((tmp_path / "back").iterdir())
        # A file exactly at the limit is whole, not "cut".
        exact = len((ckpt / "config.json").read_bytes())
        transport.get(str(ckpt / "config.json"), tmp_path / "back" / "config.json", exact)
        assert (tmp_path / "back" / "config.json").read_bytes() == (ckpt / "config.json").read_bytes()
        with pytest.raises(FetchCut) as cut:
            transport.get("/proc/self/smaps", tmp_path / "back" / "smaps", 100)
        assert cut.value.kept == 100 and (tmp_path / "back" / "smaps").stat().st_size == 100

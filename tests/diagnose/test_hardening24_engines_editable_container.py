"""engine_info in a container whose engine is an editable install (round 24).

The lmsysorg/sglang image installs SGLang with `pip install -e "python[all]"` from
/sgl-workspace/sglang (sgl-project/sglang docker/Dockerfile), so its dist-packages holds only
sglang-X.dist-info and setuptools' editable hook; the package itself is in the checkout. The
layouts below are those setuptools 80 / pip write (checked with a real `pip install -e`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from spec_debug.probes import engine_info, forward_source

SITE = "/usr/local/lib/python3.12/dist-packages"


def _container(tmp_path: Path) -> tuple[Path, Path]:
    proc_dir = tmp_path / "proc"
    (proc_dir / "4242" / "ns").mkdir(parents=True)
    (proc_dir / "self" / "ns").mkdir(parents=True)
    os.symlink("mnt:[4026532511]", proc_dir / "4242" / "ns" / "mnt")
    os.symlink("mnt:[4026531840]", proc_dir / "self" / "ns" / "mnt")
    (proc_dir / "4242" / "maps").write_text(
        f"7f2c1a000000-7f2c1c000000 r-xp 00000000 00:3a 1234567 {SITE}/torch/lib/libtorch_cuda.so\n")
    root = proc_dir / "4242" / "root"
    dist = root / SITE.lstrip("/")
    info = dist / "sglang-0.5.5.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.4\nName: sglang\nVersion: 0.5.5\n")
    (info / "direct_url.json").write_text(json.dumps(
        {"dir_info": {"editable": True}, "url": "file:///sgl-workspace/sglang/python"}))
    source = root / "sgl-workspace/sglang/python/sglang/srt/models"
    source.mkdir(parents=True)
    (source / "llama_eagle3.py").write_text(
        "import torch\n\nclass LlamaModel:\n    def forward(self, embeds, hidden_states):\n"
        "        hidden_states = torch.cat([embeds, hidden_states], dim=-1)\n"
        "        return self.fc(hidden_states)\n")
    return proc_dir, dist


def _server(proc_dir: Path) -> dict:
    return engine_info.server_packages(
        {"pid": 4242, "argv": ["python3", "-m", "sglang.launch_server"]}, proc=proc_dir)


def test_an_editable_engine_in_a_container_is_read_from_its_checkout(tmp_path):
    proc_dir, dist = _container(tmp_path)
    (dist / "__editable__.sglang-0.5.5.pth").write_text(
        "import __editable___sglang_0_5_5_finder; __editable___sglang_0_5_5_finder.install()\n")
    (dist / "__editable___sglang_0_5_5_finder.py").write_text(
        "MAPPING: dict[str, str] = {'sglang': '/sgl-workspace/sglang/python/sglang'}\n"
        "NAMESPACES: dict[str, list[str]] = {}\n")
    server = _server(proc_dir)
    checkout = proc_dir / "4242/root/sgl-workspace/sglang/python/sglang"
    assert server["packages"]["sglang"] == {"version": "0.5.5", "path": str(checkout)}
    described = forward_source.describe("sglang", server=lambda: server)
    assert described["found"] is True and described["version"] == "0.5.5"
    assert described["cat_orders"] == [["embeds", "hidden_states"]]


def test_an_editable_install_found_from_direct_url_alone(tmp_path):
    # a static .pth (setuptools' lenient mode for some layouts) or none at all: PEP 610's
    # direct_url.json still names the checkout
    proc_dir, dist = _container(tmp_path)
    server = _server(proc_dir)
    assert server["packages"]["sglang"]["path"] == str(
        proc_dir / "4242/root/sgl-workspace/sglang/python/sglang")


def test_a_legacy_egg_link_install_in_a_container_has_its_version(tmp_path):
    # setuptools < 64 `pip install -e`: no dist-info in site-packages, NAME.egg-link instead
    proc_dir, dist = _container(tmp_path)
    for child in (dist / "sglang-0.5.5.dist-info").iterdir():
        child.unlink()
    (dist / "sglang-0.5.5.dist-info").rmdir()
    (dist / "sglang.egg-link").write_text("/sgl-workspace/sglang/python\n.")
    egg = proc_dir / "4242/root/sgl-workspace/sglang/python/sglang.egg-info"
    egg.mkdir()
    (egg / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: sglang\nVersion: 0.4.6.post4\n")
    server = _server(proc_dir)
    assert server["packages"]["sglang"] == {
        "version": "0.4.6.post4", "path": str(proc_dir / "4242/root/sgl-workspace/sglang/python/sglang")}

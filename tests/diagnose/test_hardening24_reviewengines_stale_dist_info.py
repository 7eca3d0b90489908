"""engine_info: of two dist-infos of one engine in one site-packages, the one the code carries
(review of round 24).

An upgrade whose uninstall of the old release did not finish (pip's "Can't uninstall ...",
a conda env with pip installing over it) leaves vllm-0.10.1.dist-info beside
vllm-0.11.0.dist-info. Both claim site-packages/vllm; importlib.metadata.version takes the
first in directory-listing order (filesystem hash order, not age), and round 24's
installed_version kept that choice, so the 0.10.1 conventions could be applied to 0.11.0 code.
The package's own version file (vllm/_version.py that setuptools_scm writes into the wheel,
sglang/version.py) says which one is current; with one dist-info, or no version file, nothing
changes."""

from __future__ import annotations

import importlib.metadata as metadata
from pathlib import Path

from spec_debug.probes import engine_info


def _site(tmp_path: Path, versions: list[str], own: str | None) -> Path:
    site = tmp_path / "site-packages"
    (site / "vllm").mkdir(parents=True)
    (site / "vllm" / "__init__.py").write_text("")
    if own:
        (site / "vllm" / "_version.py").write_text(f"__version__ = version = '{own}'\n")
    for version in versions:
        info = site / f"vllm-{version}.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: vllm\nVersion: {version}\n")
    return site


def _listed_in_order(monkeypatch, site: Path, versions: list[str]) -> None:
    """importlib.metadata as it lists these dist-infos, in this (directory-listing) order."""
    dists = [metadata.PathDistribution(site / f"vllm-{v}.dist-info") for v in versions]
    monkeypatch.setattr(metadata, "distributions", lambda **_: iter(dists))
    monkeypatch.setattr(metadata, "version", lambda _name: dists[0].version)


def test_the_stale_dist_info_listed_first_is_not_taken(tmp_path, monkeypatch):
    site = _site(tmp_path, ["0.10.1", "0.11.0"], own="0.11.0")
    _listed_in_order(monkeypatch, site, ["0.10.1", "0.11.0"])
    assert engine_info.installed_version("vllm", str(site / "vllm")) == "0.11.0"


def test_without_a_version_file_the_first_stays(tmp_path, monkeypatch):
    site = _site(tmp_path, ["0.10.1", "0.11.0"], own=None)
    _listed_in_order(monkeypatch, site, ["0.10.1", "0.11.0"])
    assert engine_info.installed_version("vllm", str(site / "vllm")) == "0.10.1"


def test_a_containers_site_packages_takes_the_current_one_too(tmp_path):
    root = tmp_path / "root"
    site = _site(root / "usr" / "lib" / "python3.12", ["0.10.1", "0.9.2"], own="0.9.2")
    # sorted by name, 0.10.1 comes before 0.9.2
    assert engine_info._dist_in_site(site, "vllm", root) == {"version": "0.9.2", "path": str(site / "vllm")}
    single = _site(tmp_path / "one", ["0.11.0"], own="0.12.0")  # one dist-info: its version, as before
    assert engine_info._dist_in_site(single, "vllm", tmp_path / "one")["version"] == "0.11.0"

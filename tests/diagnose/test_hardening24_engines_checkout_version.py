"""engine_info / forward_source: the version is that of the code that imports (round 24).

A server run from a source checkout (PYTHONPATH=/work/sglang/python, as engine_info reads
from its environment) next to an older pip-installed sglang imports the checkout, while
importlib.metadata.version('sglang') names the wheel's dist-info: the conventions of the wrong
release were applied (0.4.6 vs 0.5.13's +1 rule)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.probes import engine_info, forward_source


def _wheel(site: Path, name: str, version: str) -> None:
    (site / name).mkdir(parents=True)
    (site / name / "__init__.py").write_text("")
    info = site / f"{name}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")


def _checkout(root: Path, name: str, version_file: str, text: str) -> Path:
    package = root / name
    (package / "srt" / "models").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / version_file).write_text(text)
    return package


def test_a_checkout_ahead_of_a_pip_install_reports_its_own_version(tmp_path, monkeypatch):
    site, checkout = tmp_path / "site-packages", tmp_path / "sglang" / "python"
    _wheel(site, "sglang", "0.4.6.post4")
    package = _checkout(checkout, "sglang", "version.py", '__version__ = "0.5.13"\n')
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(checkout))
    assert engine_info.package_info("sglang") == {"version": "0.5.13", "path": str(package)}
    assert forward_source.package_dir("sglang") == (package, "0.5.13")


def test_a_vllm_checkout_reads_its_setuptools_scm_version(tmp_path, monkeypatch):
    site, checkout = tmp_path / "site-packages", tmp_path / "vllm"
    _wheel(site, "vllm", "0.10.0")
    _checkout(checkout, "vllm", "_version.py",
              "__version__ = version = '0.22.1'\n__version_tuple__ = version_tuple = (0, 22, 1)\n")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(checkout))
    assert engine_info.package_info("vllm")["version"] == "0.22.1"


def test_the_installed_and_editable_packages_keep_their_dist_info_version(tmp_path, monkeypatch):
    site, checkout = tmp_path / "site-packages", tmp_path / "work" / "python"
    _wheel(site, "vllm", "0.8.1")  # a package no test imports: find_spec reads sys.path
    (site / "vllm" / "_version.py").write_text("__version__ = version = '0.0.1'\n")  # not consulted
    package = _checkout(checkout, "sglang", "version.py", '__version__ = "0.0.0"\n')
    info = site / "sglang-0.5.5.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sglang\nVersion: 0.5.5\n")
    (info / "direct_url.json").write_text(json.dumps(
        {"dir_info": {"editable": True}, "url": f"file://{checkout}"}))
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(checkout))
    assert engine_info.package_info("vllm")["version"] == "0.8.1"
    assert engine_info.package_info("sglang") == {"version": "0.5.5", "path": str(package)}


def test_host_info_names_the_checkouts_version_too(tmp_path, monkeypatch):
    from spec_debug.probes import host_info

    site, checkout = tmp_path / "site-packages", tmp_path / "sglang" / "python"
    _wheel(site, "sglang", "0.4.6.post4")
    _checkout(checkout, "sglang", "version.py", '__version__ = "0.5.13"\n')
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.syspath_prepend(str(checkout))
    assert host_info.run({})["packages"]["sglang"] == "0.5.13"

"""The probe bundle is self-contained: every module in it imports on a host without spec-debug."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile

from spec_debug.probes.bundle import local_bundle
from spec_debug.probes.registry import all_probes

# Host-side third-party packages a probe may need (the host's own Python provides them).
HOST_PACKAGES = {"torch", "safetensors", "numpy"}


def test_every_bundled_module_imports_without_spec_debug_installed():
    bundle = local_bundle()
    with zipfile.ZipFile(bundle) as archive:
        modules = [
            name[:-3].replace("/", ".").removesuffix(".__init__")
            for name in archive.namelist()
            if name.endswith(".py") and name.startswith("spec_debug/") and not name.endswith("__main__.py")
        ]
    assert "spec_debug.probes.hostmain" in modules
    # -S: no site-packages, so spec_debug can only come from the bundle (and torch is absent).
    script = (
        "import importlib, json, sys\n"
        f"sys.path.insert(0, {str(bundle)!r})\n"
        "problems = {}\n"
        f"for name in {modules!r}:\n"
        "    try:\n"
        "        importlib.import_module(name)\n"
        "    except ModuleNotFoundError as exc:\n"
        "        problems[name] = exc.name\n"
        "print(json.dumps(problems))\n"
    )
    out = subprocess.run([sys.executable, "-S", "-c", script], capture_output=True, text=True, timeout=60)
    problems = json.loads(out.stdout)
    missing = {module: name for module, name in problems.items() if name.split(".")[0] not in HOST_PACKAGES}
    assert missing == {}, f"modules the bundle lacks: {missing}"


def test_every_registered_probe_module_is_in_the_bundle():
    with zipfile.ZipFile(local_bundle()) as archive:
        names = set(archive.namelist())
    for spec in all_probes().values():
        assert spec.module.replace(".", "/") + ".py" in names, spec.name


def test_host_info_probe_runs_from_the_bundle_alone():
    out = subprocess.run([sys.executable, "-S", str(local_bundle()), "spec_debug.probes.host_info", "{}"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    assert json.loads(out.stdout)["python"].count(".") == 2

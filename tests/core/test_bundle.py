"""The probe bundle is self-contained: every module in it imports on a host without spec-debug."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
import zipfile
from pathlib import Path


from spec_debug.probes.bundle import ensure_bundle, local_bundle
from spec_debug.probes.registry import all_probes
from spec_debug.runner.local import LocalTransport
from spec_debug.runner.transport import Transport

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


class _HostWithItsOwnHome(Transport):
    """A host reached through the local shell whose home is its own folder: two of them are two
    machines as far as the bundle upload can tell."""

    def __init__(self, home: Path) -> None:
        self.host, self.home, self._shell = home.name, home, LocalTransport()

    def run(self, command, *, stdout, stderr, timeout_s=None, env=None):
        return self._shell.run(f"cd {shlex.quote(str(self.home))} && {command}", stdout=stdout, stderr=stderr,
                               timeout_s=timeout_s, env=env)

    def put(self, local_path: Path, remote_path: str) -> None:
        self._shell.put(local_path, str(self.home / remote_path))

    def get(self, remote_path: str, local_path: Path) -> None:
        self._shell.get(str(self.home / remote_path), local_path)


def test_what_was_uploaded_is_forgotten_with_the_host_connection(tmp_path):
    """More hosts than --forks: a closed host's transport is freed, and a new host's transport
    may be given its address. An upload remembered past the transport (it was keyed by id())
    would then be taken for the new host's, which has no bundle."""
    import gc

    from spec_debug.probes import bundle

    # Hosts of other tests still connected. Their garbage goes first: a transport of an earlier
    # test freed by the collection below made the count drop under `before` for no fault here.
    gc.collect()
    before = len(bundle._uploaded)
    first = _HostWithItsOwnHome(tmp_path / "gpu01")
    first.home.mkdir()
    remote = ensure_bundle(first)
    assert (first.home / remote).is_file()
    assert ensure_bundle(first) == remote  # remembered while the connection lives
    del first
    gc.collect()
    # Not `== before`: another test's transport may be let go meanwhile (by a thread of its
    # own). Remembered by id(), first's entry stays: one more than before.
    assert len(bundle._uploaded) <= before
    second = _HostWithItsOwnHome(tmp_path / "gpu02")
    second.home.mkdir()
    assert (second.home / ensure_bundle(second)).is_file()

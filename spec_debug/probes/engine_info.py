"""engine_info (host side): which serving engine and reference library this Python has, and
the running server's own interpreter has.

Reads package metadata and locations only; nothing is imported (importing sglang or vllm
initialises CUDA and takes seconds to minutes). The probe's Python is often not the server's
(a venv such as ~/ml-env, a conda env, a second install): when a server process is running,
its interpreter is asked for the same metadata, so the version is the one that serves.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from spec_debug.probes.hostfiles import other_mount_namespace, read_environ, readlink
from spec_debug.probes.launch_flags import choose_server, server_processes

PACKAGES = ("sglang", "vllm", "speculators", "torch", "transformers", "safetensors")
_ASK_TIMEOUT_S = 30
# The variables that change what an interpreter imports (a server run from a source checkout
# has PYTHONPATH=.../sglang/python); taken from the server's environment when it is readable.
_IMPORT_ENV = ("PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONSAFEPATH")


def package_info(name: str) -> dict[str, Any] | None:
    try:
        spec = importlib.util.find_spec(name)  # a top-level name: finds, does not import
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        return None
    locations = list(spec.submodule_search_locations or [])
    path = locations[0] if locations else spec.origin
    return {"version": installed_version(name, path), "path": path}


def installed_version(name: str, path: str | None) -> str | None:
    """The version of the `name` that imports from `path`. importlib.metadata.version(name)
    is the first dist-info on sys.path, which is not that code when a checkout comes first
    (PYTHONPATH=.../sglang/python beside a pip-installed sglang): then the checkout's own
    version file says it, else the first dist-info as before."""
    try:
        from importlib.metadata import distributions, version

        dists = list(distributions(name=name))
        first = version(name)
    except Exception:
        dists, first = [], None
    if path is None:
        return first
    owners = [dist.version for dist in dists if _owns(dist, name, path)]
    if owners:
        return _current_of(owners, path)
    return _source_version(path) or first


def _current_of(versions: list[str], path: str) -> str:
    """Of several dist-infos that all claim the package (a stale one left beside the current
    by an upgrade pip could not finish uninstalling, or conda and pip installing over each
    other), the one whose version the code itself carries; else the first, as
    importlib.metadata.version would take it (in directory-listing order, not by age)."""
    if len(versions) > 1 and os.path.isdir(path):  # a package's own folder, not site-packages'
        own = _source_version(path)
        if own in versions:
            return own
    return versions[0]


def _owns(dist: Any, name: str, path: str) -> bool:
    """The dist installed the package at `path`: in its site-packages, or an editable install
    of a checkout holding it (PEP 610 direct_url.json)."""
    real = os.path.realpath(path)
    try:
        if os.path.realpath(str(dist.locate_file(name))) == real:
            return True
        url = json.loads(dist.read_text("direct_url.json") or "{}").get("url", "")
    except (OSError, ValueError, AttributeError):
        return False
    if isinstance(url, str) and url.startswith("file://"):
        return real.startswith(os.path.realpath(unquote(url[len("file://"):])) + os.sep)
    return False


# sglang python/sglang/version.py `__version__ = "0.5.5"`; vllm vllm/_version.py (setuptools_scm,
# written at build time) `__version__ = version = '0.11.0'`; speculators version.py
# `version = "0.9.0"`
_VERSION_LINE = re.compile(r"""^(?:__version__|version)\s*(?::\s*str\s*)?=\s*(?:version\s*=\s*)?['"]([^'"]+)['"]""",
                           re.M)


def _source_version(path: str) -> str | None:
    folder = path if os.path.isdir(path) else os.path.dirname(path)
    for file in ("_version.py", "version.py"):
        try:
            with open(os.path.join(folder, file), encoding="utf-8", errors="replace") as handle:
                found = _VERSION_LINE.search(handle.read(20_000))
        except OSError:
            continue
        if found:
            return found.group(1)
    return None


def python_executable() -> str | None:
    """The probe's interpreter: sys.executable, or where that is "" (a bare `python3` started
    with no PATH, as `ForceCommand env -i sh -c "$SSH_ORIGINAL_COMMAND"` starts it: CPython's
    getpath looks a bare argv[0] up in PATH only) the binary the kernel ran, /proc/self/exe;
    None where neither tells."""
    return sys.executable or readlink(Path("/proc/self/exe"))


def local_packages() -> dict[str, Any]:
    return {name: package_info(name) for name in PACKAGES}


def run(args: dict) -> dict:
    result: dict[str, Any] = {
        "args": args,
        "python": sys.version.split()[0],
        "python_executable": python_executable(),
        "packages": local_packages(),
    }
    processes = server_processes()
    if processes:
        result["server"] = server_packages(choose_server(processes))
    return result


def server_packages(process: dict[str, Any], proc: Path = Path("/proc")) -> dict[str, Any]:
    """The packages the server process's interpreter sees, or a note saying why not."""
    pid = process["pid"]
    python, how, environ = server_interpreter(process, proc)
    found: dict[str, Any] = {"pid": pid, "python": python, "python_source": how, "packages": None,
                             "note": None}
    if other_mount_namespace(pid, proc):
        # A containerised server: its paths name files in its own filesystem, and the same path
        # here (often /usr/bin/python3 too) is another interpreter with other packages. Its
        # site-packages are read through /proc/PID/root instead, nothing is run.
        found["packages"] = packages_in_container(pid, proc)
        if found["packages"] is None:
            found["note"] = (f"the server (pid {pid}) runs in another mount namespace (a container) whose "
                             "files this user cannot read: run spec-debug inside the container, or pass "
                             "--var engine_version")
        else:
            found["note"] = f"read from the container's site-packages through /proc/{pid}/root"
        return found
    if python is None:
        found["note"] = how
        return found
    if _same_file(python, sys.executable) and _import_env(environ) == _import_env(dict(os.environ)):
        found["packages"] = local_packages()
        found["note"] = "the probe runs in the server's own interpreter"
        return found
    if not os.access(python, os.X_OK):
        found["note"] = (f"the server's interpreter {python} is not visible from the probe (the server "
                         "may run in a container: run spec-debug inside it, or pass --var engine_version)")
        return found
    found["packages"], found["note"] = _ask(python, environ)
    if found["packages"] is None:
        # The ask runs a second interpreter, which a host busy serving (or a slow shared
        # filesystem) can keep past its timeout: the dist-info of the site-packages the server
        # has mapped say the same versions without running anything (was: no version, and the
        # step fell back to the probe's own Python or --var engine_version).
        mapped = packages_in_container(pid, proc)
        if mapped is not None and any(mapped.get(name) for name in ("sglang", "vllm")):
            found["packages"] = mapped
            found["note"] = (f"{found['note']}; read instead from the site-packages the server has "
                             f"mapped (/proc/{pid}/maps)")
            return found
    if how.startswith("/proc/PID/exe") and found["packages"] is not None:
        found["note"] = "; ".join(filter(None, [found["note"], f"asked {how}"]))
    return found


def packages_in_container(pid: int, proc: Path = Path("/proc")) -> dict[str, Any] | None:
    """PACKAGES' versions from the dist-info METADATA in the site-packages directories the
    server process has files mapped from (/proc/PID/maps: torch's and the engine's native
    libraries), read through /proc/PID/root. None when the maps are not readable."""
    base = proc / str(pid)
    try:
        maps = (base / "maps").read_text(errors="replace")
    except OSError:
        return None
    sites = []
    for line in maps.splitlines():
        path = line.split(None, 5)[5] if len(line.split(None, 5)) == 6 else ""
        m = re.match(r"(/.*?/(?:site|dist)-packages)/", path)
        if m and m.group(1) not in sites:
            sites.append(m.group(1))
    found: dict[str, Any] = dict.fromkeys(PACKAGES)
    root = base / "root"
    for site in sites:
        here = Path(str(root) + site)
        for name in PACKAGES:
            if found[name] is None:
                found[name] = _dist_in_site(here, name, root)
    return found


def _dist_in_site(here: Path, name: str, root: Path) -> dict[str, Any] | None:
    """{version, path} of `name` installed in the site-packages `here` (a container's, seen
    through its /proc/PID/root `root`), the path as the probe can open it (forward_source reads
    the engine there). An editable install keeps only its dist-info there: its source is found
    as the interpreter finds it (_editable_source)."""
    found: list[tuple[str, Path]] = []
    for meta in sorted(here.glob(f"{name}-*.dist-info/METADATA")):
        version = re.search(r"^Version:\s*(\S+)", meta.read_text(errors="replace"), re.M)
        if version:
            found.append((version.group(1), meta.parent))
    if not found:
        return _egg_link(here, name, root)
    version = _current_of([v for v, _ in found], str(here / name))
    dist_info = next(folder for v, folder in found if v == version)
    path = here / name
    if not path.is_dir():
        path = _editable_source(here, name, dist_info, root) or path
    return {"version": version, "path": str(path)}


def _in_root(root: Path, path: str) -> Path:
    """A path the container names, as the probe opens it through /proc/PID/root."""
    return Path(str(root) + "/" + path.lstrip("/"))


def _editable_source(here: Path, name: str, dist_info: Path, root: Path) -> Path | None:
    """The package directory of a PEP 660 editable install (`pip install -e python[all]` in
    the lmsysorg/sglang image: sgl-project/sglang docker/Dockerfile; vLLM's
    `VLLM_USE_PRECOMPILED=1 pip install -e .`). setuptools writes either an import hook,
    __editable___NAME_VER_finder.py with MAPPING = {'NAME': '/src/NAME'}, or a plain
    __editable__.NAME-VER.pth that lists the source root; direct_url.json
    ({"url": "file:///src", "dir_info": {"editable": true}}, PEP 610) names the root too."""
    candidates: list[str] = []
    for finder in sorted(here.glob(f"__editable___{name}_*finder.py")):
        mapping = re.search(rf"""['"]{name}['"]\s*:\s*['"]([^'"]+)['"]""",
                            finder.read_text(errors="replace"))
        if mapping:
            candidates.append(mapping.group(1))
    roots = []
    for pth in sorted(here.glob(f"__editable__.{name}-*.pth")):
        roots += [line.strip() for line in pth.read_text(errors="replace").splitlines()
                  if line.startswith("/")]
    try:
        url = json.loads((dist_info / "direct_url.json").read_text()).get("url", "")
    except (OSError, ValueError, AttributeError):
        url = ""
    if isinstance(url, str) and url.startswith("file://"):
        roots.append(unquote(url[len("file://"):]))
    candidates += [os.path.join(r, sub, name) for r in roots for sub in ("", "src", "python")]
    for candidate in candidates:
        if _in_root(root, candidate).is_dir():
            return _in_root(root, candidate)
    return None


def _egg_link(here: Path, name: str, root: Path) -> dict[str, Any] | None:
    """A legacy develop install (setuptools < 64 `pip install -e`): NAME.egg-link names the
    source root, whose NAME.egg-info/PKG-INFO has the version."""
    try:
        source = (here / f"{name}.egg-link").read_text(errors="replace").splitlines()[0].strip()
    except (OSError, IndexError):
        return None
    path = _in_root(root, source)
    version = None
    for info in sorted(path.glob("*.egg-info/PKG-INFO")):
        found = re.search(r"^Version:\s*(\S+)", info.read_text(errors="replace"), re.M)
        if found:
            version = found.group(1)
            break
    return {"version": version, "path": str(path / name)}


def server_interpreter(process: dict[str, Any], proc: Path = Path("/proc")
                       ) -> tuple[str | None, str, dict[str, str] | None]:
    """(interpreter path, how it was found, the process environment or None if unreadable).

    argv[0] first: a venv's bin/python is a symlink to the base interpreter, and only the path
    as invoked finds the venv's site-packages (Python looks for pyvenv.cfg next to it), while
    /proc/PID/exe is the resolved base binary. A console script (`vllm serve`) is run by the
    kernel as `INTERPRETER SCRIPT ...` from its shebang, so argv[0] is the interpreter there too.
    """
    pid, argv = process["pid"], process.get("argv") or []
    environ = read_environ(pid, proc)
    argv0 = argv[0] if argv else ""
    if re.fullmatch(r"python[\d.]*[mtd]?", os.path.basename(argv0)):
        if os.path.isabs(argv0):
            return argv0, "argv[0]", environ
        if "/" in argv0:  # relative to the server's working directory
            cwd = readlink(proc / str(pid) / "cwd")
            if cwd:
                return os.path.normpath(os.path.join(cwd, argv0)), "argv[0] from the server's cwd", environ
        elif environ is not None:
            for folder in environ.get("PATH", "").split(os.pathsep):
                candidate = os.path.join(folder, argv0)
                if folder and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                    return candidate, f"argv[0] {argv0!r} on the server's PATH", environ
    exe = readlink(proc / str(pid) / "exe")
    if exe:
        return exe, "/proc/PID/exe (the resolved binary: a venv's packages may be missed)", environ
    return None, (f"cannot tell which interpreter runs the server (pid {pid}): its argv[0] is "
                  f"{argv0!r} and /proc/{pid}/exe is not readable by this user (run the probe as "
                  "the server's user, or pass --var engine_version)"), environ


def _ask(python: str, environ: dict[str, str] | None) -> tuple[dict[str, Any] | None, str | None]:
    """Run this module's `local_packages` in the server's interpreter (stdlib only, no engine
    import). The bundle (or source tree) is appended to its sys.path, so the server's own
    packages come first."""
    root = str(Path(__file__).resolve().parents[2])  # the bundle .pyz, or the source tree
    code = ("import json, sys; sys.path.append(sys.argv[1]); "
            "from spec_debug.probes.engine_info import local_packages; print(json.dumps(local_packages()))")
    env = dict(os.environ)
    if environ is not None:
        for key in _IMPORT_ENV:
            env.pop(key, None)
            if key in environ:
                env[key] = environ[key]
    try:
        done = subprocess.run([python, "-c", code, root], capture_output=True, text=True,
                              timeout=_ASK_TIMEOUT_S, env=env)
    except subprocess.TimeoutExpired:
        return None, f"the server's interpreter {python} did not list its packages within {_ASK_TIMEOUT_S} s"
    except OSError as exc:
        return None, f"the server's interpreter {python} could not be run: {exc}"
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return None, f"the server's interpreter {python} failed to list its packages: {tail}"
    try:
        packages = json.loads(done.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        return None, f"the server's interpreter {python} printed no package list"
    note = None if environ is not None else (
        f"/proc/PID/environ is not readable: {python} was asked without the server's PYTHONPATH")
    return packages, note


def _same_file(a: str, b: str) -> bool:
    """Same path as invoked (a venv's python and its base binary are not the same interpreter)."""
    return os.path.abspath(a) == os.path.abspath(b)


def _import_env(environ: dict[str, str] | None) -> tuple[str | None, ...]:
    return tuple((environ or {}).get(key) for key in _IMPORT_ENV)

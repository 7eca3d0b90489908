"""A uid with no password-database entry and no $USER/$LOGNAME (a random-uid container, as
OpenShift starts them): ssh(1) stops with "No user exists for uid N" (openssh-portable: ssh.c,
main). spec-debug failed each host as "internal error: KeyError: 'getpwuid(): uid not found'",
even where the login name was given (`User bob` in the config, bob@host) and nothing needed
ours. Now: one line naming how to fix it, only where the name is needed; --host local runs.

The CLI runs for real as such a uid (setpriv(1) from root), from a copy of the package and of
the modules it imports that the uid can read; the test is skipped where that cannot be set up.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Callable, Iterator

import pytest

REPO = Path(__file__).resolve().parents[2]
NO_SUCH_UID = 12345
SETPRIV = shutil.which("setpriv")

pytestmark = pytest.mark.skipif(
    SETPRIV is None or os.getuid() != 0,
    reason="needs root and setpriv(1) to run as a uid with no password-database entry",
)

def _distributions(name: str, seen: set[str]) -> None:
    """`name` and what it requires (extras left out), as installed here."""
    from importlib.metadata import PackageNotFoundError, distribution

    key = re.sub(r"[-_.]+", "-", name).lower()
    if key in seen:
        return
    try:
        requires = distribution(name).requires or []
    except PackageNotFoundError:
        return
    seen.add(key)
    for requirement in requires:
        if "extra ==" not in requirement:
            _distributions(re.match(r"[A-Za-z0-9_.-]+", requirement).group(0), seen)


def _readable_copy(root: Path) -> tuple[str, Path]:
    """(a python the uid can run, a PYTHONPATH folder holding spec_debug and what it requires)."""
    import pwd
    from importlib.metadata import distribution

    try:
        pwd.getpwuid(NO_SUCH_UID)
        pytest.skip(f"uid {NO_SUCH_UID} has an entry here")
    except KeyError:
        pass
    site = root / "site"
    site.mkdir()
    names: set[str] = set()
    _distributions("spec-debug", names)
    names.discard("spec-debug")
    for name in names:
        dist = distribution(name)
        for file in dist.files or []:
            source = Path(dist.locate_file(file))
            if file.parts[0] in ("..", "__pycache__") or "__pycache__" in file.parts or not source.is_file():
                continue
            (site / file).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, site / file)
    shutil.copytree(REPO / "spec_debug", site / "spec_debug", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run(["chmod", "-R", "a+rX", str(root)], check=True)
    for python in (sys.executable, "/usr/bin/python3"):
        probe = _as_no_user([python, "-c", "import spec_debug.cli, paramiko"], root, site)
        if probe.returncode == 0:
            return python, site
    pytest.skip("no python that a uid without an entry can run with these modules")


def _as_no_user(argv: list[str], root: Path, site: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [SETPRIV, "--reuid", str(NO_SUCH_UID), "--regid", str(NO_SUCH_UID), "--clear-groups", *argv],
        capture_output=True, text=True, timeout=120, cwd=root, stdin=subprocess.DEVNULL,
        env={"PATH": "/usr/bin:/bin", "HOME": str(root / "home"), "PYTHONPATH": str(site),
             "PYTHONDONTWRITEBYTECODE": "1", "COLUMNS": "200", **env},
    )


@pytest.fixture(scope="module")
def no_user() -> Iterator[Callable[..., subprocess.CompletedProcess[str]]]:
    # Not under pytest's own tmp folder: /tmp/pytest-of-root is 0700, closed to the other uid.
    root = Path(tempfile.mkdtemp(prefix="spec-debug-no-user-"))
    os.chmod(root, 0o777)
    python, site = _readable_copy(root)
    home = root / "home"
    (home / ".ssh").mkdir(parents=True)
    (root / "pb.yaml").write_text("name: t\nsteps:\n  - id: hello\n    run: echo hi\n")
    subprocess.run(["chmod", "-R", "a+rwX", str(root)], check=True)

    def run(*args: str, config: str = "", **env: str) -> subprocess.CompletedProcess[str]:
        (home / ".ssh" / "config").write_text(config)
        return _as_no_user([python, "-m", "spec_debug", "run", "pb.yaml", "-o", "out", *args], root, site, **env)

    yield run
    shutil.rmtree(root, ignore_errors=True)


def test_ssh_host_without_a_login_name_says_how_to_give_one(no_user, closed_port) -> None:
    done = no_user("--host", f"127.0.0.1:{closed_port()}")
    assert done.returncode == 3, done.stdout + done.stderr
    out = done.stdout + done.stderr
    assert "internal error" not in out
    assert f"No user exists for uid {NO_SUCH_UID}" in out
    assert "set USER" in out and "user@host" in out and "User in ~/.ssh/config" in out


def test_a_login_name_given_is_enough(no_user, closed_port) -> None:
    port = closed_port()
    for args, config in ((["--host", f"bob@127.0.0.1:{port}"], ""),
                         (["--host", "gpu01"], f"Host gpu01\n  HostName 127.0.0.1\n  Port {port}\n  User bob\n")):
        done = no_user(*args, config=config)
        out = done.stdout + done.stderr
        assert "internal error" not in out and "No user exists" not in out, out
        assert "refused" in out, out  # it went as far as the connection


def test_user_in_the_environment_serves(no_user, closed_port) -> None:
    done = no_user("--host", f"127.0.0.1:{closed_port()}", USER="alice")
    out = done.stdout + done.stderr
    assert "No user exists" not in out and "internal error" not in out and "refused" in out, out


def test_local_host_runs(no_user) -> None:
    done = no_user("--host", "local")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passed hello" in done.stdout + done.stderr

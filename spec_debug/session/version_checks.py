"""Version checks that decided a change of version: `pip show sglang` (0.4.1), then `pip install -U
sglang==0.4.6`. Whether an engine serves EAGLE-3 at all is a version boundary (a release whose
--speculative-algorithm choices lack EAGLE3 stops at argparse's "invalid choice: 'EAGLE3'"), so the
check is the diagnosis; an upgrade is no error and no change of approach, and distill, which keeps
the commands that led to a finding or a pivot, dropped the check and said "nothing to distill".

A check is a read: pip's ``show``, ``list`` and ``freeze`` (pip docs, "pip show": "Show information
about one or more installed packages"), conda's ``list``, or Python printing ``NAME.__version__``
(PEP 396's attribute, which sglang, vllm and torch set); it decided when the same agent later
installed a package it names on the same host (pip, uv pip, conda: ``install``).

The toolchain's own version is such a look too: ``python3 --version`` (``-V``, ``-VV``: "Print the
Python version number and exit", python(1)) and CUDA's compiler, ``nvcc --version`` (``-V``: CUDA
Compiler Driver NVCC docs, "--version (-V): Print version information on this tool"), named
``python`` and ``nvcc``. After a failed launch the turn to them was "running python" or no change
of approach at all, where `pip show torch` was "checking installed versions".
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable

from spec_debug.session.records import CommandRecord
from spec_debug.session.shell_words import simple_commands

_PRINTED_VERSION = re.compile(r"\b([A-Za-z_]\w*)\.__version__")
_IMPORTED = re.compile(r"\bimport\s+([A-Za-z_][\w.]*(?:\s+as\s+\w+)?(?:\s*,\s*[A-Za-z_][\w.]*(?:\s+as\s+\w+)?)*)")
_CONDA_VALUED = frozenset({"-n", "--name", "-p", "--prefix"})
_PACKAGE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_PIPS = frozenset({"pip", "pip3"})
_READS = frozenset({"show", "list", "freeze"})
_GREPS = frozenset({"grep", "egrep", "rg"})
_GREP_VALUED = frozenset({"-e", "-f", "-m", "-A", "-B", "-C", "--regexp", "--max-count"})


def _name(word: str) -> str | None:
    """A package's normalised name (PEP 503: lower case, runs of ``-_.`` as ``-``) of a
    requirement (``sglang[all]==0.4.6``, ``'vllm>=0.8'``), None for a path or URL."""
    word = word.strip("'\"")
    if "/" in word or ":" in word:
        return None
    m = _PACKAGE.match(word)
    return normalized_name(m.group(0)) if m else None


_SEPARATORS = re.compile(r"[-_.]+")


def normalized_name(name: str) -> str:
    """PEP 503's form of a distribution's name (``Flash_Attn``: ``flash-attn``)."""
    return _SEPARATORS.sub("-", name.lower())


def _verb_args(argv: list[str]) -> tuple[str, list[str]] | None:
    """(verb, its arguments) of a pip, ``python -m pip``, ``uv pip`` or conda/mamba command."""
    name = argv[0].rsplit("/", 1)[-1]
    rest = argv[1:]
    if name.startswith("python") and rest[:2] == ["-m", "pip"]:
        rest = rest[2:]
    elif name == "uv" and rest[:1] == ["pip"]:
        rest = rest[1:]
    elif name not in _PIPS and name not in ("conda", "mamba", "micromamba"):
        return None
    words = [w for w in rest if not w.startswith("-")]
    if not words:
        return None
    return words[0], [w for w in rest[rest.index(words[0]) + 1:]]


_VERSION_FLAGS = frozenset({"--version", "-V", "-VV"})
_PYTHON_PROGRAM = re.compile(r"python(?:\d+(?:\.\d+)?)?")


def may_print_toolchain_version(command: str) -> bool:
    """The cheap test before :func:`checked_packages` looks for a toolchain's version flag."""
    return "--version" in command or "-V" in command


def _toolchain_checked(command: str) -> set[str]:
    """``python`` for a Python interpreter run with its version flag alone (``python3 -V``,
    ``~/venv/bin/python --version``), ``nvcc`` for CUDA's compiler with its own (``nvcc -V``)."""
    out = set()
    for argv in simple_commands(command):
        if isinstance(argv, str) or len(argv) != 2 or argv[1] not in _VERSION_FLAGS:
            continue
        name = argv[0].rsplit("/", 1)[-1]
        if name == "nvcc":
            out.add("nvcc")
        elif _PYTHON_PROGRAM.fullmatch(name):
            out.add("python")
    return out


def printed_modules(command: str) -> list[str]:
    """The packages whose ``NAME.__version__`` ``command`` prints, in the order it names them:
    `import sglang, torch; print(sglang.__version__)`, a printed module the command imports (was
    only the first name of an `import`, so `import torch, sglang` checked nothing; `import sglang
    as sgl`: sgl.__version__ is sglang's)."""
    imported = {}
    for m in _IMPORTED.finditer(command):
        for part in m.group(1).split(","):
            words = part.split()
            imported[words[-1] if len(words) == 3 else words[0].split(".", 1)[0]] = words[0].split(".", 1)[0]
    names = (_name(imported[m.group(1)]) for m in _PRINTED_VERSION.finditer(command) if m.group(1) in imported)
    return list(dict.fromkeys(n for n in names if n))


def checked_packages(command: str) -> set[str]:
    """The packages whose installed version ``command`` prints (none for any other command), and
    the toolchain's (``python``, ``nvcc``: :func:`_toolchain_checked`)."""
    out: set[str] = set()
    if may_print_toolchain_version(command):
        out.update(_toolchain_checked(command))
    if "__version__" in command:
        out.update(printed_modules(command))
    if "pip" not in command and "conda" not in command and "mamba" not in command:
        return out
    listed = False
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        verb = _verb_args(argv)
        if verb is not None and verb[0] in _READS:
            listed = True
            if verb[0] == "show":
                out.update(n for n in (_name(w) for w in verb[1] if not w.startswith("-")) if n)
            elif verb[0] == "list" and argv[0].rsplit("/", 1)[-1] in ("conda", "mamba", "micromamba"):
                out.update(_conda_listed(verb[1]))  # `conda list sglang`: conda's [regex] operand
        elif listed and argv[0] in _GREPS:  # `pip list | grep -i -E 'sglang|vllm'`
            out.update(_grepped(argv[1:]))
    return out


def _conda_listed(args: list[str]) -> set[str]:
    """The packages ``conda list``'s operand names (conda docs, "conda list": ``conda list
    [regex]``, the packages whose names match), less an environment's name or prefix."""
    out: set[str] = set()
    skip = False
    for w in args:
        if skip:
            skip = False
        elif w in _CONDA_VALUED:
            skip = True
        elif not w.startswith("-"):
            out.update(n for n in (_name(part) for part in re.split(r"\||\s", w.strip("'\"^$"))) if n)
    return out


def _grepped(args: list[str]) -> set[str]:
    """The package names of a grep's pattern (``-i -E 'sglang|vllm'``, ``-e torch``)."""
    pattern, after = None, None
    for w in args:
        if after is not None:
            if after in ("-e", "--regexp"):
                pattern = w
                break
            after = None
        elif w in _GREP_VALUED:
            after = w
        elif not w.startswith("-"):
            pattern = w
            break
    if pattern is None:
        return set()
    return {n for n in (_name(part) for part in re.split(r"\\?\||\s", pattern.strip("'\"^"))) if n}


def installed_packages(command: str, folder: str | None = None) -> set[str]:
    """The packages ``command`` installs (pip, uv pip, conda ``install``), by normalised name. A
    project installed from its folder or its repository (``pip install -e "python[all]"`` in an
    SGLang checkout, ``pip install -e .`` after ``cd vllm``, ``git+https://.../sglang.git``) by
    the project's folder or repository name (:func:`_project_name`), where the command or
    ``folder`` names it: the folder the command ran in (:attr:`CommandRecord.cwd`; an earlier
    command's ``cd vllm`` in a shell that kept it, a prompt's ``~/vllm``)."""
    if "install" not in command:
        return set()
    out: set[str] = set()
    folder = folder or ""
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        if argv[0] == "cd" and len(argv) > 1:
            folder = _joined(folder, argv[-1])
            continue
        verb = _verb_args(argv)
        if verb is None or verb[0] != "install":
            continue
        skip = editable = False
        for w in verb[1]:
            if skip:
                skip = False
            elif editable or w.startswith("--editable="):
                # pip: -e takes "a path to a local project or a VCS URL" ("python[all]" is the
                # folder python/, not the PyPI package "python")
                editable = False
                if n := _project_name(w.removeprefix("--editable="), folder):
                    out.add(n)
            elif w in ("-e", "--editable"):
                editable = True
            elif w in ("-r", "-c", "--requirement", "--constraint", "-i", "--index-url", "--extra-index-url",
                       "-f", "--find-links", "--target", "-t", "--prefix", "-n", "--name", "-p", "--python"):
                skip = True
            elif w.startswith("-"):
                continue
            elif w.strip("'\"").startswith((".", "/", "~")) or "://" in w or w.startswith("git+"):
                if n := _project_name(w, folder):
                    out.add(n)
            elif n := _name(w):
                out.add(n)
    return out


# A repository's folder that holds its Python package, not the project: SGLang's python/
# (`pip install -e "python[all]"`, sgl-project/sglang's install docs), a src/ layout.
_PACKAGE_FOLDERS = frozenset({"python", "src", "."})


def _joined(folder: str, path: str) -> str:
    """``path`` (a ``cd`` target) taken from ``folder``."""
    path = path.strip("'\"")
    return path if path.startswith(("/", "~")) or not folder else f"{folder}/{path}"


def _project_name(word: str, folder: str) -> str | None:
    """The normalised name of the project a path or VCS URL installs: its repository's name
    (``git+https://github.com/sgl-project/sglang.git#subdirectory=python``: sglang; an
    ``#egg=NAME``), or the last folder of the path, taken from ``folder`` (the command's ``cd``),
    that is no package folder (``/opt/sglang/python``: sglang). None where the command names none
    (``pip install -e .`` with no ``cd`` before it)."""
    word = word.strip("'\"")
    if "#egg=" in word:
        return _name(word.split("#egg=", 1)[1])
    if "://" in word or word.startswith("git+"):
        path = word.split("#", 1)[0].split("://", 1)[-1].rstrip("/")
        last = path.rsplit("/", 1)[-1].split("@", 1)[0].removesuffix(".git")
        return _name(last) if "/" in path else None
    path = posixpath.normpath(_joined(folder, word.split("[", 1)[0]))  # `cd vllm/build && pip install -e ..`
    for part in reversed(path.split("/")):
        if part.endswith((".whl", ".tar.gz", ".zip")):  # a distribution file: NAME-VERSION[-TAGS].whl
            return _name(part.split("-", 1)[0])
        if part and part not in _PACKAGE_FOLDERS and part != "~":
            return _name(part) if part != ".." else None
    return None


_PIN = re.compile(r"([A-Za-z0-9][A-Za-z0-9._-]*)(?:\[[^\]]*\])?==([\w.+!-]+)")


def pinned_versions(command: str) -> dict[str, str]:
    """The exact version each package ``command`` installs is pinned to (``pip install
    "sglang[all]==0.4.1"``: {"sglang": "0.4.1"}), by normalised name; pip's ``==`` version
    specifier (PEP 440, "Version matching"). Other specifiers (``>=``) pin nothing."""
    if "==" not in command or "install" not in command:
        return {}
    out: dict[str, str] = {}
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        verb = _verb_args(argv)
        if verb is None or verb[0] != "install":
            continue
        for w in verb[1]:
            if (m := _PIN.fullmatch(w.strip("'\""))) and (n := _name(m.group(1))):
                out[n] = m.group(2)
    return out


def deciding_checks(commands: Iterable[CommandRecord]) -> dict[tuple[str, int], CommandRecord]:
    """The first install each version check was followed by, of a package it names, by the same
    agent on the same host; by the check's (session, seq)."""
    checks: list[tuple[CommandRecord, set[str]]] = []
    out: dict[tuple[str, int], CommandRecord] = {}
    for c in commands:
        text = c.inner or c.command
        if "install" in text and checks:
            names = installed_packages(text, c.cwd)
            for check, checked in checks:
                if check.session == c.session and check.agent == c.agent and check.host == c.host \
                        and check.seq < c.seq and checked & names:
                    out.setdefault((check.session, check.seq), c)
        if "__version__" in text or "pip" in text or "conda" in text or "mamba" in text \
                or may_print_toolchain_version(text):
            checked = checked_packages(text)
            if checked:
                checks.append((c, checked))
    return out

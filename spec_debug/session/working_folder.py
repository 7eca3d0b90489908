"""Whether a command reads the folder it runs in: ``python tests/check.py``, ``tail -n 20
logs/sglang.log``, ``cat config.json``, ``./run.sh``, ``grep -r accept .``, ``git log``. Run as a
playbook step, such a command starts in the remote user's home (ssh) or wherever spec-debug
runs, not where the session ran it; distill puts the session's folder before it.

A relative path is told from other words by its shape: ``./`` or ``../`` before it, a folder's
``/`` after it, a glob, a hidden folder first (``.venv/bin/activate``), three parts or more
(``python/sglang/srt``), or a file name with an extension files have (``.py``, ``.log``,
``.json``...). A Hugging Face model id (``meta-llama/Llama-3.1-8B-Instruct``), an image
(``lmsys/sglang:latest``), a module (``-m sglang.bench_serving``) and a host name are no path.
"""

from __future__ import annotations

import re

from spec_debug.session.shell_words import simple_commands

_EXTENSIONS = frozenset({
    "py", "sh", "bash", "log", "txt", "out", "err", "json", "jsonl", "yaml", "yml", "toml", "cfg", "ini", "conf",
    "csv", "tsv", "md", "ipynb", "safetensors", "bin", "pt", "pth", "ckpt", "npy", "npz", "pkl", "parquet", "env",
    "diff", "patch", "gz", "tgz", "zst", "xz", "zip", "tar", "cu", "cpp", "cc", "c", "h", "rs", "go", "js", "ts",
})
_NAME = re.compile(r"[\w.@+-]+")  # .venv, .cache: hidden folders too
_PATTERN_FIRST = frozenset({"grep", "egrep", "fgrep", "rg", "sed", "awk", "gawk", "jq"})
"""Programs whose first word that is no option is a pattern or a script, not a file."""
_TAKES_CODE = frozenset({"-c", "-m", "-e", "--expression", "--regexp"})
"""Options whose value is code, a module or a pattern (``python -c``, ``python -m``, ``grep -e``)."""
_READS_FOLDER = frozenset({"git", "make", "pytest"})
"""Programs that work on the folder they run in when no path is given (a repository, a
Makefile, the tests found from there)."""
_CHANGE_FOLDER = frozenset({"cd", "pushd"})


def reads_working_folder(command: str) -> bool:
    """Whether ``command`` names a path relative to the folder it starts in, before any ``cd``
    to an absolute folder (``cd /root/work && python tests/check.py`` does not)."""
    for argv in simple_commands(command):
        if isinstance(argv, str):
            continue
        program = argv[0]
        if program in _CHANGE_FOLDER:
            folder = next((w for w in argv[1:] if not w.startswith("-")), "")
            if folder[:1] in ("", "/", "~", "$"):
                return False  # home, or a folder of its own: the rest runs there
            return True
        if "/" in program and not program.startswith(("/", "~", "$")):
            return True  # ./run.sh, .venv/bin/python
        name = program.rsplit("/", 1)[-1]
        if name in _READS_FOLDER and not _names_folder(argv):
            return True
        if name.startswith("python") and argv[1:3] == ["-m", "pytest"] and not _names_folder(argv[2:]):
            return True
        if any(_relative_path(w) for w in _arguments(name, argv[1:])):
            return True
    return False


def _arguments(program: str, words: list[str]) -> list[str]:
    """The words that may name files: not option values that are code or patterns, not the
    pattern of grep or sed; ``--config=x.yaml`` as its value."""
    out, skip, pattern = [], False, program in _PATTERN_FIRST
    for word in words:
        if skip:
            skip = False
            continue
        if word in _TAKES_CODE:
            skip = True
            pattern = False  # grep -e PATTERN: the words after it are files
            continue
        if word.startswith("-"):
            _, eq, value = word.partition("=")
            if eq:
                out.append(value)
            continue
        if pattern:
            pattern = False
            continue
        out.append(word)
    return out


def _names_folder(argv: list[str]) -> bool:
    """``git -C /srv/repo log``, ``make -C /srv/x``, ``pytest /srv/tests``: a folder given as absolute."""
    words = argv[1:]
    for k, word in enumerate(words):
        if word in ("-C", "--directory", "-f", "--file") and k + 1 < len(words):
            return words[k + 1].startswith(("/", "~", "$"))
        if word.startswith(("/", "~", "$")):
            return True
    return False


def _relative_path(word: str) -> bool:
    word = word.split("::", 1)[0]  # pytest's tests/test_x.py::test_name
    if not word or word.startswith(("/", "~", "$")) or ":" in word:
        return False  # absolute, home, a variable; a URL, host:port, an image tag, scp's host:path
    if word in (".", "..") or word.startswith(("./", "../")):
        return True
    parts = word.rstrip("/").split("/")
    if not all(_NAME.fullmatch(p) or _glob(p) for p in parts):
        return False  # code, JSON, a pattern: no file name
    last = parts[-1]
    if _glob(last):
        return True  # logs/*.log, *.json
    if word.endswith("/"):
        return True  # logs/, tests/
    if len(parts) > 1 and (parts[0].startswith(".") or (len(parts) > 2 and "." not in parts[0])):
        return True  # .venv/bin/activate, python/sglang/srt: no model id (org/name) or registry image
    stem, dot, ext = last.rpartition(".")
    return bool(dot and stem and ext.lower() in _EXTENSIONS)


def _glob(part: str) -> bool:
    return "*" in part and re.fullmatch(r"[\w.*?\[\]@+-]+", part) is not None

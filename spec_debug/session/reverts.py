"""Which later command undid a change the session made: a change tried, measured worse (or
better but wrong) and rolled back is no fix, and the postmortem must not tell it as one.

A change is a command of kind edit or launch_server, or a file tool's edit (:class:`FileEdit`).
Its revert is a later command of the same agent on the same host that puts back what was there:

- ``sed -i 's/A/B/' F`` undone by ``sed -i 's/B/A/' F`` (GNU sed's ``s/regexp/replacement/``,
  any delimiter);
- an edit of F undone by git putting F back (``git checkout -- F``, ``git checkout HEAD F``,
  ``git restore F``: git-checkout(1), git-restore(1)), or every edit of the work tree by
  ``git checkout .``, ``git reset --hard``, ``git stash`` (git-reset(1), git-stash(1));
- an edit of F undone by copying or moving its backup back (``cp F.bak F``, ``mv F.orig F``);
- a relaunch with other speculative flags undone by the next launch, with the flags of the
  launch before the change again.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import attrgetter

from spec_debug.session.file_edits import FileEdit
from spec_debug.session.host_changes import edits_in_place
from spec_debug.session.records import CommandRecord
from spec_debug.session.shell_words import simple_commands

_BACKUP_SUFFIXES = (".bak", ".orig", ".backup", ".old", ".save", "~")
_WHOLE_TREE = frozenset({".", ":/", "-A"})
_GIT_VALUED = frozenset({"-C", "-c", "--git-dir", "--work-tree"})
_LITERALS = ("sed", "git", "cp", "mv", "install")
_ROLLBACK_LITERALS = ("git", "cp", "mv", "install", "rollout", "rollback")
"""A literal of every command that can undo a change (a launch aside)."""


@lru_cache(maxsize=1024)  # a session repeats its commands
def _argvs(command: str) -> tuple[list[str], ...]:
    return tuple(argv for argv in simple_commands(command) if not isinstance(argv, str) and argv)


def _program(argv: list[str]) -> str:
    return argv[0].rsplit("/", 1)[-1]


@lru_cache(maxsize=1024)
def _sed_edits(command: str) -> tuple[tuple[str, str, str], ...]:
    """(pattern, replacement, file) of each ``s`` command of each in-place ``sed`` of ``command``."""
    out = []
    for argv in _argvs(command):
        if _program(argv) != "sed" or not any(edits_in_place("sed", w) for w in argv[1:]):
            continue
        scripts, files, take = [], [], False
        for w in argv[1:]:
            if take:
                scripts.append(w)
                take = False
            elif w in ("-e", "--expression"):
                take = True
            elif w.startswith("--expression="):
                scripts.append(w.partition("=")[2])
            elif w.startswith("-"):
                continue
            elif not scripts and not any(x in ("-e", "--expression") for x in argv[1:]):
                scripts.append(w)
            else:
                files.append(w)
        for script in scripts:
            for part in script.split(";"):
                sub = _substitution(part.strip())
                if sub is not None:
                    out += [(sub[0], sub[1], f) for f in files]
    return tuple(out)


def _substitution(script: str) -> tuple[str, str] | None:
    """The (pattern, replacement) of ``s/A/B/flags``, whatever the delimiter."""
    if len(script) < 4 or script[0] != "s" or script[1].isalnum() or script[1] in "\\\n ":
        return None
    d = script[1]
    parts, cur, i = [], "", 2
    while i < len(script):
        ch = script[i]
        if ch == "\\" and i + 1 < len(script):
            cur += script[i:i + 2] if script[i + 1] != d else d
            i += 2
            continue
        if ch == d:
            parts.append(cur)
            cur = ""
            if len(parts) == 2:
                return parts[0], parts[1]
        else:
            cur += ch
        i += 1
    return None


def _plain(text: str) -> str:
    """A sed pattern or replacement as the text it stands for: ``\\.`` is ``.``, ``^``/``$`` anchors dropped."""
    return re.sub(r"\\(.)", r"\1", text.removeprefix("^").removesuffix("$"))


def _same_file(a: str, b: str) -> bool:
    """``a`` and ``b`` name the same file: equal, or one is the other's tail past a ``/``
    (``/etc/sglang/spec.yaml`` and ``spec.yaml`` after a ``cd /etc/sglang``)."""
    a, b = a.rstrip("/"), b.rstrip("/")
    if not a or not b:
        return False
    if a == b:
        return True
    short, long = sorted((a.removeprefix("./"), b.removeprefix("./")), key=len)
    return long.endswith("/" + short)


def _edited_files(change: CommandRecord | FileEdit) -> list[str]:
    if isinstance(change, FileEdit):
        return [change.path]
    return [f for _, _, f in _sed_edits(change.inner or change.command)]


def _git_verb(argv: list[str], folders: list[str]) -> tuple[str, list[str]]:
    """A git command's verb and its arguments, past git's own options (the folder of a ``-C DIR``
    added to ``folders``)."""
    at = 1
    while at < len(argv) and argv[at].startswith("-"):
        if argv[at] == "-C" and at + 1 < len(argv):
            folders.append(argv[at + 1].rstrip("/"))
        at += 2 if argv[at] in _GIT_VALUED and at + 1 < len(argv) else 1
    return (argv[at] if at < len(argv) else ""), argv[at + 1:]


def _backup_of(source: str, target: str) -> bool:
    """``source`` is a backup of ``target`` (``spec.yaml.bak`` of ``spec.yaml``, or of the folder
    it is copied into)."""
    name = source.rstrip("/").rsplit("/", 1)[-1]
    base = next((name[: -len(s)] for s in _BACKUP_SUFFIXES if name.endswith(s) and len(name) > len(s)), None)
    if base is None:
        return False
    return _same_file(target, base) or target.rstrip("/").rsplit("/", 1)[-1] == base or target.endswith("/")


@lru_cache(maxsize=1024)
def rolls_back(command: str) -> bool:
    """``command`` puts back an earlier state of what is served, whatever change made it: git
    restoring files (``git checkout [REV] -- PATH``, ``git restore``; git-checkout(1),
    git-restore(1)), undoing a commit (``git revert``) or the work tree (``git reset --hard``,
    ``git stash``), a backup copied over its file (``cp spec.yaml.bak spec.yaml``), a
    Kubernetes deployment's rollout undone (``kubectl rollout undo``) or a Helm release rolled
    back (``helm rollback``). Rolling back the morning's rollout is the commonest mitigation; as
    a command of kind "other" it was no change, and the rise it brought was told after none."""
    if not any(w in command for w in _ROLLBACK_LITERALS):
        return False
    folders: list[str] = []
    for argv in _argvs(command):
        name = _program(argv)
        words = [w for w in argv[1:] if not w.startswith("-")]
        if name == "git":
            verb, args = _git_verb(argv, folders)
            if verb == "revert" and not {"--abort", "--quit", "--skip"} & set(args):
                return True
            if _stashes_or_resets(verb, args):
                return True
            if verb == "restore" or (verb == "checkout" and ("--" in args or _restores_paths(args))):
                return True
        elif name in ("cp", "mv", "install") and len(words) >= 2 and _backup_of(words[-2], words[-1]):
            return True
        elif name in ("kubectl", "oc") and "rollout" in words and words[words.index("rollout") + 1:][:1] == ["undo"]:
            return True  # (past `-n NAMESPACE`, whose value reads as a word here)
        elif name == "helm" and "rollback" in words[:3]:
            return True
    return False


# A word of `git checkout` that names a file, not a branch, tag or commit: one with a file's
# suffix ("spec.yaml", "configs/eagle3.json"; a tag's "v0.4.6" ends in digits), or the whole tree.
_FILE_WORD = re.compile(r"\.[A-Za-z][A-Za-z0-9]{0,5}$")


def _restores_paths(args: list[str]) -> bool:
    """``git checkout`` without ``--`` restores files where its words after a revision are paths
    (git-checkout(1): ``git checkout [<tree-ish>] [--] <pathspec>...``): `git checkout spec.yaml`,
    `git checkout HEAD~1 configs/eagle3.yaml`, `git checkout .`."""
    if {"-b", "-B", "--orphan"} & set(args):
        return False
    words = [w for w in args if not w.startswith("-")]
    return any(w in _WHOLE_TREE or _FILE_WORD.search(w) for w in (words if len(words) == 1 else words[1:]))


@lru_cache(maxsize=1024)
def switches_source(command: str) -> bool:
    """``command`` switches a checkout to another branch, tag or commit (`git checkout v0.4.6`,
    `git switch main`, `git checkout -b fix origin/v0.4.5`): the source an editable install of an
    engine (`pip install -e "python[all]"`) serves from, so a change of what is served. Not a
    new branch made where the checkout stands (`git checkout -b fix`, `git switch -c fix`), nor a
    checkout of files (a rollback, :func:`rolls_back`)."""
    if "checkout" not in command and "switch" not in command:
        return False
    folders: list[str] = []
    for argv in _argvs(command):
        if _program(argv) != "git":
            continue
        verb, args = _git_verb(argv, folders)
        if verb not in ("checkout", "switch") or "--" in args:
            continue
        if verb == "checkout" and _restores_paths(args):
            continue
        skip = False
        for w in args:
            if skip:
                skip = False
            elif w in ("-b", "-B", "--orphan", "-c", "-C", "--create", "--force-create"):
                skip = True  # the new branch's name
            elif not w.startswith("-") or w == "-":
                return True  # a ref to switch to (`-`: the one before), or the start point of a new branch
    return False


def _puts_back(command: str, files: list[str]) -> bool:
    """``command`` puts one of ``files`` back as it was: git, or a backup copied over it. A
    reset of the whole work tree (``git stash``, ``git reset --hard``, ``git checkout .``) only
    where the command went into a folder that holds the file first, or the file was named
    relative: the same words in another checkout (``cd ~/sglang && git reset --hard origin/main``)
    leave ``/etc/sglang/spec.yaml`` as it was."""
    folders: list[str] = []
    for argv in _argvs(command):
        name = _program(argv)
        words = [w for w in argv[1:] if not w.startswith("-") or w == "-A"]
        if name in ("cd", "pushd") and words:
            folders.append(words[0].rstrip("/"))
        elif name == "git":
            verb, args = _git_verb(argv, folders)
            inside = any(not f.startswith(("/", "~")) or any(f.startswith(d + "/") for d in folders) for f in files)
            if inside and (_stashes_or_resets(verb, args) or _checks_out_whole_tree(verb, args)):
                return True
            if verb in ("checkout", "restore") and any(_same_file(p, f) for p in _checkout_paths(args) for f in files):
                return True
        elif name in ("cp", "mv", "install") and len(words) >= 2:
            source, target = words[-2], words[-1]
            if any(_same_file(target, f) and source != target
                   and any(source.endswith(f.rsplit("/", 1)[-1] + s) for s in _BACKUP_SUFFIXES) for f in files):
                return True
    return False


def _undoes_sed(command: str, edits: tuple[tuple[str, str, str], ...]) -> bool:
    """``command`` is a ``sed -i`` that swaps back one of ``edits`` in the same file."""
    if "sed" not in command:
        return False
    return any(_plain(p) == _plain(r0) and _plain(r) == _plain(p0) and _same_file(f, f0)
               for p, r, f in _sed_edits(command) for p0, r0, f0 in edits)


class Reverts:
    """The commands of a session that may undo a change, indexed once per analysis: the launches
    by (session, agent), and the commands that run sed, git, cp, mv or install by the names of the
    files they name (and those that reset a whole work tree), so the search for a change's revert
    reads the few that name its file, not every command after it."""

    def __init__(self, commands: Iterable[CommandRecord]) -> None:
        self._launches: dict[tuple[str, str], list[CommandRecord]] = {}
        self._naming: dict[tuple[str, str, str], list[CommandRecord]] = {}
        self._whole: dict[tuple[str, str], list[CommandRecord]] = {}
        for c in commands:
            if c.category == "launch_server":
                self._launches.setdefault((c.session, c.agent), []).append(c)
                continue
            text = c.inner or c.command
            if not any(w in text for w in _LITERALS):
                continue
            for name in _named_files(text):
                self._naming.setdefault((c.session, c.agent, name), []).append(c)
            if _resets_tree(text):
                self._whole.setdefault((c.session, c.agent), []).append(c)
        for found in self._launches.values():
            found.sort(key=attrgetter("seq"))
        self._launch_seqs = {key: [c.seq for c in found] for key, found in self._launches.items()}

    def reverted_by(self, change: CommandRecord | FileEdit, flags_before: list[str] | None = None,
                    flags_of: Callable[[str], list[str]] | None = None) -> CommandRecord | None:
        """The first later command of ``change``'s session, agent and host that undid it; None
        where none did. ``flags_before``: for a launch, the speculative flags of the launch
        before it (``flags_of`` reads a launch line's)."""
        if not isinstance(change, FileEdit) and change.category == "launch_server":
            if not flags_before or flags_of is None:
                return None
            key = (change.session, change.agent)
            launches = self._launches.get(key, [])
            mine = set(flags_of(change.inner or change.command))
            for c in launches[bisect_right(self._launch_seqs.get(key, []), change.seq):]:
                if _elsewhere(c, change):
                    continue
                theirs = set(flags_of(c.inner or c.command))
                if theirs == mine:
                    continue  # a restart with the same flags
                return c if theirs == set(flags_before) else None
            return None
        files = _edited_files(change)
        if not files:
            return None
        found = {id(c): c for f in files
                 for c in self._naming.get((change.session, change.agent, _basename(f)), ())}
        found.update((id(c), c) for c in self._whole.get((change.session, change.agent), ()))
        edits = () if isinstance(change, FileEdit) else _sed_edits(change.inner or change.command)
        for c in sorted(found.values(), key=attrgetter("seq")):
            if c.seq <= change.seq or _elsewhere(c, change):
                continue
            text = c.inner or c.command
            if (edits and _undoes_sed(text, edits)) or _puts_back(text, files):
                return c
        return None


def _elsewhere(c: CommandRecord, change: CommandRecord | FileEdit) -> bool:
    return c.host is not None and change.host is not None and c.host != change.host


def _basename(path: str) -> str:
    return path.rstrip("/").rsplit("/", 1)[-1]


def _named_files(command: str) -> set[str]:
    """The last path parts of the words of ``command``, a backup's without its suffix too."""
    out: set[str] = set()
    for argv in _argvs(command):
        for w in argv[1:]:
            if w.startswith("-"):
                continue
            name = _basename(w)
            out.add(name)
            for suffix in _BACKUP_SUFFIXES:
                if name.endswith(suffix) and len(name) > len(suffix):
                    out.add(name[: -len(suffix)])
    return out


def _resets_tree(command: str) -> bool:
    """``command`` runs a git command that resets a whole work tree (stash, reset --hard, checkout .)."""
    if "git" not in command:
        return False
    for argv in _argvs(command):
        if _program(argv) != "git":
            continue
        verb, args = _git_verb(argv, [])
        if _stashes_or_resets(verb, args) or _checks_out_whole_tree(verb, args):
            return True
    return False


def _stashes_or_resets(verb: str, args: list[str]) -> bool:
    """A git verb and its arguments that put the whole work tree back: ``stash`` (``push``,
    ``save``, or none) and ``reset --hard`` (git-stash(1), git-reset(1))."""
    return (verb == "stash" and (not args or args[0] in ("push", "save"))) or (verb == "reset" and "--hard" in args)


def _checkout_paths(args: list[str]) -> list[str]:
    """The paths of ``git checkout``/``git restore`` arguments: those after ``--``, else every word."""
    return args[args.index("--") + 1:] if "--" in args else [w for w in args if not w.startswith("-")]


def _checks_out_whole_tree(verb: str, args: list[str]) -> bool:
    """``git checkout .`` / ``git restore :/``: every file of the work tree put back."""
    return verb in ("checkout", "restore") and any(p in _WHOLE_TREE for p in _checkout_paths(args))

"""Which commands change the host they run on (kill, rm, docker restart, pip install, a write
through ``>``) and which only read it: a distilled playbook keeps only the readers."""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

from spec_debug.session.python_writes import python_writes
from spec_debug.session.shell_words import heredocs, shell_scripts, simple_commands

# What changes a host, by program: killing or restarting what serves, installing, deleting,
# moving, resetting a GPU. A session's pivots are full of them ("the server hangs" -> `pkill -f
# sglang`), and a playbook the on-call runs against a production host must not repeat them.
_CHANGING_PROGRAMS = frozenset({
    "kill", "pkill", "killall", "reboot", "shutdown", "halt", "poweroff", "rm", "rmdir", "mv", "truncate", "shred",
    "chmod", "chown", "chgrp", "ln", "umount", "useradd", "userdel", "passwd", "patch", "swapoff", "modprobe",
    "rmmod", "insmod"})
# Programs whose verb decides (`docker ps` reads, `docker restart` changes): the verbs that
# change, the options that take a value before the verb, and the words that group verbs
# (`docker compose restart`, `kubectl rollout restart`, `uv pip install`).
_DOCKER = ({"restart", "stop", "kill", "rm", "rmi", "run", "start", "pull", "push", "create", "update", "pause",
            "unpause", "commit", "load", "import", "tag", "build", "up", "down", "prune", "cp", "login", "logout"},
           {"-H", "--host", "--context", "-c", "--config", "-l", "--log-level", "-f", "--file", "-p", "--project-name",
            "--env-file", "--profile"},
           {"compose", "container", "image", "volume", "network", "system", "builder", "buildx"})
_VERBS = {
    "systemctl": ({"start", "stop", "restart", "reload", "enable", "disable", "kill", "mask", "unmask", "daemon-reload",
                   "isolate", "try-restart", "reload-or-restart"}, {"-H", "--host", "-M", "--machine", "-p",
                                                                    "--property", "-t", "--type", "-n", "--lines"}, set()),
    "docker": _DOCKER, "podman": _DOCKER, "nerdctl": _DOCKER, "docker-compose": _DOCKER,
    "kubectl": ({"delete", "apply", "create", "replace", "patch", "edit", "scale", "restart", "undo", "set", "drain",
                 "cordon", "uncordon", "taint", "label", "annotate", "cp", "autoscale", "expose", "run"},
                {"-n", "--namespace", "--context", "--kubeconfig", "-s", "--server", "--cluster", "--user"}, {"rollout"}),
    "git": ({"checkout", "reset", "pull", "push", "commit", "stash", "clean", "merge", "rebase", "apply", "switch",
             "restore", "cherry-pick", "revert", "am", "clone", "rm", "mv", "add", "init"},
            {"-C", "-c", "--git-dir", "--work-tree"}, set()),
    "pip": ({"install", "uninstall", "download"}, {"--python"}, set()),
    "uv": ({"install", "uninstall", "sync", "add", "remove"}, set(), {"pip"}),
    "conda": ({"install", "remove", "uninstall", "update", "create"}, set(), set()),
    "apt": ({"install", "remove", "purge", "upgrade", "autoremove", "dist-upgrade"}, {"-o"}, set()),
    "yum": ({"install", "remove", "update", "erase", "upgrade"}, set(), set()),
    "huggingface-cli": ({"download", "upload", "delete-cache", "login", "logout"}, set(), set()),
    # `hf` groups its verbs (huggingface_hub src/huggingface_hub/cli/: `hf auth login|logout|switch`
    # store or drop a token in ~/.cache/huggingface, `hf cache rm|prune|delete` delete from the cache):
    # read past the group, `hf auth login` was a read, and a playbook step logged the host in
    "hf": ({"download", "upload", "upload-large-folder", "delete-cache", "login", "logout", "switch", "rm", "prune",
            "delete"}, set(), {"auth", "cache", "repo", "repo-files"}),
    # `wandb login` writes its key to ~/.netrc; online/offline/disabled/enabled write its settings
    "wandb": ({"login", "online", "offline", "disabled", "enabled"}, set(), set()),
    # `aws configure set|import` write ~/.aws/credentials or ~/.aws/config
    # (docs.aws.amazon.com/cli/latest/reference/configure/)
    "aws": ({"set", "import"}, {"--profile", "--region", "--output", "--endpoint-url"}, {"configure"}),
    "crontab": ({"-r", "-e"}, {"-u"}, set()),
    # Helm's commands that change a release on the cluster (helm docs, "helm upgrade|install|
    # uninstall|rollback"); `helm list|status|get|template` read. Was no change: `helm upgrade
    # sglang ./chart --set ...` a playbook's read-only step, and no change before a rise.
    "helm": ({"install", "upgrade", "uninstall", "delete", "rollback"},
             {"-n", "--namespace", "--kube-context", "--kubeconfig", "--kube-apiserver", "--kube-token",
              "--repository-config", "--repository-cache", "--registry-config"}, set()),
    # supervisorctl's actions that start, stop or signal programs or change supervisord's
    # configuration (supervisor docs, "supervisorctl Actions": `update` "Reload config and
    # add/remove as necessary, and will restart affected programs"); status, pid, tail, avail and
    # reread only read. Was no change at all: `supervisorctl restart sglang` a read-only step.
    "supervisorctl": ({"start", "stop", "restart", "reload", "update", "add", "remove", "signal", "shutdown",
                       "clear"}, {"-c", "--configuration", "-s", "--serverurl", "-u", "--username", "-p",
                                  "--password", "-r", "--history-file"}, set()),
}
for _same, _as in (("oc", "kubectl"), ("pip3", "pip"), ("mamba", "conda"), ("micromamba", "conda"),
                   ("apt-get", "apt"), ("dnf", "yum")):
    _VERBS[_same] = _VERBS[_as]
# Programs whose options decide, wherever they stand
_CHANGING_OPTIONS = {
    "nvidia-smi": {"-r", "--gpu-reset", "-pm", "--persistence-mode", "-pl", "--power-limit", "-lgc",
                   "--lock-gpu-clocks", "-rgc", "-lmc", "-rmc", "-ac", "-rac", "-c", "--compute-mode", "-e", "-mig"},
    "tmux": {"kill-session", "kill-server", "kill-window", "kill-pane", "send-keys"},
    "fuser": {"-k", "--kill"}, "service": {"start", "stop", "restart", "reload", "force-reload"},
}
_SCRATCH = ("/dev/null", "/dev/stdout", "/dev/stderr", "/tmp/", "/var/tmp/")


def changes_host(command: str, _depth: int = 0) -> str | None:
    """Why ``command`` changes the host it runs on (the program, or the file it writes), or
    None for a command that only reads. Cached for a command of a line or two: the analysis
    asks it of every command once a throughput was read, and sessions repeat commands (the
    shell split was 17% of the parent process's CPU on the bench session); a long script is
    seldom run twice, and kept it would hold its text."""
    if len(command) <= _CACHED_CHARS:
        return _changes_host_cached(command, _depth)
    return _changes_host(command, _depth)


_CACHED_CHARS = 1000


@lru_cache(maxsize=4096)
def _changes_host_cached(command: str, _depth: int) -> str | None:
    return _changes_host(command, _depth)


def _changes_host(command: str, _depth: int) -> str | None:
    """:func:`changes_host`, uncached. A script a shell reads from a heredoc (``sudo bash
    <<'EOF'`` + ``systemctl restart ...``) runs there too: its commands count (was: the body
    left out, and such a restart kept as a playbook's read-only step)."""
    pythons = []
    for argv in simple_commands(command, writes=True):
        if isinstance(argv, str):
            if not argv.startswith(_SCRATCH):  # `> /root/sglang_server.log` empties the log
                return f"writes {argv}"
            continue
        if why := _argv_changes(argv):
            return why
        if _PYTHON.fullmatch(argv[0].rsplit("/", 1)[-1]):
            pythons.append(argv)
    if _depth < 3 and "<<" in command:
        for script in shell_scripts(command):
            if why := changes_host(script, _depth + 1):
                return why
        if pythons:
            # `python3 - <<'PY'` + a script that loads config.json, sets a field and dumps it back
            bodies = list(heredocs(command))
            delimiters = {op.group(3) for op, *_ in bodies}
            if any(_python_reads_stdin(argv, delimiters) for argv in pythons):
                for _op, start, body_end, _after in bodies:
                    if why := python_writes(command[start:body_end], _SCRATCH):
                        return why
    return None


_PYTHON = re.compile(r"python[\d.]*")


def _python_reads_stdin(argv: list[str], delimiters: set[str]) -> bool:
    """``python3 -`` or ``python3`` with no script: the program is what stdin (a heredoc) holds
    (a heredoc's delimiter word, a redirection's file, is no argument: ``python3 <<'PY'`` is
    ``['python3']``; ``delimiters`` are left out as well)."""
    operands = [a for a in argv[1:] if (not a.startswith("-") or a == "-") and a not in delimiters]
    return not operands or operands[0] == "-" and "-c" not in argv and "-m" not in argv


_STARTS = frozenset({"start", "restart", "reload", "try-restart", "reload-or-restart", "up", "run", "create", "update"})
"""The verbs of systemctl, service, docker (compose), podman, kubectl and supervisorctl that (re)start
what serves (supervisorctl's `update` restarts the programs whose configuration changed; docker's
`update` changes a container's limits, in place, and is no start: read by the manager)."""
_SERVICE_MANAGERS = frozenset({"systemctl", "service", "docker", "podman", "nerdctl", "docker-compose", "kubectl", "oc",
                               "supervisorctl"})


def starts_service(command: str) -> bool:
    """Some command of the line starts or restarts a service or a container (``systemctl restart
    sglang``, ``docker compose up -d``, ``kubectl rollout restart``): what a host serves may be
    another server after it, whatever the line's first program (``sed -i ... && systemctl
    restart sglang`` is an edit first)."""
    for argv in simple_commands(command):
        if isinstance(argv, str):
            continue
        why = _argv_changes(argv)
        if why and (manager := why.split(" ", 1)[0]) in _SERVICE_MANAGERS \
                and (verb := why.rsplit(" ", 1)[-1]) in _STARTS and (verb != "update" or manager == "supervisorctl"):
            return True
        if why in ("kubectl delete", "oc delete") and any(a in _PODS or a.startswith(_PODS_NAMED) for a in argv):
            return True  # `kubectl delete pod sglang-0`: its controller starts another (see _PODS)
    return False


_PODS = frozenset({"pod", "pods", "po"})
"""kubectl's names of the pod resource: a pod deleted is replaced by its ReplicaSet, a new pod
with the spec and ConfigMaps as they are now (Kubernetes docs, "ReplicaSet": it "ensures that a
specified number of pod replicas are running at any given time"), the way agents restart a
served pod (`kubectl delete pod sglang-0`, `kubectl delete pods -l app=sglang`), as `kubectl
rollout restart` does. Was no start: a rise after it was told after no change."""
_PODS_NAMED = ("pod/", "pods/", "po/")


_REDEPLOYS = frozenset({"apply", "set", "patch", "replace", "edit", "scale", "upgrade", "install"})
"""The verbs of kubectl/oc and helm that change a deployment's spec, its config, or a release: the
cluster rolls the pods out again with it (Kubernetes docs, "Deployments": "A Deployment's rollout
is triggered if and only if the Deployment's Pod template is changed")."""


def redeploys(command: str) -> bool:
    """Some command of the line changes what a cluster serves (``kubectl apply -f sglang.yaml``,
    ``kubectl set env deployment/sglang SPEC_TOPK=4``, ``helm upgrade sglang ./chart --set ...``):
    a relaunch, as a typed `launch_server` is, made through the cluster."""
    if "kubectl" not in command and "helm" not in command and "oc " not in command:
        return False
    for argv in simple_commands(command):
        if isinstance(argv, str) or not argv:
            continue
        why = _argv_changes(argv)
        if why and why.split(" ", 1)[0] in ("kubectl", "oc", "helm") and why.rsplit(" ", 1)[-1] in _REDEPLOYS \
                and not any(a.startswith("--dry-run") for a in argv):  # (a dry run sends nothing to change)
            return True
    return False


def _argv_changes(argv: list[str]) -> str | None:
    """Why one simple command changes the host, or None."""
    prog, args = argv[0].rsplit("/", 1)[-1], argv[1:]
    if re.fullmatch(r"python[\d.]*", prog) and args[:2] == ["-m", "pip"]:
        prog, args = "pip", args[2:]
    if "-c" in args[:-1] and _PYTHON.fullmatch(prog) and (why := python_writes(args[args.index("-c") + 1], _SCRATCH)):
        return why  # python3 -c "...json.dump(c, open(p, 'w'))": the draft's config rewritten
    if prog in ("kill", "pkill", "killall") and _signal_zero(args):
        return None  # signal 0 only asks whether the process is alive
    if prog in _CHANGING_PROGRAMS or prog.startswith("mkfs"):
        return prog
    if prog == "mount" and any(not a.startswith("-") for a in args):
        return prog  # `mount` alone lists the mounts
    if prog == "dd" and any(a.startswith("of=") and not a[3:].startswith(_SCRATCH) for a in args):
        return "dd of="
    if prog == "nvidia-smi" and args and not args[0].startswith("-"):
        return None  # nvidia-smi dmon -c 5, topo -m: sub-commands that read (-c counts samples there)
    options = _CHANGING_OPTIONS.get(prog, ())
    if hit := next((a for a in args if a.split("=", 1)[0] in options), None):
        return f"{prog} {hit}"
    if prog in _VERBS and (verb := _verb(args, *_VERBS[prog][1:])) in _VERBS[prog][0]:
        return f"{prog} {verb}"
    if prog in ("sed", "perl") and any(edits_in_place(prog, a) for a in args):
        return f"{prog} -i"
    if prog == "tee" and any(not a.startswith("-") and not a.startswith(_SCRATCH) for a in args):
        return "tee"
    if prog == "sysctl" and any(a == "-w" or "=" in a for a in args):
        return "sysctl -w"
    if prog == "find":
        return _find_changes(args)
    if prog in _COPIES:
        target = _copy_target(args)
        return f"{prog} to {target}" if target and not target.startswith(_SCRATCH) else None
    if prog in ("curl", "wget"):
        return _server_admin_call(prog, args) or _download_changes(prog, args)
    if prog == "tar":
        return _tar_changes(args)
    if prog == "unzip":
        return None if any(a in ("-l", "-t", "-v", "-p", "-Z") for a in args) else prog
    if (target := _output_option(args)) is not None and not target.startswith(_SCRATCH):
        return f"writes {target}"
    if prog in ("touch", "mkdir"):
        operands = [a for a in args if not a.startswith("-")]
        return None if operands and all(a.startswith(_SCRATCH) for a in operands) else prog
    return None


# The short options of sed and perl that take the rest of their cluster as a value (`-e SCRIPT`,
# `-f FILE`, `-l N`; perlrun: -e -E -M -m -I -x -F -C): an `i` after one is that value's. Perl's
# -0 and -l take digits only, and the cluster goes on after them (`-0777pi`, `-lpi`).
_VALUE_OPTIONS = {"sed": "efl", "perl": "eEMmIxFC"}


def edits_in_place(prog: str, arg: str) -> bool:
    """Whether ``arg`` turns on ``prog``'s in-place editing: ``-i``, ``-i.bak``, ``--in-place``,
    or an ``i`` in a cluster of short options (perl's ``-pi -e``, perlrun; sed's ``-ri``/``-Ei``,
    GNU sed's options bundle as getopt's do). Before, only a word that began with ``-i`` counted,
    so ``perl -pi -e 's/…/' config.json`` read as a read and became a playbook step that edited
    the draft's config on every host it ran on."""
    if arg.startswith("--"):
        return arg.startswith("--in-place")
    if not arg.startswith("-") or len(arg) < 2:
        return False
    for ch in arg[1:]:
        if ch == "i":
            return True
        if ch in _VALUE_OPTIONS[prog] or not (ch.isalnum() or ch == "-"):
            return False
    return False


# Options that name where a program saves what it makes: SpecForge's and speculators' training
# and export scripts (--output-dir, --save-dir), a vocab-map or checkpoint tool (--out). Not
# --output-file / --output_path, which benchmarks and evaluations (sglang bench_serving, lm_eval)
# write their results to.
_OUTPUT_OPTIONS = frozenset({"--out", "--out-dir", "--out_dir", "--output-dir", "--output_dir", "--save-dir",
                             "--save_dir", "--save-path", "--save_path"})


def _output_option(args: list[str]) -> str | None:
    """The place an output option names (``--out DIR``, ``--output-dir=DIR``), or None."""
    for k, arg in enumerate(args):
        name, eq, value = arg.partition("=")
        if name in _OUTPUT_OPTIONS:
            return value if eq else (args[k + 1] if k + 1 < len(args) else None)
    return None


_COPIES = frozenset({"cp", "install", "rsync"})
"""Copy a file over another (``cp /tmp/config.fixed.json /models/eagle3/config.json``, the fix a
session ends with): the last operand, or ``-t DIR``, is written."""


def _copy_target(args: list[str]) -> str | None:
    for option, value in pairwise(args):
        if option in ("-t", "--target-directory"):
            return value
    operands = [a for a in args if not a.startswith("-")]
    return operands[-1] if len(operands) >= 2 else None


def _find_changes(args: list[str]) -> str | None:
    """``find`` deletes with ``-delete`` and runs what follows ``-exec``/``-execdir``/``-ok`` (up
    to ``;`` or ``+``) on each file: ``find ~/.cache/huggingface -name '*.lock' -delete``,
    ``find /models -name '*.incomplete' -exec rm {} +`` clear stale download locks
    (findutils manual, "Actions")."""
    if "-delete" in args:
        return "find -delete"
    for i, arg in enumerate(args):
        if arg in ("-exec", "-execdir", "-ok", "-okdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j] in (";", "+")), len(args))
            if i + 1 < end and (why := _argv_changes(args[i + 1:end])):
                return f"find {arg} {why}"
    return None


# The serving engines' HTTP endpoints that change the running server (drop its caches, swap its
# weights, free its memory, pause it, load adapters, start a profiler that writes traces), by
# their last path segment: SGLang python/sglang/srt/entrypoints/http_server.py (`/flush_cache`
# answers GET too), vLLM vllm/entrypoints/openai/api_server.py (the dev-mode `/sleep`,
# `/wake_up`, `/reset_prefix_cache`, LoRA and profiler routes). A session calls them while it
# debugs (`curl -X POST localhost:30000/flush_cache` before a re-measure); a playbook the on-call
# runs against a production server must not.
_SERVER_ADMIN_ENDPOINTS = frozenset({
    "flush_cache", "update_weights_from_disk", "update_weights_from_tensor", "update_weights_from_distributed",
    "init_weights_update_group", "release_memory_occupation", "resume_memory_occupation", "start_profile",
    "stop_profile", "abort_request", "pause_generation", "continue_generation", "load_lora_adapter",
    "unload_lora_adapter", "set_internal_state", "configure_logging", "sleep", "wake_up", "reset_prefix_cache",
    "reset_mm_cache", "scale_elastic_ep", "collective_rpc"})


def _server_admin_call(prog: str, args: list[str]) -> str | None:
    for arg in args:
        if "://" in arg or arg.startswith(("localhost:", "127.0.0.1:", "0.0.0.0:")):
            path = arg.split("://", 1)[-1].split("?", 1)[0].split("#", 1)[0].rstrip("/")
            endpoint = path.rsplit("/", 1)[-1] if "/" in path else ""
            if endpoint in _SERVER_ADMIN_ENDPOINTS:
                return f"{prog} /{endpoint}"
    return None


def _download_changes(prog: str, args: list[str]) -> str | None:
    """curl writes a file with ``-o FILE``/``--output`` or ``-O`` (else prints it); wget writes
    one unless ``-O -`` (or ``-qO-``) sends it to stdout or ``--spider`` only checks it (curl(1),
    wget(1)). Short options come bundled: ``curl -fsSLo /models/x.bin URL``."""
    target: str | None = None
    for i, arg in enumerate(args):
        value = args[i + 1] if i + 1 < len(args) else ""
        if arg.startswith("--"):
            name, _, inline = arg.partition("=")
            if (prog, name) in (("curl", "--output"), ("wget", "--output-document")):
                target = inline or value
            elif (prog, name) in (("curl", "--remote-name"), ("curl", "--remote-name-all")):
                target = "."
            elif prog == "wget" and name == "--spider":
                return None
        elif arg.startswith("-") and len(arg) > 1:
            flag = "o" if prog == "curl" else "O"
            if flag in arg[1:]:
                rest = arg[arg.index(flag, 1) + 1:]
                target = rest or value
            elif prog == "curl" and "O" in arg[1:]:
                target = "."
    if prog == "wget" and target is None:
        target = "."  # the URL's file name, in the working directory
    if target is None or target == "-" or target.startswith(_SCRATCH):
        return None
    return f"{prog} writes {target}" if target != "." else f"{prog} downloads a file"


def _tar_changes(args: list[str]) -> str | None:
    """tar lists with ``t`` and writes otherwise: ``x`` unpacks over files, ``c`` writes the
    archive (``tar czf /tmp/logs.tgz /root/logs`` only to scratch). The mode letters come
    bundled in the first word, with or without a dash (tar(1))."""
    first = args[0] if args else ""
    mode = first.lstrip("-") if not first.startswith("--") else ""
    if "--list" in args or "t" in mode or "-t" in args:
        return None
    if "c" in mode or "--create" in args:
        archive = next((b for a, b in pairwise(args) if a in ("-f", "--file")), None)
        if archive is None and "f" in mode:
            archive = args[1] if len(args) > 1 else None
        if archive is not None and (archive == "-" or archive.startswith(_SCRATCH)):
            return None
    return "tar"


def _verb(args: list[str], value_options: set[str], groups: set[str]) -> str | None:
    """The first word that is not an option (past a grouping word: `compose`, `rollout`)."""
    skip = False
    for arg in args:
        if skip:
            skip = False
        elif arg.startswith("-"):
            skip = arg in value_options
        elif arg in groups:
            continue
        else:
            return arg
    return None


def _signal_zero(args: list[str]) -> bool:
    return "-0" in args or any(a in ("-s", "--signal") and b == "0" for a, b in pairwise(args))

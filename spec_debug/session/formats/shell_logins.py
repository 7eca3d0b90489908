"""Where the commands of a terminal log ran when the prompt does not say: after an interactive
``ssh gpu01`` (no remote command) the shell that reads the next commands is gpu01's, until
``exit``/``logout`` or ssh's ``Connection to gpu01 closed.`` (:mod:`formats.text_log`).

A prompt that shows its host (``me@gpu01:~$``) is the better witness of where a command ran and
wins; this fills in for prompts without one (``$``, oh-my-zsh's ``➜  sglang``, starship's ``❯``),
and names a machine whose prompt shows its own hostname (``ip-10-0-3-17``) by the name the login
reached it by."""

from __future__ import annotations

import shlex

from spec_debug.session import docker_contexts, shell
from spec_debug.session.login_hops import short_name
from spec_debug.session.terminal_wait import waits_at_terminal

_LOGIN_PROGRAMS = frozenset({"ssh", "autossh", "mosh", "tsh", "gcloud", "az"})
"""Programs that open a shell on another host (``az`` for ``az ssh vm``; the target itself is read by
:func:`shell.parse_target`)."""
_CONTROL = frozenset({";", "&&", "||", "|", "&"})
_LOGIN_FAILED = ("ssh: ", "Permission denied", "Host key verification failed", "Connection closed by",
                 "kex_exchange_identification", "Connection reset by", "sudo: ", "su: ",
                 "Error response from daemon", "error: ")
"""What is printed when no shell was opened: OpenSSH's ``ssh: connect to host gpu01 port 22:
Connection refused``, ``ssh: Could not resolve hostname``, ``Permission denied (publickey)``
(openssh/openssh-portable ``sshconnect.c``, ``sshconnect2.c``); ``sudo: a password is
required``, ``su: Authentication failure``; docker's ``Error response from daemon: No such
container``; kubectl's ``error: unable to upgrade connection``."""
_MAX_SCANNED = 200
_MAX_DEPTH = 64
"""Output lines looked at after a login or for a closed connection (a banner, the motd)."""


_GREETINGS = ("Last login: ", "Welcome to ")
"""What a login prints once the shell is open: sshd's lastlog line (openssh-portable session.c,
``Last login: %s from %s``), an Ubuntu or Debian motd's first words."""


def _closed(line: str) -> bool:
    """ssh's note when the session ends, ``Connection to gpu01 closed.`` or ``... closed by
    remote host.`` (openssh/openssh-portable ``clientloop.c``)."""
    return "Connection to " in line and " closed" in line


class Logins:
    """The shells a terminal log entered, innermost last: ``(host, by ssh)``; a subshell on the
    same host (``sudo -i``, ``docker exec -it c bash``) also ends with ``exit``."""

    __slots__ = ("aliases", "awaiting", "containers", "exited", "greeted", "home", "pending", "pending_container",
                 "pending_from", "pending_root", "root_prompt", "same_prompt", "shown", "stack", "variables")

    def __init__(self) -> None:
        self.stack: list[tuple[str | None, bool]] = []
        self.same_prompt: list[str | None] = []
        """For each shell of the stack, the prompt host it shares with the shell it was opened
        from (:meth:`_name_prompt`): that name says the innermost shell there, no alias."""
        self.shown: list[str | None] = [None]
        """For the log's own shell and then each shell of the stack, the host the last prompt that
        showed one in it named (:meth:`where`): a theme's prompt without one later in that shell
        is the same machine's (``root@gpu-node-7:~# exec zsh``, then oh-my-zsh's ``➜  ~``)."""
        self.pending: tuple[str | None, bool] | None = None
        """A shell the last command opens, if its output (did it open?) shows no failure."""
        self.containers: list[str | None] = []
        """For each shell of the stack, the container it runs in (``docker:sglang`` for ``docker
        exec -it sglang bash``, and a ``bash`` or ``sudo -i`` typed in there), else None."""
        self.pending_container: str | None = None
        """The container of the pending shell."""
        self.root_prompt: list[bool] = []
        """For each shell of the stack, whether a bare ``# cmd`` line may be its prompt (a root
        shell's: :meth:`in_opened_shell`): not once it showed a prompt of another shape, nor for a
        login as a named user other than root."""
        self.pending_root = True
        """:attr:`root_prompt` of the pending shell."""
        self.greeted = False
        """The last login's output showed the shell opened (:data:`_GREETINGS`)."""
        self.exited = False
        """The last command left a shell (its output says the connection closed: once)."""
        self.home: str | None = None
        """The host the log itself was taken on, where the log names it (a PowerShell
        transcript's ``Machine:``); the commands outside any shell opened ran there."""
        self.variables: dict[str | None, dict[str, str | None]] = {}
        """The variables each host's shell was given (``H=gpu01``, then ``ssh $H``)."""
        self.pending_from: str | None = None
        """The prompt's host where the pending login was typed."""
        self.awaiting: tuple[str, str | None] | None = None
        """A login that just opened, (its host, the prompt host it was typed at): the next
        prompt that names a host names that machine."""
        self.aliases: dict[str, str] = {}
        """A prompt's host, lower case -> the name a login reached that machine by: after ``ssh
        ubuntu@gpu01.example.com`` the prompt says ``ubuntu@ip-10-0-3-17`` (the machine's own
        hostname, which seldom resolves elsewhere); its commands ran on gpu01.example.com, as the
        session's other commands name it and a playbook run must reach it."""

    def settle(self, output: list[str]) -> None:
        """The output of the last command is complete: a shell it started opened (or failed),
        or the connection it ran in closed (Ctrl-D, a dropped link)."""
        head = output[:_MAX_SCANNED]
        if self.pending is not None:
            entry, self.pending = self.pending, None
            if not any(mark in line for line in head for mark in _LOGIN_FAILED) \
                    and not any(_closed(line) for line in head):
                self.stack.append(entry)
                self.same_prompt.append(None)
                self.shown.append(None)
                self.containers.append(self.pending_container)
                self.root_prompt.append(self.pending_root)
                del self.stack[:-_MAX_DEPTH]  # a log that never exits its shells stays bounded
                del self.same_prompt[:-_MAX_DEPTH]
                del self.containers[:-_MAX_DEPTH]
                del self.root_prompt[:-_MAX_DEPTH]
                del self.shown[:-_MAX_DEPTH - 1]
                # (a container's prompt names the container, no name of the login's host)
                self.awaiting = (entry[0], self.pending_from) if entry[1] and entry[0] and self.containers[-1] is None \
                    else None
                self.greeted = any(line.startswith(_GREETINGS) for line in head)
        elif self.stack and not self.exited and any(_closed(line) for line in head):
            while self.stack and not self._pop()[1]:
                pass  # the connection took the shells opened inside it along
            self.awaiting = None
        self.exited = False

    def in_opened_shell(self, output: list[str]) -> bool:
        """A shell the log opened reads the next line, at a prompt that may be a root shell's bare
        ``# ``: one of the stack, or the one the last command opens (``docker exec -it sglang sh``)
        while its output so far, ``output``, shows no failure (:meth:`settle`). Not a shell that
        showed a prompt of its own (``ubuntu@gpu07:~$``: its ``# results on gpu07`` is a note's
        heading), nor a login as a user other than root (``ssh ubuntu@gpu07``), whose shell prompts
        with ``$`` (bash(1), PROMPTING: ``\\$`` is ``#`` for uid 0, else ``$``) (:attr:`root_prompt`)."""
        if self.pending is not None:
            head = output[:_MAX_SCANNED]
            if not any(mark in line for line in head for mark in _LOGIN_FAILED) and not any(_closed(line) for line in head):
                return self.pending_root
        return bool(self.stack) and self.root_prompt[-1]

    def prompt_shown(self) -> None:
        """The innermost shell showed a prompt that is not a bare ``# ``: its prompt is that one
        (:meth:`in_opened_shell`)."""
        if self.root_prompt:
            self.root_prompt[-1] = False

    def where(self, shown: str | None, *, carried: bool = False) -> str | None:
        """The host a command ran on: the prompt's (by the name a login reached it by), else the
        innermost shell's. ``carried``: the prompt, one that shows no host, is a shell's own
        (a theme's), not a note's ``$``: the host an earlier prompt of the same shell showed.
        A prompt's host is lower-cased: host names are case-insensitive, and Windows (Git Bash's
        ``me@LAPTOP-7Q2``) and macOS (``me@Janes-MacBook-Pro``) show capitals the machine's other
        names lack: a PowerShell transcript's ``Machine:`` (:attr:`home`), the ``gpu01`` an ssh
        reached whose prompt says ``root@GPU01``, and ssh itself, which lower-cases the host it
        connects to (openssh-portable ssh.c, ``lowercase(host)``, all but addresses). The shell a
        login opened keeps the login's spelling (``ssh root@GPU01``: the ssh's own host)."""
        if shown is not None:
            shown = shown.lower()
            if self.awaiting is not None:
                self._name_prompt(shown)
            if self.containers and self.containers[-1] is not None:
                host = self.stack[-1][0]  # the container's id (`root@a1b2c3d4e5f6`): on the host it runs on
                if self.containers[-1] == _UNNAMED:
                    self.containers[-1] = _UNNAMED + shown  # `docker run -it IMAGE bash`: known by its id
            elif self.same_prompt and self.same_prompt[-1] == shown:
                host = self.stack[-1][0]
            else:
                host = self.aliases.get(shown, shown) if self.aliases else shown
                if self.stack and (login := self.stack[-1][0]) and login.lower() == host:
                    host = login  # `ssh root@GPU01`'s shell: its commands on the host as the login named it
            self.shown[-1] = host
            return host
        if carried and self.shown[-1] is not None:
            return self.shown[-1]
        return self.stack[-1][0] if self.stack else self.home

    def container(self) -> str | None:
        """The container the innermost shell runs in (:attr:`containers`; None for a ``docker
        run`` one no prompt has named yet)."""
        container = self.containers[-1] if self.containers else None
        return None if container == _UNNAMED else container

    def _pop(self) -> tuple[str | None, bool]:
        self.containers.pop()
        self.root_prompt.pop()
        self.same_prompt.pop()
        self.shown.pop()
        return self.stack.pop()

    def _name_prompt(self, shown: str) -> None:
        """The first prompt host after a login: a name of its own (not the login's, nor the
        machine's it was typed on) is the logged-in machine's hostname."""
        host, typed_at = self.awaiting
        self.awaiting = None
        if _same_machine(shown, host):
            return
        if typed_at is not None and _same_machine(shown, typed_at):
            if self.greeted and self.stack:
                # `ssh gpu02` from a machine whose prompt says `root@vm`, and gpu02's says `root@vm`
                # too (images and VMs share hostnames): the login said it opened ("Last login:"),
                # so while it lasts that prompt is gpu02's (was the machine's it was typed on)
                self.same_prompt[-1] = shown.lower()
            return
        if len(self.aliases) < 256:
            self.aliases[shown.lower()] = host

    def ran(self, command: str, shown: str | None) -> None:
        """Note a command once its host is known (:meth:`where`)."""
        first = command.split(None, 1)[0] if command else ""
        if first in ("exit", "logout"):
            if self.stack:
                self._pop()
                self.exited = True
            self.awaiting = None
            return
        program = first.rsplit("/", 1)[-1]
        if "=" in command or first in ("for", "unset"):
            shell.note_variables(command, self.variables.setdefault(self.where(shown), {}))
        if "context " in command:  # `docker context create gpu07 --docker host=ssh://…`, `… use gpu07`
            docker_contexts.note_contexts(command, self.variables.setdefault(self.where(shown), {}))
        if program in _LOGIN_PROGRAMS:
            host = _login_host(command, self.variables.get(self.where(shown)))
            self.pending = (host, True) if host is not None else None
            self.pending_from = shown
            self.pending_container = None
            user = shell.parse_target(command).user if host is not None else None
            self.pending_root = user is None or user == "root" or "$" in user  # `ssh ubuntu@gpu07`: a `$` prompt
            if host is None and program == "ssh" and (inside := _container_login(command, self.variables.get(
                    self.where(shown)))) is not None:
                # `ssh -t gpu07 docker exec -it sglang bash`: the shell the next lines are typed in is
                # the container's, on gpu07 (was none: the container's id its prompt shows was read
                # as a host, `root@3f2a1b9c8d7e`), left by its `exit` or by ssh's "Connection closed"
                self.pending, (host, self.pending_container) = (inside[0], True), inside
                self.pending_root = True
        elif (program in _SUBSHELL_PROGRAMS or "=" in first or program == "env") and _opens_subshell(command):
            self.pending = (self.where(shown), False)
            # (the user's own shell, no root's)
            self.pending_root = program not in ("newgrp", "salloc", "apptainer", "singularity")
            # a container's shell (docker/podman/kubectl exec), or one opened in the container's
            self.pending_container = self.container()
            if "=" in first:  # `CUDA_VISIBLE_DEVICES=1 bash`, `DOCKER_HOST=ssh://… docker exec -it …`
                words = shell.split_words(command)
                program = words[_past_assignments(words)].rsplit("/", 1)[-1]
            elif program == "env":
                program = "sh"  # `env CUDA_VISIBLE_DEVICES=1 bash`: a shell, no container's (_opens_subshell)
            if program not in ("sudo", "su", "bash", "zsh", "sh", "dash", "newgrp", "salloc", "apptainer", "singularity"):
                run = _run_container(_cli_words(shell.split_words(command)))
                # `docker -H ssh://… run -it IMAGE bash`, `docker --context gpu07 run …`: the
                # container runs where the same CLI's exec would reach, the daemon's host
                execs = _as_exec(command) if run is not None else command
                target = shell.parse_target(execs)
                known = self.variables.get(self.where(shown)) if target.host is None else None
                if known and target.container is not None:
                    # `export DOCKER_HOST=ssh://…`, or a context this log created (`docker --context
                    # gpu07 exec -it …`, `docker context use gpu07`): the daemon's host, as the
                    # analysis places that exec itself (docker_contexts)
                    target = docker_contexts.with_context_host(
                        execs, shell.with_daemon_host(execs, target, known), known)
                if target.host is not None:  # `docker -H ssh://root@gpu07 exec -it ...`, DOCKER_HOST=
                    self.pending = (target.host, False)
                self.pending_container = run or target.container


def _same_machine(a: str, b: str) -> bool:
    """Two names of one machine as a prompt and a login write them: equal, or the same first
    label of a DNS name (``gpu01`` for gpu01.cluster.local; an IP address only whole)."""
    a, b = a.lower(), b.lower()
    return a == b or short_name(a) == short_name(b)


def opens_login(command: str) -> bool:
    """``command`` opens an interactive shell on another host (the commands typed next run there)."""
    return _login_host(command) is not None


def _login_host(command: str, variables: dict[str, str | None] | None = None) -> str | None:
    """The host ``command`` opens a shell on: a login with no remote command, not a tunnel
    (``ssh -N``) or one sent to the background (``ssh -f``); ``variables``: those the shell
    it was typed in holds (``ssh $GPU_HOST``)."""
    words = shell.split_words(command)
    if any(w in _CONTROL for w in words):
        return None
    if words[0].rsplit("/", 1)[-1] == "ssh":
        if _ssh_opens_no_shell(words):
            return None
    elif words[0].endswith("ssh") and any(w[:1] == "-" and w[1:2] != "-" and ("N" in w or "f" in w) for w in words):
        return None  # autossh -f, -N (autossh's own -M takes a value that ssh's lacks)
    target = shell.target_with(command, variables) if variables else shell.parse_target(command)
    if target.host is None or target.container is not None:
        return None
    if target.inner and not _opens_remote_shell(target.inner):
        return None
    return target.host


_NO_SHELL_FLAGS = frozenset("NfGV")
"""ssh flags after which it opens no shell: ``-N`` runs no command (a tunnel), ``-f`` goes to the
background, ``-G`` prints the configuration it would use and ``-V`` its version, and exits."""
_NO_SHELL_VALUE_FLAGS = frozenset("OQW")
"""ssh flags with a value after which it opens no shell: ``-O check|exit|stop`` talks to a running
control master, ``-Q cipher`` lists what it supports, ``-W host:port`` forwards its stdio (ssh(1))."""


def _ssh_opens_no_shell(words: list[str]) -> bool:
    """``ssh`` with one of :data:`_NO_SHELL_FLAGS` or :data:`_NO_SHELL_VALUE_FLAGS`, read as getopt
    does (a cluster ``-fN``; the value of ``-l fred``, ``-lfred``, ``-i key.pem`` is no flag), on
    both sides of the destination up to the command (see :func:`shell.ssh_words`). A letter of a
    value (``-o ForwardAgent=yes``, ``-lfred``) made ``ssh -lfred gpu01`` no login, and ``ssh -O
    exit gpu01`` or ``ssh -G gpu01`` a login, so the commands typed after it here were gpu01's."""
    dest_seen = False
    i = 1
    while i < len(words):
        word = words[i]
        if word == "--":
            return False
        if word[:1] != "-" or word == "-":
            if dest_seen:
                return False  # the remote command's first word: its flags are its own
            dest_seen, i = True, i + 1
            continue
        i += 1
        for j in range(1, len(word)):
            letter = word[j]
            if letter in shell.SSH_VALUE_FLAGS:
                if letter in _NO_SHELL_VALUE_FLAGS:
                    return True
                i += 0 if j < len(word) - 1 else 1  # the value is the rest of the word, or the next word
                break
            if letter in _NO_SHELL_FLAGS:
                return True
    return False


def _container_login(command: str, variables: dict[str, str | None] | None) -> tuple[str, str] | None:
    """(host, container) of an ssh whose remote command opens a shell in a container there:
    ``ssh -t gpu07 docker exec -it sglang bash``, ``ssh -t gpu07 'kubectl exec -it pod -- bash'``
    (:func:`_opens_subshell` of the remote command); None for any other command."""
    words = shell.split_words(command)
    if any(w in _CONTROL for w in words) or _ssh_opens_no_shell(words):
        return None
    remote = shell.ssh_words(words[1:]).remote
    if not remote or not _opens_subshell(remote):
        return None
    target = shell.target_with(command, variables) if variables else shell.parse_target(command)
    return (target.host, target.container) if target.host is not None and target.container is not None else None


def _opens_remote_shell(inner: str) -> bool:
    """The remote command ``ssh -t gpu02 ...`` runs ends in a shell the next lines are typed in:
    ``"cd ~/sglang && bash"``, ``"sudo -i"``, ``tmux attach``; not ``nvidia-smi -L``, ``tmux
    ls`` nor a bare ``python3`` (what is typed in a REPL is no shell command on the host)."""
    return waits_at_terminal(inner) in ("shell", "multiplexer")


_SUBSHELL_PROGRAMS = frozenset({"sudo", "su", "bash", "zsh", "sh", "dash", "docker", "podman", "kubectl",
                                "docker-compose", "podman-compose", "newgrp", "salloc", "apptainer",
                                "singularity"})
"""Programs that may open a shell on the same machine (:func:`_opens_subshell`); ``dash`` is the
``sh`` of Debian and Ubuntu, opened by name (``PS1="# " dash -i``)."""
_SHELLS = frozenset({"bash", "zsh", "sh", "fish", "/bin/bash", "/bin/sh", "/bin/zsh"})


def _opens_subshell(command: str) -> bool:
    """``command`` starts an interactive shell on the same machine, left with ``exit``: ``sudo
    -i``/``-s``, ``sudo su -``, ``su``, a bare ``bash``, or a shell in a container (``docker
    exec -it sglang bash``, ``kubectl exec -it pod -- bash``)."""
    words = shell.split_words(command)
    if any(w in _CONTROL for w in words):
        return False
    if words[0].rsplit("/", 1)[-1] == "env":
        # `env CUDA_VISIBLE_DEVICES=1 bash`, `env -i bash`: env runs the shell with those variables
        # (coreutils env(1): its options, -u NAME and -C DIR with a value, then NAME=VALUE, then
        # the command), which opens as a bare one does
        at = 1
        while at < len(words) and words[at][:1] == "-":
            at += 2 if words[at] in ("-u", "--unset", "-C", "--chdir") else 1
        at += _past_assignments(words[at:])
        return at < len(words) and words[at].rsplit("/", 1)[-1] in ("sudo", "su", "bash", "zsh", "sh", "dash") \
            and _opens_subshell(shlex.join(words[at:]))
    if "=" in words[0]:
        # `CUDA_VISIBLE_DEVICES=1 bash`: the variables are the shell's, it opens as a bare `bash`
        # does (bash(1), SIMPLE COMMAND EXPANSION); was no shell, so its `exit` left the login
        # it was typed in, and the commands after it were no longer that host's
        at = _past_assignments(words)
        if at == len(words):
            return False
        if words[at].rsplit("/", 1)[-1] not in ("docker", "podman"):
            return words[at].rsplit("/", 1)[-1] in _SUBSHELL_PROGRAMS and _opens_subshell(shlex.join(words[at:]))
    if "=" in words[0] or words[0].rsplit("/", 1)[-1] in ("docker", "podman"):
        words = _cli_words(words)
        if not words:
            return False
    program, args = words[0].rsplit("/", 1)[-1], words[1:]
    if program == "newgrp":
        # `newgrp docker` (after `usermod -aG docker $USER`) starts a new shell with the group, and
        # its `exit` goes back to the shell it was typed in (newgrp(1): "a new shell will be
        # started"); was none, so that `exit` left the ssh login and the later commands were not
        # the GPU host's
        return True
    if program in ("apptainer", "singularity"):
        # `apptainer shell --nv sglang.sif`: a shell in the image, its prompt "Apptainer> "
        # (apptainer docs, "Shell": the image's shell until `exit`), on the machine it was typed on
        return next((w for w in args if w[:1] != "-"), None) == "shell"
    if program == "salloc":
        # `salloc -N1 --gres=gpu:1` with no command runs the user's shell once it holds the
        # allocation, and `exit` there gives the allocation back ("salloc: Relinquishing job
        # allocation"; slurm.schedmd.com/salloc.html: "the user's default shell" when no command
        # is given); was none, so that `exit` left the ssh login to the cluster
        return not shell.slurm_step(words)
    if program in ("docker-compose", "podman-compose") or (program in ("docker", "podman") and args[:1] == ["compose"]):
        # `docker compose exec sglang bash`: compose's exec gives the shell a terminal unless told
        # not to, with no -it (docker/compose cmd/compose/exec.go: -T/--no-TTY, "By default
        # 'docker compose exec' allocates a TTY"); was no shell, its commands read as the host's
        # (`docker compose run --rm sglang bash` alike: a new container of the service, with a TTY)
        return ("exec" in args or "run" in args) and bool(args) and args[-1] in _SHELLS and "-T" not in args \
            and "--no-TTY" not in args
    if program not in ("docker", "podman", "kubectl"):
        return waits_at_terminal(command) == "shell"
    # docker|podman exec -it CONTAINER SHELL, kubectl exec -it POD -- SHELL; docker|podman run -it IMAGE SHELL
    return ("exec" in args[:2] or (program != "kubectl" and "run" in args[:2])) and bool(args) \
        and args[-1] in _SHELLS and any(a.startswith("-") and "i" in a for a in args)


_UNNAMED = "docker:"
"""The container of a ``docker run -it IMAGE bash`` given no ``--name``: docker names it at random
and its shell's prompt shows its id (the first 12 hex digits, its hostname: docs.docker.com,
container networking), which ``docker exec`` takes too: ``docker:`` + that id, once a prompt shows it."""


_GLOBAL_VALUE_FLAGS = frozenset({"-H", "--host", "-c", "--context", "--config", "-l", "--log-level"})
"""The docker CLI's own options before its command that take a value (docker/cli cli/flags/options.go)."""


def _past_assignments(words: list[str]) -> int:
    """Where the program of ``words`` is, past the variables set before it (``A=1 B=2 bash``)."""
    i = 0
    while i < len(words) and "=" in words[i] and words[i].split("=", 1)[0].isidentifier():
        i += 1
    return i


def _cli_words(words: list[str]) -> list[str]:
    """``words`` of a docker or podman command from the program on, without the variables set
    before it (``DOCKER_HOST=ssh://gpu07``) nor the CLI's own options (``-H ssh://gpu07``,
    ``--context gpu07``); empty for another program."""
    i = _past_assignments(words)
    if i >= len(words) or words[i].rsplit("/", 1)[-1] not in ("docker", "podman"):
        return []
    out, j = [words[i]], i + 1
    while j < len(words) and words[j][:1] == "-":
        j += 2 if words[j] in _GLOBAL_VALUE_FLAGS else 1
    return out + words[j:]


def _as_exec(command: str) -> str:
    """``command``, a ``docker|podman run``, as an exec of its CLI with the same variables before it
    and the same options of its own (``DOCKER_HOST=…``, ``-H``, ``--context``): it reaches the same
    daemon (docker/cli cli/command/cli.go, resolveContextName, for every subcommand), on whose host
    the container runs."""
    words = shell.split_words(command)
    cli = _cli_words(words)
    at = len(words) - len(cli) + 1  # `run`: cli is the program, then the words from `run` on
    return shlex.join(words[:at] + ["exec", "container", "sh"])


def _run_container(words: list[str]) -> str | None:
    """The container ``docker run -it ... IMAGE bash`` (:func:`_opens_subshell`, its words by
    :func:`_cli_words`) starts: ``docker:NAME`` for ``--name NAME``, else :data:`_UNNAMED`; None
    for any other command."""
    if words[1:2] == ["compose"]:  # `docker compose [-f FILE] run --rm sglang bash`
        at = 2
        while at < len(words) and words[at][:1] == "-":
            at += 2 if words[at] in shell.COMPOSE_ARG_OPTS else 1
        if words[at:at + 1] != ["run"]:
            return None
    elif "run" not in words[1:2]:
        return None
    for i, word in enumerate(words):
        if word == "--name" and i + 1 < len(words):
            return _UNNAMED + words[i + 1]
        if word.startswith("--name="):
            return _UNNAMED + word[len("--name="):]
    return _UNNAMED

"""Which shell commands print a secret's value bare, so that their output is masked whole.

redact.py's patterns find a secret by its shape (`hf_...`) or by the name before it (`password:
...`). A secret manager's CLI asked for the value alone prints neither: `aws secretsmanager
get-secret-value --query SecretString --output text` prints the string and a new line, as do
`az keyvault secret show --query value -o tsv`, `gcloud secrets versions access latest
--secret=X` (the payload, raw, by default), `vault kv get -field=password`, `terraform output
-raw db_password` and `kubectl get secret x -o jsonpath='{.data.token}' | base64 -d`. A step
that runs one (a playbook reading its API key on an EC2 or GKE host, to check it) recorded the
value in clear: run.json, the reports, the step's artifact. Only the command says what its output
is. prints_secret_value reads the command, as the shell would split it, and says whether what
it prints on standard output is such a value.

The output counts only when it reaches the step's standard output: the secret command is not
inside `$(...)` (`TOKEN=$(vault kv get -field=token ...)` prints nothing), its output is not
redirected (`> file`, `>/dev/null`), and every command it is piped into passes the value on
(`| base64 -d`, `| jq -r .password`, `| tr -d '\\n'`), not one that consumes it (`| docker login
--password-stdin`, `| wc -c`, `| sha256sum`). `echo "$(...)"` of one prints it, and so does a
command that runs one elsewhere (`ssh gpu02 cat /run/secrets/hf_token`, `docker exec vllm ...`,
`docker run --rm -e HF_TOKEN IMAGE printenv HF_TOKEN`).
A secret also reaches a command that passes it on as a file or on its standard input (`diff
<(vault ...) <(vault ...)`, `tr -d '\\n' < /run/secrets/hf_token`, `base64 -d <<< "$TOKEN"`, an
unquoted heredoc's `$(...)`), and a shell runs a heredoc's body as its script. A variable named
for a secret, set outside the step (`printenv VLLM_API_KEY`, `echo "$HF_TOKEN"`), is one too.
"""

from __future__ import annotations

import re
import shlex

from spec_debug.redact import is_secret_name
from spec_debug.shell_split import complete_shell_words, heredocs, redirection

_GATE = ("secret", "ssm", "vault", "output", "jq", "yq", "bao", "token", "key", "pass", "pwd", "op", "bw", "pat",
         "SECRET", "TOKEN", "KEY", "PASS", "PWD", "PAT", "Secret", "Token", "Key", "Pass")
"""Words one of the commands below holds (a step's command is read once per step: cheap)."""

_WRAPPERS = {"sudo", "env", "command", "exec", "nohup", "time", "timeout", "stdbuf", "nice", "!", "{", "then", "do",
             "else", "if", "while", "until", "elif"}
"""Words before a command that run it, its output still the step's: `sudo -u app vault ...`,
`timeout 10 aws ...`, a shell's keywords (`if vault kv get -field=x ...; then`)."""

_WRAPPER_ARG_FLAGS = {"sudo": {"-u", "-g", "-p", "-C", "-D", "-h", "-r", "-t", "-U", "-T"}, "nice": {"-n"},
                      "timeout": {"-s", "-k", "--signal", "--kill-after"}, "env": {"-u", "-C", "--unset", "--chdir"}}
"""Their options that take the next word (sudo(8), nice(1), timeout(1), env(1)): `sudo -u app vault ...`."""

_PASS_ON = {"base64", "jq", "gojq", "yq", "tr", "head", "tail", "cut", "sed", "awk", "gawk", "xargs", "cat", "tee",
            "sort", "uniq", "fold", "rev", "xxd", "od", "hexdump", "basenc", "strings", "paste", "comm", "join",
            "diff", "sdiff"}
"""Commands that print what they are given, changed but still the value (decoded, a field of
it, its first line, in hex, the lines where two differ): the secret goes on to the step's output
through them, on their standard input or as a file (`diff <(vault ...) <(vault ...)`)."""

_FILE_PRINTERS = {"cat", "head", "tail", "tac", "nl", "more", "less", "xxd", "od", "hexdump", "base64", "basenc",
                  "strings", "cut", "fold", "rev", "sort", "uniq"}
"""Commands that print the files they are given (no script or pattern before them), the value
as it is or in another form: `od -c /run/secrets/hf_token` and `xxd` (is there a new line or a
carriage return at its end, the 401 whose key looks right), `base64 ~/.vllm_api_key`."""

_GREP = {"grep", "egrep", "fgrep", "rg"}
_GREP_SILENT = re.compile(r"-[A-Za-z]*[cqlL]|--(?:count|quiet|silent|files-with(?:out)?-matches)$").match
"""grep's options that print no matched line: a count, nothing, a file's name."""


def prints_secret_value(command: str) -> bool:
    """Whether ``command`` prints a secret's value bare on its standard output (the module's doc)."""
    if not any(word in command for word in _GATE):
        return False
    tokens = _tokens(command)
    return tokens is not None and _script_prints(tokens)


_Token = tuple[str, bool]
"""A word (quotes removed) or an operator (True), as shell_split.py splits a command line."""


def _tokens(command: str) -> list[_Token] | None:
    """``command``'s words and operators as the shell splits them (shell_split.py, the splitter
    the session analyzer reads commands with), a new line one operator, a backquoted command the
    ``$(...)`` it is the old form of (bash(1), Command Substitution); None for a command no shell
    would run (an unclosed quote)."""
    if "\\\n" in command:  # a line continuation: bash removes it before it reads words
        command = command.replace("\\\n", "")
    if "`" in command:
        command = _backquotes_as_dollar(command)
    if "<<" not in command:
        return complete_shell_words(command)
    # heredoc bodies are what their commands read, not commands: out of the text, each in the
    # place of its delimiter word (`cat <<EOF`: the body where EOF was)
    parts, bodies, pos = [], [], 0
    for op, start, body_end, end in heredocs(command):
        parts.append(command[pos:start])
        bodies.append(_HereDoc(command[start:body_end]))
        # `<<'EOF'`, `<<"EOF"`, `<<\EOF`: the body as written, nothing in it expanded (bash(1))
        bodies[-1].expanded = not op.group(2) and "\\" not in op.group(0)
        pos = end
    parts.append(command[pos:])
    tokens = complete_shell_words("".join(parts))
    if tokens is not None and bodies:
        at = iter(bodies)
        for i in range(len(tokens) - 1):
            word, is_op = tokens[i + 1]
            if tokens[i] == ("<<", True) and not is_op and not word.lstrip("-").isdigit():
                body = next(at, None)
                if body is None:
                    break
                tokens[i + 1] = (body, False)
    return tokens


class _HereDoc(str):
    """A heredoc's body, standing as the word after its ``<<``."""

    expanded = True
    """Whether the shell expands ``$(...)`` and ``$NAME`` in it (its delimiter unquoted)."""


def _backquotes_as_dollar(command: str) -> str:
    """``command`` with each `` `...` `` outside single quotes written ``$(...)``."""
    out = []
    quote, escaped, inside = None, False, False
    for ch in command:
        if escaped:
            escaped = False
        elif ch == "\\" and quote != "'":
            escaped = True
        elif ch == "`" and quote != "'":
            ch, inside = (")" if inside else "$("), not inside
        elif quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        out.append(ch)
    return "".join(out)


def _script_prints(tokens: list[_Token]) -> bool:
    """Whether a command among ``tokens`` (a script) sends a secret's value to its output: itself,
    or echo/printf of it (`echo "$(vault kv get -field=password ...)"`, or of a variable set to it
    earlier in the script: `DB_PASS=$(vault kv get -field=password db); echo "$DB_PASS"`)."""
    secret_vars: list[str] = []
    aws_output = None  # AWS_DEFAULT_OUTPUT set by the script (`export AWS_DEFAULT_OUTPUT=text`)
    for pipeline in _pipelines(tokens):
        printing = False
        for words, nested, redirected, read in pipeline:
            from_secret = bool(nested) and any(_script_prints(n) for n in nested)
            # what it reads, a secret: `diff <(vault ...) <(vault ...)`, `base64 -d <<< "$TOKEN"`
            reads_secret = any(_reads_secret(r, secret_vars) for r in read)
            if from_secret:  # `NAME=$(...)`, `export NAME="$(...)"`: NAME holds the value
                secret_vars += [m.group(1) for m in map(_ASSIGNED, words) if m is not None]
            output = next((w[19:] for w in words if w.startswith("AWS_DEFAULT_OUTPUT=")), None)
            words = _command_words(words)
            if output is not None and (not words or words[0] in ("export", "declare", "readonly")):
                aws_output = output  # set for the commands after it
            elif words[:1] == ["aws"] and _option(words, "--output") is None and (output or aws_output):
                # the CLI's output format when --output is not given (docs.aws.amazon.com/cli,
                # "Setting the output format": the AWS_DEFAULT_OUTPUT environment variable)
                words = [*words, "--output", output or aws_output]
            if printing or reads_secret:
                # `$(< /run/secrets/hf_token)`: bash's cat of the file (bash(1), Command Substitution)
                printing = _passes_on(words) or reads_secret and not words
            if not printing:
                printing = _prints_value(words) or bool(words) and words[0] in ("echo", "printf") and (
                    from_secret or any(_names_var(" ".join(words[1:]), name) for name in secret_vars)
                    or any(_expands_secret_name(w) for w in words[1:]))
            if not printing and read and _reads_script(words):  # `bash <<'EOF'`, `ssh gpu02 <<EOF`
                scripts = [_tokens(r) for r in read if isinstance(r, str)]
                printing = any(t is not None and _script_prints(t) for t in scripts)
            if redirected:
                printing = False
        if printing:
            return True
    return False


_ASSIGNED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)=(?:$|\$\()").match


def _names_var(text: str, name: str) -> bool:
    """Whether ``text`` (words joined by spaces) expands ``name`` (`$NAME`, `${NAME}`)."""
    return re.search(r"\$ ?\{?" + re.escape(name) + r"(?![A-Za-z0-9_])", text) is not None


def _reads_secret(read: list[_Token] | str, secret_vars: list[str]) -> bool:
    """Whether what a command reads (a process substitution's tokens, a here-string's word, a
    heredoc's body) holds a secret's value: `<<< "$(vault ...)"`, `<<< "$TOKEN"`, a heredoc's
    `token: $(vault kv get -field=token ...)` line."""
    if isinstance(read, list):
        return _script_prints(read)
    if isinstance(read, _HereDoc) and not read.expanded:
        return False
    for inner in _substitutions(read):
        tokens = _tokens(inner)
        if tokens is not None and _script_prints(tokens):
            return True
    return any(_names_var(read, name) for name in secret_vars)


def _substitutions(text: str):
    """The command of each ``$(...)`` in ``text`` (a heredoc's body, a here-string's word)."""
    start = text.find("$(")
    while start >= 0:
        depth, j = 0, start + 1
        while j < len(text):
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            if depth == 0:
                break
            j += 1
        yield text[start + 2:j]
        start = text.find("$(", j)


def _reads_script(words: list[str]) -> bool:
    """Whether the command ``words`` runs what it reads on its standard input as a script: a shell
    without -c (`bash`, `sudo sh -s`), an ssh with no command (the login shell runs it on the host)
    or a shell as the command of an ssh, `docker exec -i` or `kubectl exec -i`: its output comes
    back to this step's."""
    if not words:
        return False
    inner = _inner_command(words) if words[0] not in _SHELLS else None
    if inner is not None or words[0] == "ssh":
        words = inner.split() if inner else []
        if not words:
            return inner is None  # `ssh gpu02 <<EOF`: the login shell
    return words[0].rsplit("/", 1)[-1] in _SHELLS and not any(
        w.startswith("-") and not w.startswith("--") and "c" in w for w in words[1:])


_SHELLS = {"bash", "sh", "dash", "zsh", "ksh"}


_EXPANSION = re.compile(r"\$(?:\{(?P<braced>[A-Za-z_][A-Za-z0-9_]*)(?P<op>:?\+)?|(?P<bare>[A-Za-z_][A-Za-z0-9_]*))")
"""A variable's expansion: `$NAME`, `${NAME}`, `${NAME:-x}`, `${NAME:0:8}`; `${NAME:+x}` (op)
gives x where NAME is set, not its value; `${#NAME}` (its length) and `${!NAME}` do not match."""


def _expands_secret_name(word: str) -> bool:
    """Whether ``word`` expands a variable named for a secret to its value (`"$VLLM_API_KEY"`,
    `${HF_TOKEN}`): one the host's environment holds, set outside the step, whose value no pattern
    knows (bash(1), Parameter Expansion)."""
    return "$" in word and any(m.group("op") is None and is_secret_name(m.group("braced") or m.group("bare"))
                               for m in _EXPANSION.finditer(word))


def _pipelines(tokens: list[_Token]):
    """Each pipeline of ``tokens``: a list of its commands as (words, the token lists of the command
    substitutions in them, whether its standard output is redirected, what it reads as a file or on
    its standard input: the token lists of process substitutions, `<(...)`, and here-strings' words)."""
    pipeline: list[tuple[list[str], list[list[_Token]], bool, list]] = []
    words: list[str] = []
    nested: list[list[_Token]] = []
    read: list[list[_Token] | str] = []
    redirected = False
    i = 0
    while i < len(tokens):
        token, is_op = tokens[i]
        if not is_op and token.startswith("#") and not words:  # a comment, to the line's end
            while i < len(tokens) and tokens[i] != ("\n", True):
                i += 1
            continue
        if _opens_substitution(tokens, i):  # $(...), <(...), >(...): `NAME=$(`, its word before
            if not is_op and token != "$":
                words.append(token[:-1])
            end = _closing(tokens, i + 1)
            if not is_op:
                nested.append(tokens[i + 2:end])
            elif token == "<":  # a file it reads: `diff <(vault ...) <(vault ...)`
                read.append(tokens[i + 2:end])
            i = end + 1
            continue
        if is_op and not ("<" in token or ">" in token):  # | |& ; && || & ( ) ;; and a new line
            pipeline.append((words, nested, redirected, read))
            words, nested, read, redirected = [], [], [], False
            if token not in ("|", "|&"):
                yield pipeline
                pipeline = []
            i += 1
            continue
        if is_op:  # a redirection, then its file
            fd, token = redirection(token)  # `2>/dev/null`: the splitter's one operator, "2>"
            if ">" in token and fd in ("", "1"):  # the standard output to a file, /dev/null, stderr
                redirected = redirected or not (token == ">&" and tokens[i + 1:i + 2] == [("1", False)])
            if _opens_substitution(tokens, i + 1):  # `< <(vault ...)`, `<<< $(vault ...)`
                end = _closing(tokens, i + 2)
                if token in ("<", "<<<"):
                    read.append(tokens[i + 3:end])
                i = end + 1
                continue
            if token == "<" and i + 1 < len(tokens) and not tokens[i + 1][1] and _secret_file(tokens[i + 1][0]):
                read.append([("cat", False), tokens[i + 1]])  # `tr -d '\n' < /run/secrets/hf_token`
            if token in ("<<<", "<<") and i + 1 < len(tokens) and not tokens[i + 1][1]:
                if token == "<<<" or isinstance(tokens[i + 1][0], _HereDoc):
                    read.append(tokens[i + 1][0])  # `base64 -d <<< "$TOKEN"`, a heredoc's body
            i += 2
            continue
        if "$(" in token:  # a word in double quotes: "$(vault kv get -field=x ...)"
            inner = _tokens(token[token.find("$(") + 2:token.rfind(")")])
            if inner is not None:
                nested.append(inner)
        words.append(token)
        i += 1
    pipeline.append((words, nested, redirected, read))
    yield pipeline


def _opens_substitution(tokens: list[_Token], at: int) -> bool:
    """Whether ``tokens[at]`` opens a command or process substitution: a word ending in ``$``
    (``$``, ``NAME=$``) or a ``<``/``>`` operator, with a ``(`` after it."""
    if at + 1 >= len(tokens) or tokens[at + 1] != ("(", True):
        return False
    token, is_op = tokens[at]
    return token in ("<", ">") if is_op else token.endswith("$")


def _closing(tokens: list[_Token], at: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``at`` (the end if none)."""
    depth = 0
    for j in range(at, len(tokens)):
        if tokens[j] == ("(", True):
            depth += 1
        elif tokens[j] == (")", True):
            depth -= 1
            if depth <= 0:
                return j
    return len(tokens)


def _command_words(words: list[str]) -> list[str]:
    """``words`` from the command's name on: less the variables set for it (`AWS_PROFILE=prod
    aws ...`) and the words that run it (_WRAPPERS, with their options), the name's folder."""
    i = 0
    while i < len(words):
        word = words[i]
        if re.match(r"[A-Za-z_][A-Za-z0-9_]*=", word):
            i += 1
        elif word.rsplit("/", 1)[-1] in _WRAPPERS:
            name = word.rsplit("/", 1)[-1]
            i += 1
            while i < len(words) and (words[i].startswith("-") or name == "timeout" and words[i][:1].isdigit()):
                i += 2 if words[i] in _WRAPPER_ARG_FLAGS.get(name, ()) else 1
        else:
            break
    rest = words[i:]
    return [rest[0].rsplit("/", 1)[-1], *rest[1:]] if rest else []


def _option(words: list[str], *names: str) -> str | None:
    """The value of the last of ``names`` in ``words`` (`--query X`, `--query=X`, `-oX`), else None."""
    found = None
    for i, word in enumerate(words):
        for name in names:
            if word == name and i + 1 < len(words):
                found = words[i + 1]
            elif word.startswith(name + "="):
                found = word[len(name) + 1:]
            elif len(name) == 2 and word.startswith(name) and len(word) > 2 and not word.startswith("--"):
                found = word[2:]
    return found


def _passes_on(words: list[str]) -> bool:
    """Whether a command given the secret on its input prints it on (still the value)."""
    if not words:
        return False
    name = words[0]
    if name in _GREP:
        return not any(_GREP_SILENT(w) for w in words[1:])
    if name in ("diff", "sdiff"):  # -q/--brief: only whether they differ
        return not any(w in ("-q", "--brief") for w in words[1:])
    if name == "openssl":
        return "base64" in words or "-base64" in words or "-a" in words
    return name in _PASS_ON


def _prints_value(words: list[str]) -> bool:
    """Whether the command ``words`` itself prints a secret's value bare."""
    if not words:
        return False
    inner = _inner_command(words)
    if inner is not None:
        tokens = _tokens(inner)
        return tokens is not None and _script_prints(tokens)
    name = words[0]
    if name == "aws":
        return _aws(words)
    if name == "az":
        return _az(words)
    if name == "gcloud":
        return _gcloud(words)
    if name in ("vault", "bao"):  # HashiCorp Vault, OpenBao: -field prints that field alone
        return any(w in ("-field", "--field") or w.startswith(("-field=", "--field=")) for w in words[1:])
    if name in ("terraform", "tofu", "terragrunt"):
        return _terraform(words)
    if name in ("kubectl", "oc"):
        return _kubectl(words)
    if name in ("jq", "gojq", "yq"):
        return _jq(words)
    if name in _FILE_PRINTERS:
        return any(_secret_file(w) for w in words[1:] if not w.startswith("-"))
    if name == "printenv":  # `printenv VLLM_API_KEY`: that variable's value alone (printenv(1))
        return any(is_secret_name(w) for w in words[1:] if not w.startswith("-"))
    if name.startswith("python") and "-c" in words:  # `python3 -c 'import os; print(os.environ["HF_TOKEN"])'`
        script = _option(words, "-c") or ""
        return "print" in script and any(is_secret_name(m.group(1)) for m in _PRINTED_ENV(script))
    return _password_manager(words)


_PRINTED_ENV = re.compile(r"""print\(\s*(?:os\.)?(?:environ(?:\.get)?\s*[\[(]|getenv\s*\()\s*["']([A-Za-z_][A-Za-z0-9_]*)["']""").finditer
"""A Python script's print of an environment variable's value: `print(os.environ["HF_TOKEN"])`,
`print(os.getenv('VLLM_API_KEY'))` (not `print(len(os.environ["HF_TOKEN"]))`)."""


_SSH_ARG_FLAGS = frozenset("BbcDEeFIiJLlmOoPpQRSWw")
"""ssh(1)'s options that take the next word (`-p 2222`, `-o BatchMode=yes`, `-J bastion`)."""
_DOCKER_EXEC_ARG_FLAGS = {"-e", "--env", "-u", "--user", "-w", "--workdir", "--env-file", "--detach-keys", "--index"}


def _inner_command(words: list[str]) -> str | None:
    """The command that ``words`` runs elsewhere, its output still on this step's stdout: `bash -c
    'vault kv get -field=x ...'`, `ssh gpu02 cat /run/secrets/hf_token`, `docker exec vllm cat
    /run/secrets/hf_token`, `docker run --rm IMAGE printenv HF_TOKEN`, `kubectl exec pod -- cat ...`;
    None for any other command."""
    name, rest = words[0], words[1:]
    if name in ("bash", "sh", "dash", "zsh"):
        for i, word in enumerate(rest[:-1]):
            if word.startswith("-") and not word.startswith("--") and word.endswith("c"):
                return rest[i + 1]
        return None
    if name == "ssh":
        i = 0
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if len(rest[i]) == 2 and rest[i][1] in _SSH_ARG_FLAGS else 1
        return " ".join(rest[i + 1:]) or None
    if name in ("docker", "podman", "nerdctl", "docker-compose", "podman-compose"):
        i = _exec_at(name, rest)
        if i is None:
            run_at = 2 if rest[:2] == ["container", "run"] else 1 if rest[:1] == ["run"] else None
            return _run_command(rest, run_at) if run_at is not None and name in ("docker", "podman", "nerdctl") else None
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if rest[i] in _DOCKER_EXEC_ARG_FLAGS else 1
        return shlex.join(rest[i + 1:]) or None
    if name == "su" or name == "gcloud" and rest[:2] == ["compute", "ssh"]:  # `su - app -c CMD`, `--command CMD`
        return _option(rest, "--command") if name == "gcloud" else _option(rest, "-c", "--command")
    if name == "srun":  # Slurm: the command on the job's nodes, its output this step's
        return _srun_command(rest)
    if name in ("kubectl", "oc") and "exec" in rest and "--" in rest:
        return shlex.join(rest[rest.index("--") + 1:]) or None
    return None


_DOCKER_RUN_ARG_FLAGS = {
    "-a", "--attach", "--add-host", "--annotation", "--blkio-weight", "--blkio-weight-device", "--cap-add", "--cap-drop",
    "--cgroup-parent", "--cgroupns", "--cidfile", "-c", "--cpu-shares", "--cpu-period", "--cpu-quota", "--cpus",
    "--cpuset-cpus", "--cpuset-mems", "--detach-keys", "--device", "--device-cgroup-rule", "--dns", "--dns-option",
    "--dns-search", "--domainname", "--entrypoint", "-e", "--env", "--env-file", "--expose", "--gpus", "--group-add",
    "--health-cmd", "--health-interval", "--health-retries", "--health-start-period", "--health-timeout", "-h",
    "--hostname", "--ip", "--ip6", "--ipc", "--isolation", "-l", "--label", "--label-file", "--link", "--log-driver",
    "--log-opt", "--mac-address", "-m", "--memory", "--memory-reservation", "--memory-swap", "--memory-swappiness",
    "--mount", "--name", "--network", "--net", "--network-alias", "--oom-score-adj", "--pid", "--pids-limit",
    "--platform", "-p", "--publish", "--pull", "--restart", "--runtime", "--security-opt", "--shm-size",
    "--stop-signal", "--stop-timeout", "--storage-opt", "--sysctl", "--tmpfs", "-u", "--user", "--userns", "--uts",
    "-v", "--volume", "--volume-driver", "--volumes-from", "-w", "--workdir", "--ulimit"}
"""`docker run`'s options that take the next word (docs.docker.com/reference/cli/docker/container/run;
podman's and nerdctl's the same): `-e HF_TOKEN`, `-v /models:/models`, `--gpus all`, `--shm-size 16g`."""


def _run_command(rest: list[str], at: int) -> str | None:
    """The command a `docker run` (its options from ``rest[at]``) runs in its new container, its
    `--entrypoint` first (`docker run --rm -e HF_TOKEN lmsysorg/sglang printenv HF_TOKEN`: the
    container's output is this step's); None for one that runs detached (`-d`: the container's id
    is what it prints)."""
    i, entrypoint = at, None
    while i < len(rest) and rest[i].startswith("-"):
        word = rest[i]
        if word in ("-d", "--detach") or not word.startswith("--") and word[1:].isalpha() and "d" in word[1:]:
            return None  # -d, -itd, -dit
        if word == "--entrypoint" and i + 1 < len(rest):
            entrypoint = rest[i + 1]
        elif word.startswith("--entrypoint="):
            entrypoint = word.split("=", 1)[1]
        i += 2 if word in _DOCKER_RUN_ARG_FLAGS else 1
    args = rest[i + 1:]  # the words after the image
    return shlex.join([entrypoint, *args] if entrypoint else args) or None


_SRUN_ARG_FLAGS = frozenset("ABCDGJLMNSTWbcdeimnopqtwx")
"""srun(1)'s short options that take the next word (`-p gpu`, `-N 1`, `-G 1`, `-w node01`)."""
_SRUN_BOOLEANS = {"--pty", "--exclusive", "--overlap", "--label", "--unbuffered", "--verbose", "--quiet", "--immediate",
                  "--kill-on-bad-exit", "--no-kill", "--exact", "--overcommit", "--oversubscribe", "--test-only",
                  "--disable-status", "--contiguous", "--multi-prog", "--no-allocate", "--preserve-env",
                  "--reboot", "--spread-job", "--use-min-nodes", "--x11", "--whole"}
"""srun(1)'s long options that take no value; any other one without `=` takes the next word
(`--gres gpu:1`, `--time 10`)."""


def _srun_command(rest: list[str]) -> str | None:
    """The command `srun [options] CMD ...` runs on the job's nodes (slurm.schedmd.com/srun.html):
    `srun -p gpu -N 1 --gres=gpu:1 cat /run/secrets/hf_token`."""
    i = 0
    while i < len(rest) and rest[i].startswith("-"):
        word = rest[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--"):
            i += 1 if "=" in word or word in _SRUN_BOOLEANS else 2
        else:
            i += 2 if len(word) == 2 and word[1] in _SRUN_ARG_FLAGS else 1
    return shlex.join(rest[i:]) or None


_COMPOSE_ARG_FLAGS = {"-f", "--file", "-p", "--project-name", "--env-file", "--profile", "--project-directory",
                      "--ansi", "--parallel", "--progress"}
"""docker compose's options before its command that take the next word (docs.docker.com, docker compose)."""


def _exec_at(name: str, rest: list[str]) -> int | None:
    """Where the options of ``rest``'s exec start: `docker exec`, `docker container exec`, `docker
    compose [-f x] exec`, `docker-compose exec` (a service's container, its command's output this
    step's); None for any other of their commands."""
    if name.endswith("-compose") or rest[:1] == ["compose"]:
        i = 0 if name.endswith("-compose") else 1
        while i < len(rest) and rest[i].startswith("-"):
            i += 2 if rest[i] in _COMPOSE_ARG_FLAGS else 1
        return i + 1 if rest[i:i + 1] == ["exec"] else None
    if rest[:2] == ["container", "exec"]:
        return 2
    return 1 if rest[:1] == ["exec"] else None


def _password_manager(words: list[str]) -> bool:
    """A password manager's CLI asked for a secret's value alone: 1Password's `op read
    op://vault/item/field` (developer.1password.com/docs/cli/reference/commands/read), `op item get
    ITEM --fields password --reveal`; Doppler's `doppler secrets get NAME --plain`; Bitwarden's `bw
    get password ITEM`; pass(1)'s `pass show NAME` (and `pass NAME`, which is show)."""
    name, rest = words[0], words[1:]
    if name == "op":
        return rest[:1] == ["read"] or rest[:2] == ["item", "get"] and any(
            w in ("--fields", "--field") or w.startswith(("--fields=", "--field=")) for w in rest)
    if name == "doppler":
        return rest[:2] == ["secrets", "get"] and "--plain" in rest
    if name == "bw":
        return rest[:1] == ["get"] and rest[1:2] in (["password"], ["totp"], ["notes"])
    if name == "pass":
        return bool(rest) and (rest[0] == "show" or not rest[0].startswith("-") and rest[0] not in (
            "ls", "list", "find", "search", "grep", "insert", "add", "edit", "generate", "rm", "remove", "delete",
            "mv", "rename", "cp", "copy", "git", "init", "help", "version"))
    return False


def _secret_file(path: str) -> bool:
    """A file that holds one secret, its value alone: one that Docker or Kubernetes mounts a secret
    as (`/run/secrets/<name>`: docs.docker.com, "Manage sensitive data with Docker secrets"; a
    Secret's volume, each key a file), or one named for a secret (`~/.vllm_api_key`,
    `/etc/vllm/api-key.txt`, `~/.cache/huggingface/token`), read with `cat /run/secrets/hf_token`
    to see that it is there. Not /etc/passwd (accounts, no password in it) nor a service account's
    ca.crt or namespace."""
    if path.startswith(("/run/secrets/", "/var/run/secrets/")):
        return not path.endswith(("/ca.crt", "/namespace"))
    if path.endswith(("/.pgpass", "/pgpass.conf")) or path in (".pgpass", "pgpass.conf"):
        # PostgreSQL's password file: `host:port:database:user:password` lines (postgresql.org/docs,
        # "The Password File"; pgpass.conf on Windows), no name before the password for a pattern
        return True
    base = path.rsplit("/", 1)[-1].lstrip(".")
    stem = base.rsplit(".", 1)[0] if "." in base else base
    return path != "/etc/passwd" and bool(stem) and is_secret_name(stem)


def _aws(words: list[str]) -> bool:
    # docs.aws.amazon.com/cli: `--query` a JMESPath expression, `--output` json (the default),
    # text, table, yaml, yaml-stream. JSON and YAML name the value (SecretString, SecureString's
    # Value: redact.py reads them); text and a query of the value alone print it bare.
    query, output = _option(words, "--query"), _option(words, "--output")
    if "secretsmanager" in words and any(w in ("get-secret-value", "batch-get-secret-value") for w in words):
        if query is not None:
            return "SecretString" in query or "SecretBinary" in query
        return output in ("text", "table")
    if "ssm" in words and "--with-decryption" in words and any(
            w in ("get-parameter", "get-parameters", "get-parameters-by-path", "get-parameter-history") for w in words):
        if query is not None:
            return "Value" in query
        return output in ("text", "table", "yaml", "yaml-stream")
    if "get-login-password" in words:  # `aws ecr get-login-password`: the registry's password alone
        return True
    if words[1:3] == ["configure", "get"]:  # `aws configure get aws_secret_access_key`: that value alone
        names = [w for w in words[3:] if not w.startswith("-")]
        return bool(names) and is_secret_name(names[0].rsplit(".", 1)[-1])
    # --query of a field named for a secret prints its value alone, a JSON string in quotes by
    # default (`aws sts get-session-token --query Credentials.SessionToken`, `aws codeartifact
    # get-authorization-token --query authorizationToken --output text`)
    field = _QUERY_LAST_FIELD(query) if query is not None else None
    return field is not None and is_secret_name(field.group(1))


_QUERY_LAST_FIELD = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)[^A-Za-z0-9_]*$").search
"""The last field a JMESPath query names (`Credentials.SessionToken`, `[AccessKeyId, SecretAccessKey]`)."""


def _az(words: list[str]) -> bool:
    # learn.microsoft.com/cli/azure/keyvault/secret: `show` returns the secret with its `value`;
    # `-o` json (the default), jsonc, yaml, yamlc, table, tsv, none.
    query, output = _option(words, "--query"), _option(words, "--output", "-o")
    if query is not None and _az_lists_keys(words):
        # `az storage account keys list -g rg -n acct --query [0].value -o tsv`: the key alone, no
        # name before it (the whole list is keyName/permissions/value, which redact.py reads)
        field = _QUERY_LAST_FIELD(query)
        return field is not None and (field.group(1) == "value" or field.group(1).lower().endswith("key")
                                      or is_secret_name(field.group(1)))
    if not ("keyvault" in words and "secret" in words and "show" in words):
        return False
    if query is not None:
        return "value" in query
    return output in ("tsv", "table")


def _az_lists_keys(words: list[str]) -> bool:
    """An az command that returns a resource's access keys or credentials: `storage account keys
    list`, `cosmosdb keys list`, `cognitiveservices account keys list`, `redis list-keys`, `acr
    credential show` (learn.microsoft.com/cli/azure: each a list of key names and values)."""
    return "keys" in words and ("list" in words or "show" in words) or "list-keys" in words or (
        "credential" in words and "show" in words)


def _gcloud(words: list[str]) -> bool:
    # cloud.google.com/sdk/gcloud/reference/secrets/versions/access: "the payload is printed as
    # raw bytes" unless a --format is given; --out-file writes it to a file instead.
    at = [i for i, w in enumerate(words) if w == "secrets"]
    if not at or words[at[0] + 1:at[0] + 3] != ["versions", "access"] or _option(words, "--out-file") is not None:
        return False
    fmt = _option(words, "--format")
    return fmt is None or "payload" in fmt and not fmt.startswith(("json", "yaml"))


def _terraform(words: list[str]) -> bool:
    # developer.hashicorp.com/terraform/cli/commands/output: `terraform output NAME` prints the
    # value even where the output is sensitive; `-raw` without its quotes. Only a secret's name:
    # `terraform output -raw instance_ip` is the host to reach, no secret.
    if "output" not in words:
        return False
    names = [w for w in words[words.index("output") + 1:] if not w.startswith("-")]
    return bool(names) and is_secret_name(names[0])


def _kubectl(words: list[str]) -> bool:
    # A Secret's data field through -o jsonpath or a go-template (kubernetes.io, "Managing
    # Secrets using kubectl": `kubectl get secret db-user-pass -o jsonpath='{.data.password}' |
    # base64 --decode`); base64 or decoded, it is the value.
    if "get" not in words or not any(w in ("secret", "secrets") or w.startswith(("secret/", "secrets/")) for w in words):
        return False
    return any(re.search(r"\{\{?-?\s*\.(?:data|stringData)\b", w) for w in words)


_JQ_LAST_FIELD = re.compile(r"""\.(?:"(?P<quoted>[^"]+)"|(?P<bare>[A-Za-z_][\w-]*))\s*$|\[\s*["'](?P<key>[^"']+)["']\s*\]\s*$""")


_KEEPS_VALUE = re.compile(r"@(?:base64d?|base32d?|text|sh|json|uri)|tostring|ascii_(?:down|up)case|[lr]?trim"
                         r"|[lr]trimstr\(.*\)").fullmatch
"""jq filters that print the value they are given, decoded or changed (jq manual, "Format strings
and escaping", "Builtin operators and functions"): `kubectl get secret hf -o json | jq -r
'.data.token | @base64d'` prints the token."""


def _jq(words: list[str]) -> bool:
    # `jq -r .password`, `jq -r '.data.token'`, `yq '.auth.api_key'`: the field a filter ends in, a
    # secret's name (is_secret_name, as redact_value reads a key), printed alone.
    flags_with_value = {"--arg", "--argjson", "--slurpfile", "--rawfile", "-f", "--from-file", "--indent", "--args"}
    i = 1
    while i < len(words) and words[i].startswith("-"):
        i += 3 if words[i] in ("--arg", "--argjson", "--slurpfile", "--rawfile") else 2 if words[i] in flags_with_value else 1
    if i >= len(words):
        return False
    stages = words[i].split("|")
    while len(stages) > 1 and _KEEPS_VALUE(stages[-1].strip()):  # `.data.token | @base64d`
        stages.pop()
    last = stages[-1].split("//", 1)[0].strip()
    m = _JQ_LAST_FIELD.search(last)
    return m is not None and is_secret_name(m.group("quoted") or m.group("bare") or m.group("key"))

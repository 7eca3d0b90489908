"""The paste readers of the launch audit: a server's command written into something else and
pasted whole (a Markdown runbook table, a Dockerfile's exec form, a Kubernetes manifest or
`kubectl describe`, a compose file with its `.env`, `docker ps` / `docker inspect` output, vLLM
production-stack Helm values, a YAML list of `args:`, a `--config` file, a SkyPilot task).

Each turns its text into the argv the runtime would start, or returns None for any other text;
launch.py reads that argv as it reads a typed command. The readers need two things of that argv
reader (which server command a list of words holds, and whether it starts a server): launch.py
passes them in as an ArgvReader, as launch.py imports this module and not the other way round.
"""

from __future__ import annotations

import ast
import json
import re
import shlex
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import yaml

from spec_debug.diagnose.launch_errors import LaunchParseError
from spec_debug.diagnose.launch_scan import split_keeping_json
from spec_debug.probes.launch_flags import SPECULATIVE_FLAG


@dataclass(frozen=True)
class ArgvReader:
    """What the paste readers ask of launch.py's argv reader."""

    server_argv: Callable[[list[str]], list[str]]  # the server's command among a line's words
    is_server: Callable[[list[str]], bool]  # whether those words start an SGLang or vLLM server
    script_argv: Callable[[str], list[str]]  # the server's command in a shell script's text


def pasted_argv(text: str, reader: ArgvReader) -> list[str] | None:
    """The argv a pasted container spec / runtime listing / config file starts, tried in the
    order that keeps each reader from taking another's text (a JSON exec form before the YAML
    readers, which would also load it; a compose file with its .env before the compose file
    alone), or None."""
    exec_form = _json_argv(text)
    if exec_form is None:
        exec_form = _dockerfile_argv(text, reader)
    if exec_form is None:
        exec_form = _kubectl_describe_argv(text, reader)
    if exec_form is None:
        exec_form = _docker_ps_argv(text, reader)
    if exec_form is None:
        exec_form = _inspect_path_args(text, reader)
    if exec_form is None:
        exec_form = _production_stack_argv(text)
    if exec_form is None:
        exec_form = _llm_d_modelservice_argv(text)
    if exec_form is None:
        exec_form = _ray_serve_llm_argv(text)
    if exec_form is None:
        exec_form = _ansible_play_argv(text, reader)
    with_dotenv = _dotenv_and_compose(text)
    if exec_form is None and with_dotenv is not None:
        exec_form = _manifest_argv(with_dotenv[1], reader, dotenv=with_dotenv[0])
    if exec_form is None:
        exec_form = _manifest_argv(text, reader)
    if exec_form is None:
        exec_form = _yaml_list_argv(text, reader)
    if exec_form is None:
        exec_form = _ansible_vars_argv(text)
    if exec_form is None:
        exec_form = _config_file_alone(text)
    return exec_form


# A Markdown table row (`| --speculative-num-steps | 3 |`, GFM "Tables" extension), and its
# delimiter row (`|---|:--:|`). Cells are split at `|` not escaped as `\|`.
_TABLE_ROW = re.compile(r"[ \t]*\|.*\|[ \t]*")
_TABLE_DELIMITER = re.compile(r"[ \t]*\|?(?:[ \t]*:?-+:?[ \t]*\|)+[ \t]*:?-*:?[ \t]*")
_TABLE_CELL_SPLIT = re.compile(r"(?<!\\)\|")
# A header cell naming the column of the values a runbook sets (not a reference table's
# `Default`, which is the engine's own value, nor its `Description`).
_VALUE_HEADER = re.compile(r"(?i)\**(?:value|values|setting|set to|our value|we use|used)\**")
# A header cell of a reference table's other columns (SGLang's docs/advanced_features/
# server_arguments.md: `| Argument | Description | Defaults |`; READMEs: `| Parameter | Purpose |`).
_REFERENCE_HEADER = re.compile(r"(?i)\**(?:defaults?|default value|description|purpose|meaning|help|notes?|type"
                               r"|options|choices|explanation|默认值?|说明|描述|含义)\**")
# A value cell that notes a switch instead of giving a value (`| --disable-radix-cache | (flag) |`).
_SWITCH_NOTE = re.compile(r"\(.*\)|[-—–]|")
# Prose: two or more words of letters (`Number of draft steps.`), no value a flag takes.
_PROSE_WORD = re.compile(r"[A-Za-z]{2,}[.,;:]?")


def markdown_table_argv(text: str) -> list[str] | None:
    """The flags of a runbook's Markdown table pasted alone (`| Flag | Value |` / `|---|---|` /
    `| --speculative-num-steps | 3 |`): each row whose first cell is a flag gives that flag and
    the value in its second cell (backquotes and an empty or `(flag)` cell aside: a switch), as
    the server's flags pasted alone are read. Cells after the second (a description, a reason)
    are prose. None for any other text: a reference table (its header names defaults or
    descriptions and no value column, or a value cell is a sentence) is no flag list."""
    lines = [line for line in text.splitlines() if line.strip()]
    if not lines or not all(_TABLE_ROW.fullmatch(line) for line in lines):
        return None
    words: list[str] = []
    column = 1
    for line in lines:
        if _TABLE_DELIMITER.fullmatch(line):
            continue
        cells = [_table_cell(c) for c in _TABLE_CELL_SPLIT.split(line.strip()[1:-1])]
        if not cells or not cells[0].startswith("-"):
            # the header row (`| Flag | Description | Value |` names the value's column), or prose
            named = [i for i, cell in enumerate(cells) if _VALUE_HEADER.fullmatch(cell)]
            if not words and not named and len(cells) > column and _REFERENCE_HEADER.fullmatch(cells[column]):
                return None
            column = named[0] if named and not words else column
            continue
        value = cells[column] if len(cells) > column else ""
        value = "" if _SWITCH_NOTE.fullmatch(value) else value
        if not value.startswith(("{", "[")) and sum(1 for w in value.split() if _PROSE_WORD.fullmatch(w)) >= 2:
            return None
        try:
            written = shlex.split(cells[0]) + ([value] if value.startswith(("{", "[")) else shlex.split(value))
        except ValueError:
            return None
        words += written
    return words or None


def _table_cell(cell: str) -> str:
    """A table cell's text: `\\|` is a `|`, and a code span's backquotes are no part of it."""
    cell = cell.strip().replace("\\|", "|")
    return cell[1:-1].strip() if len(cell) > 1 and cell[0] == cell[-1] == "`" else cell


def _json_argv(text: str) -> list[str] | None:
    """The exec form of a Dockerfile CMD/ENTRYPOINT, a compose `command:` or a k8s `args:`
    written as JSON: `["python", "-m", "sglang.launch_server", "--model-path", "m"]`."""
    m = re.fullmatch(r"\s*(?:CMD|ENTRYPOINT|command:|args:)?\s*(\[.*\])\s*", text, re.S)
    if not m:
        return None
    try:
        argv = json.loads(m.group(1))
    except ValueError:
        return None
    if isinstance(argv, list) and argv and all(isinstance(a, (str, int, float)) for a in argv):
        return [str(a) for a in argv]
    return None


# A Dockerfile: its first instruction (after comments, parser directives and empty lines) is FROM
# or ARG (Dockerfile reference, "FROM": "ARG is the only instruction that may precede FROM"), and
# an instruction sets what the container runs.
_DOCKERFILE_START = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*(?:FROM|ARG)[ \t]+\S", re.I)
_DOCKERFILE_RUNS = re.compile(r"^[ \t]*(?:CMD|ENTRYPOINT)[ \t]", re.I | re.M)
_DOCKER_CONTINUED = re.compile(r"\\[ \t]*$")
_DOCKER_HEREDOC = re.compile(r"<<-?[ \t]*[\"']?([A-Za-z_][A-Za-z0-9_]*)[\"']?")
_DOCKER_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")


def _dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, its arguments) of each instruction, as Docker's parser joins them: a line
    ending in `\\` (trailing blanks allowed) continues onto the next, and the comment and empty
    lines inside such a continuation are dropped (Dockerfile reference, "Format"); a heredoc's body
    (`RUN <<EOF` ... `EOF`) is no instruction."""
    out: list[tuple[str, str]] = []
    current: str | None = None
    heredoc: str | None = None
    for line in text.splitlines():
        if heredoc is not None:
            heredoc = None if line.strip() == heredoc else heredoc
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        current = line.lstrip() if current is None else current + line
        if _DOCKER_CONTINUED.search(current):
            current = _DOCKER_CONTINUED.sub("", current)
            continue
        keyword, _, rest = current.partition(" ") if " " in current.split("\t", 1)[0] else current.partition("\t")
        out.append((keyword.upper(), rest.strip()))
        found = _DOCKER_HEREDOC.search(rest) if keyword.upper() == "RUN" else None
        heredoc = found.group(1) if found else None
        current = None
    if current is not None:
        keyword, _, rest = current.partition(" ")
        out.append((keyword.upper(), rest.strip()))
    return out


def _docker_expand(value: str, known: dict[str, str]) -> str:
    """`$NAME` / `${NAME}` of an ENV or ARG set above, as Docker substitutes them in ENV; others
    stay as written."""
    return _DOCKER_VARIABLE.sub(lambda m: known.get(m.group(1) or m.group(2), m.group(0)), value)


def _docker_env(rest: str, known: dict[str, str]) -> dict[str, str]:
    """The variables an ENV sets: `ENV KEY=VALUE [KEY=VALUE ...]` (quotes and escapes as a shell
    word), or the legacy `ENV KEY VALUE`, the rest of the line the value (Dockerfile reference, "ENV")."""
    first = rest.split(None, 1)
    if not first:
        return {}
    if "=" not in first[0]:
        return {first[0]: _docker_expand(first[1].strip(), known) if len(first) > 1 else ""}
    try:
        words = shlex.split(rest, posix=True)
    except ValueError:
        return {}
    return {key: _docker_expand(value, known) for key, eq, value in (w.partition("=") for w in words) if eq and key}


def _docker_command(rest: str) -> tuple[list[str], bool]:
    """(words, exec form) of a CMD or ENTRYPOINT: the JSON array of the exec form, or the shell
    form run as `/bin/sh -c TEXT`."""
    if rest.startswith("["):
        try:
            words = json.loads(rest)
        except ValueError:
            words = None
        if isinstance(words, list) and all(isinstance(w, str) for w in words):
            return words, True
    return ["/bin/sh", "-c", rest], False


def _refuse_single_quoted_exec_form(keyword: str, written: tuple[list[str], bool] | None,
                                    reader: ArgvReader) -> None:
    """`CMD ['python3', '-m', 'sglang.launch_server', ...]`: not JSON, so Docker runs it in the shell
    form, `/bin/sh -c "['python3', ..."`, which finds no command `[python3,` and the container
    exits (Dockerfile reference, "Exec form": "you must use double-quotes (") around words, not
    single-quotes (')"). Raised for a list that would start a server written so."""
    if written is None or written[1] or not written[0][2].startswith("["):
        return
    try:
        words = ast.literal_eval(written[0][2])
    except (ValueError, SyntaxError):
        return
    if not (isinstance(words, list) and words and all(isinstance(w, str) for w in words)):
        return
    try:
        starts = reader.is_server(reader.server_argv(words))
    except LaunchParseError:
        return
    if starts:
        raise LaunchParseError(
            f"the Dockerfile's {keyword} is a list in single quotes, which is not JSON: Docker runs it as a shell "
            f"command (/bin/sh -c \"{written[0][2][:40]}...\"), which finds no program to run, so the container "
            "exits and the server does not start",
            hint=f"write the {keyword} list with double quotes: {keyword} {json.dumps(words)[:80]}...")


def _dockerfile_argv(text: str, reader: ArgvReader) -> list[str] | None:
    """The argv a pasted Dockerfile's image starts: its last stage's ENTRYPOINT and CMD as Docker
    joins them (an exec-form ENTRYPOINT takes CMD as arguments, a shell-form one ignores CMD; with no
    ENTRYPOINT written, the base image's, so `FROM vllm/vllm-openai` + `CMD ["--model", ...]` is that
    image started with those arguments), under the ENV the stage set (a stage built `FROM` an earlier
    one inherits its ENV, ENTRYPOINT and CMD). Dockerfile reference "ENV", "CMD", "ENTRYPOINT",
    "Understand how CMD and ENTRYPOINT interact". Was: read as a shell script, where an exec-form
    CMD was no server command and `ENV SGLANG_ENABLE_SPEC_V2=1` no part of its environment. None
    for any other text, or a Dockerfile whose command starts no server."""
    if not _DOCKERFILE_START.match(text) or not _DOCKERFILE_RUNS.search(text):
        return None
    stages: dict[str, dict[str, Any]] = {}
    args: dict[str, str] = {}
    stage: dict[str, Any] | None = None
    for keyword, rest in _dockerfile_instructions(text):
        if keyword == "FROM":
            words = [w for w in rest.split() if not w.startswith("--")]
            if not words:
                continue
            image = _docker_expand(words[0], args)
            base = stages.get(image.lower())
            stage = {"image": image, "env": {}, "entrypoint": None, "cmd": None, "inherited_cmd": False} \
                if base is None else dict(base, env=dict(base["env"]), inherited_cmd=base["cmd"] is not None)
            if len(words) >= 3 and words[1].lower() == "as":
                stages[words[2].lower()] = stage
        elif keyword == "ARG":
            name, eq, default = rest.partition("=")
            args[name.strip()] = default.strip().strip("\"'") if eq else args.get(name.strip(), "")
        elif stage is None:
            continue
        elif keyword == "ENV":
            stage["env"].update(_docker_env(rest, {**args, **stage["env"]}))
        elif keyword == "ENTRYPOINT":
            stage["entrypoint"] = _docker_command(rest)
            if stage["inherited_cmd"]:
                stage["cmd"], stage["inherited_cmd"] = None, False  # (the base image's CMD is reset)
        elif keyword == "CMD":
            stage["cmd"], stage["inherited_cmd"] = _docker_command(rest), False
    if stage is None or (stage["entrypoint"] is None and stage["cmd"] is None):
        return None
    entrypoint, cmd = stage["entrypoint"], stage["cmd"]
    for keyword, written in (("ENTRYPOINT", entrypoint), ("CMD", cmd)):
        _refuse_single_quoted_exec_form(keyword, written, reader)
    # the image first, as a manifest's container reads (_container_argv): its release tag names the
    # engine release, and with no ENTRYPOINT written its own entrypoint takes CMD as arguments
    argv = [stage["image"], *(entrypoint[0] + (cmd[0] if cmd is not None and entrypoint[1] else [])
                              if entrypoint is not None else cmd[0])]
    # (only the engines' own variables travel on, as from a manifest's env)
    engine_env = [f"{key}={value}" for key, value in stage["env"].items() if key.startswith(ENGINE_ENV_PREFIXES)]
    if engine_env:
        argv = ["env", *engine_env, *argv]
    try:
        return argv if reader.is_server(reader.server_argv(argv)) else None
    except LaunchParseError:
        return None


# A Go-template action of a Helm chart: `{{ .Values.x }}`, `{{- if ... }}`, `{{ include "..." . }}`.
_HELM_ACTION = re.compile(r"\{\{-?\s*(?:\.|\$|if\b|end\b|range\b|with\b|include\b|toYaml\b|template\b|tpl\b|-?\s*/\*)")


def _helm_template() -> LaunchParseError:
    return LaunchParseError(
        "this is a Helm chart template, not a manifest: its {{ ... }} values are filled in by helm, "
        "so the server's flags are not in this text",
        hint="render it first (helm template RELEASE CHART -f values.yaml) and pass the Deployment it "
             "prints, or the server's command line")


_KSERVE_RUNTIMES = ("ServingRuntime", "ClusterServingRuntime")
# What the KServe controller fills in a runtime's args: the InferenceService's own metadata
# (`{{.Name}}`, `{{.Namespace}}`, `{{.Labels.x}}`, `{{.Annotations.x}}`; kserve
# pkg/controller/v1beta1/inferenceservice/utils/utils.go ReplacePlaceholders: the container as a
# text/template executed over the InferenceService's ObjectMeta). Any other action
# (`{{ .Values.x }}`) is a Helm chart's, not filled by KServe.
_KSERVE_PLACEHOLDER = re.compile(r"\{\{-?\s*\.(?:Name|Namespace|Labels|Annotations)\b[\w.\[\]\"']*\s*-?\}\}")


def _manifest_argv(text: str, reader: ArgvReader, dotenv: dict[str, str] | None = None) -> list[str] | None:
    """argv of the server container in a pasted Kubernetes/compose spec: `image` (whose
    entrypoint may be the server, e.g. vllm/vllm-openai), then the entrypoint and arguments
    as the runtime joins them. A file may hold several documents (`---`: the vLLM k8s docs put
    a Service before the Deployment) and several containers (an initContainer that downloads
    the model, a router service): the first one that starts a server wins."""
    if not re.search(r"^\s*-?\s*(command|args|entrypoint|image)\s*:", text, re.M) and not (
            _JSON_CONTAINER_KEY.search(text)):
        return None
    try:
        docs = list(yaml.load_all(text, Loader=_ComposeLoader))
    except yaml.YAMLError as error:
        if _HELM_ACTION.search(text):
            # a chart's template (`- {{ .Values.model.name | quote }}`, `{{- if .Values.extraArgs }}`):
            # not YAML until helm fills it in, and its flags' values are in the values file
            raise _helm_template() from None
        refused = _refused_deployment_file(text, error)
        if refused is not None:
            raise refused from None
        return None
    if dotenv is not None:
        docs = [_compose_interpolated(doc, dotenv) for doc in docs]
    docs = [_argo_filled(_inspected_containers(doc)) for doc in docs]
    scripts = _configmap_files(docs)
    # A KServe ServingRuntime's `{{.Name}}` (`--served-model-name={{.Name}}`, as the OpenShift AI
    # vLLM runtime template writes it) is filled in by the KServe controller with the
    # InferenceService's name, not by helm: the runtime is a manifest as it stands (was: 'this is
    # a Helm chart template', the runtime's speculative flags unread)
    kserve = any(isinstance(doc, dict) and doc.get("kind") in _KSERVE_RUNTIMES for doc in docs)
    argvs = []
    # Kubernetes and compose take a container's command and args as strings only; other files'
    # items may be mappings their tool fills in (a Kubeflow Pipelines component's `{inputValue: model}`)
    strings_only = any(isinstance(doc, dict) and ({"apiVersion", "kind"} <= doc.keys() or "services" in doc)
                       for doc in docs)
    for container in _find_containers(docs):
        argv = _container_argv(container, strings_only)
        if argv and scripts:
            argv = _with_mounted_script(argv, container.get("image"), scripts, reader)
        if argv is None:
            return None
        stray = _unjoined_continuation(container)
        if stray is not None and reader.is_server(reader.server_argv(argv)):
            raise stray
        split = _split_shell_string(container, reader)
        if split is not None:
            raise split
        if any(_HELM_ACTION.search(_KSERVE_PLACEHOLDER.sub("", word) if kserve else word)
               for word in argv if word != container.get("image")):
            # (a template whose actions are all inside quoted strings is YAML already; an image
            # tag alone left to helm only leaves the release unknown)
            raise _helm_template()
        if argv:
            argvs.append(argv)
    return _first_server(argvs, reader)


class _ComposeLoader(yaml.SafeLoader):
    """PyYAML's safe loader with the two tags of a compose file: `!override` (the value as written)
    and `!reset` (the attribute unset: null), compose-spec 13-merge.md; docker compose loads them,
    the safe loader alone stops at them (ConstructorError)."""


def _compose_tag_value(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
    if isinstance(node, yaml.MappingNode):
        return loader.construct_mapping(node, deep=True)
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_scalar(node)


_ComposeLoader.add_constructor("!override", _compose_tag_value)
_ComposeLoader.add_constructor("!reset", lambda loader, node: None)


# The first lines of a compose file (`services:`) and of a Kubernetes manifest (`apiVersion:`, `kind:`).
_K8S_MANIFEST = re.compile(r"^apiVersion[ \t]*:.*^kind[ \t]*:|^kind[ \t]*:.*^apiVersion[ \t]*:", re.M | re.S)
# A line a YAML file can start at column 0: a key (`services:`, `x-base: &base`, `"key":`), a list
# item, a document marker or a directive.
_YAML_TOP_LINE = re.compile(r"""(?:[^\s#'"\[\]{}:-][^\s:]*|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]|$)|-(?:[ \t]|$)|---|\.\.\.|%""")


def _refused_deployment_file(text: str, error: yaml.YAMLError) -> LaunchParseError | None:
    """A compose file or Kubernetes manifest of an SGLang/vLLM server that is not YAML: the runtime
    refuses it and the server never starts (docker compose: "yaml: line N: mapping values are not
    allowed in this context"; kubectl: "error converting YAML to JSON: yaml: line N: ..."). The usual
    cause is JSON written in a plain (unquoted) value, `command: vllm serve M --speculative-config
    '{"method": "eagle3", ...}'` or `- --speculative-config={"method": ...}`: YAML reads the `": "` in it
    as a mapping (YAML 1.2, 7.3.3 Plain Style: a plain scalar holds no `: `; compose-go and kubectl load
    it with go-yaml, which stops there). Was: read as a command
    `image: ...` with no speculative decoding; None for any other text."""
    compose = bool(COMPOSE_SERVICES.search(text))
    if not (compose or _K8S_MANIFEST.search(text)) or not re.search(r"(?i)vllm|sglang", text):
        return None
    if isinstance(error, yaml.constructor.ConstructorError):
        # YAML, with a tag neither the safe loader nor _ComposeLoader builds
        return None
    lines = text.splitlines()
    if any(line[:1] not in ("", " ", "\t", "#") and not _YAML_TOP_LINE.match(line) for line in lines):
        # a shell script or a note around the file (`cat > compose.yaml <<EOF ... EOF` then `vllm
        # serve ...`; `kubectl apply -f - <<EOF`): not the file alone, and its other readers read it
        return None
    mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
    where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark is not None else ""
    problem = getattr(error, "problem", None) or str(error).splitlines()[0]
    kind, runtime, check, block = (
        ("compose file", "docker compose", "docker compose config",
         ", or write the command as a block scalar (command: >- with the command on the lines below)")
        if compose else ("Kubernetes manifest", "kubectl", "kubectl apply --dry-run=client -f FILE", ""))
    line = lines[mark.line] if mark is not None and mark.line < len(lines) else ""
    cause = (" (a `: ` inside an unquoted value, such as the JSON of --speculative-config, starts a YAML mapping)"
             if "mapping values" in problem or re.search(r"\{\s*\"[^\"]*\"\s*:\s", line) else "")
    return LaunchParseError(
        f"this {kind} is not valid YAML ({where}{problem}){cause}: {runtime} refuses to load it and the server "
        "never starts",
        # (an unclosed quote or bracket, a tab: nothing of the speculative config's to quote)
        hint=f"quote the list item whole in single quotes: - '--speculative-config={{\"method\": \"eagle3\", ...}}'{block}"
        if cause else f"mend the YAML: {check} names the same error")


def _unjoined_continuation(container: dict[str, Any]) -> LaunchParseError | None:
    """A compose `command:` / `entrypoint:` string written over `\\`-ended lines, as a shell
    script would be. Compose splits the string into words itself, with no shell: compose-go
    (types/command.go, ShellCommand) calls mattn/go-shellwords' Parse, where a backslash escapes
    the next character, a line break (or, in a folded `>` block, the space YAML made of it)
    included, and joins no lines. The server gets a stray line-break argument (or ` --flag`)
    and exits with 'unrecognized arguments'."""
    for key in ("entrypoint", "command"):
        value = container.get(key)
        if not isinstance(value, str) or not re.search(r"\\\s", value):
            continue
        try:
            words = shlex.split(value)
        except ValueError:
            continue
        # (a word starting with white space: an escaped line break or space outside quotes)
        stray = next((w for w in words if w[:1].isspace()), None)
        if stray is not None:
            return LaunchParseError(
                f"compose's {key}: is one string with a backslash at a line's end before {stray.strip()!r}: "
                "compose splits the string into words without a shell and joins no lines (compose-go uses "
                "go-shellwords), so the escaped line break reaches the server as an argument and it exits "
                "with 'unrecognized arguments'",
                hint=f"drop the line-ending backslashes (the string is split at line breaks already) or write {key}: as a list")
    return None


_SHELL_PROGRAMS = ("bash", "sh", "dash", "zsh", "ash", "ksh")


def _split_shell_string(container: dict[str, Any], reader: ArgvReader) -> LaunchParseError | None:
    """`entrypoint: [bash, -c]` with the server written as a string `command:`. Compose splits
    that string into words itself (compose-go types/command.go, ShellCommand: go-shellwords'
    Parse), so the shell's `-c` script is the first word alone (`python3`) and the others are its
    $0, $1, ... (bash(1), "-c"): the server never starts, the container runs a bare `python3`
    that reads an empty stdin and exits 0 (was: 'not an SGLang or vLLM server command'). A
    `command:` list of one string, or the whole string quoted inside, is the script as meant."""
    command, entrypoint = container.get("command"), container.get("entrypoint")
    if not isinstance(command, str) or not isinstance(entrypoint, (str, list)):
        return None
    try:
        words = shlex.split(command)
        outer = shlex.split(entrypoint) if isinstance(entrypoint, str) else [str(w) for w in entrypoint]
    except ValueError:
        return None
    if len(words) < 2 or len(outer) < 2 or not re.fullmatch(r"-[a-z]*c", outer[-1]) \
            or outer[-2].rsplit("/", 1)[-1] not in _SHELL_PROGRAMS:
        return None
    if not reader.is_server(reader.server_argv(words)):
        return None
    shell = " ".join(outer)
    return LaunchParseError(
        f"compose's command: is one string after `entrypoint: {shell}`: compose splits it into words "
        f"(compose-go uses go-shellwords), so `{shell}` runs {words[0]!r} alone, the other words are that "
        "script's $0, $1, ..., and the server never starts",
        hint=f"write command: as a list of one string (command: [\"{words[0]} ...\"]) or quote the whole "
             "string inside it (command: '\"...\"')")


def _configmap_files(docs: list[Any]) -> dict[str, str]:
    """The files the ConfigMaps of a paste hold (`data:` key -> text). Mounted as a volume, each
    key is a file of that name in the mount path (k8s docs, "Configure a Pod to Use a ConfigMap",
    "Add ConfigMap data to a Volume"): a container's `bash /scripts/start.sh` runs that text."""
    return {key: value for doc in docs if isinstance(doc, dict) and doc.get("kind") == "ConfigMap"
            and isinstance(doc.get("data"), dict) for key, value in doc["data"].items()
            if isinstance(key, str) and isinstance(value, str) and "\n" in value}


def _with_mounted_script(argv: list[str], image: Any, scripts: dict[str, str], reader: ArgvReader) -> list[str]:
    """A container that runs a script of a ConfigMap in the same paste (`command: [bash,
    /scripts/start.sh]`) as the server the script starts, after the image and the engine variables
    the container gives (was: 'not a server command', the script's flags unread). Any other
    container as it is."""
    if reader.is_server(reader.server_argv(argv)):
        return argv
    named = [scripts[path.rsplit("/", 1)[-1]] for word in argv for path in word.split()
             if "/" in path and path.rsplit("/", 1)[-1] in scripts]
    if not named:
        return argv
    try:
        server = reader.script_argv(named[0])
    except LaunchParseError:
        return argv
    if not reader.is_server(server):
        return argv
    at = argv.index(image) + 1 if isinstance(image, str) and image in argv else (
        1 + next((i for i, w in enumerate(argv[1:]) if "=" not in w), 0) if argv[0] == "env" else 0)
    return [*argv[:at], *server]


def _first_server(argvs: list[list[str]], reader: ArgvReader) -> list[str] | None:
    """The first container command that starts a server (else the first)."""
    for argv in argvs:
        if reader.is_server(reader.server_argv(argv)):
            return argv
    return argvs[0] if argvs else None


# `kubectl describe pod` (k8s.io/kubectl pkg/describe/describe.go, PrefixWriter: two spaces a
# level): a container is a name one level under `Containers:`/`Init Containers:`, its fields
# two levels under (`Image:`, `Command:`, `Args:`, `Environment:`), and each command/args
# element on its own line three levels under (an element with newlines printed one line per
# line, describeContainerCommand). A Deployment's `Pod Template:` nests the same one level down.
_DESCRIBE_CONTAINERS = re.compile(r"^( *)(?:Init )?Containers:[ \t]*$", re.M)


def _kubectl_describe_argv(text: str, reader: ArgvReader) -> list[str] | None:
    """The server container's command in a pasted `kubectl describe pod|deployment` (was read
    as shell words: a `vllm serve` with no flags, its speculative config and cap unseen). None
    for any other text."""
    if not _DESCRIBE_CONTAINERS.search(text) or not re.search(r"^ +(?:Command|Args):[ \t]*$", text, re.M):
        return None
    containers: list[dict[str, Any]] = []
    field_name, base = None, None
    for line in text.splitlines():
        section = _DESCRIBE_CONTAINERS.fullmatch(line)
        if section:
            base = len(section.group(1))
            continue
        if base is None or not line.strip():
            continue
        indent = len(line) - len(line.lstrip(" "))
        if indent <= base:
            base = None  # (`Conditions:`, `Volumes:`: the containers' block ended)
            continue
        if indent == base + 2 and re.fullmatch(r"\S[^:]*:[ \t]*", line.strip()):
            containers.append({"command": [], "args": [], "env": []})
            field_name = None
            continue
        if not containers:
            continue
        field = re.fullmatch(r"(\S[^:]*):[ \t]*(.*)", line[base + 4:]) if indent == base + 4 else None
        if field:
            field_name = field.group(1)
            if field_name == "Image":
                containers[-1]["image"] = field.group(2).strip()
            continue
        if indent < base + 6 or field_name is None:
            continue
        value = line[base + 6:]
        if field_name in ("Command", "Args"):
            containers[-1][field_name.lower()].append(value)
        elif field_name == "Environment":
            env = re.fullmatch(r"([A-Za-z_][A-Za-z0-9_]*):[ \t]+(.*?)[ \t]*", value)
            if env and not env.group(2).startswith("<"):  # (`<set to the key ... in secret ...>`)
                containers[-1]["env"].append({"name": env.group(1), "value": env.group(2)})
    argvs = [argv for argv in (_container_argv(_describe_shell_string(c)) for c in containers) if argv]
    return _first_server(argvs, reader)


# A `docker ps` / `podman ps` row: CONTAINER ID, IMAGE, then COMMAND as a Go-quoted string
# (docker/cli cli/command/formatter/container.go `Command`: strconv.Quote of the entrypoint and
# arguments joined by spaces, cut to 20 characters and "…" unless --no-trunc).
_PS_ROW = re.compile(r'^[ \t]*([0-9a-f]{12,64})[ \t]+(\S+)[ \t]+"((?:[^"\\\n]|\\.)*)"', re.M)


def _docker_ps_argv(text: str, reader: ArgvReader) -> list[str] | None:
    """The container a pasted `docker ps --no-trunc` row runs: its image, then its command read
    as a `ps` line is (quotes kept, joined by spaces). Was: the quoted command one word, a vLLM
    image with no flags (no speculative config, no finding). None for any other text."""
    # A row as docker prints it: under its `CONTAINER ID` header, or followed by its CREATED
    # column (`2 hours ago`, go-units HumanDuration + " ago"); not any `<hex> word "..."` line
    # (a `git log --format='%H %an "%s"'` line of a pasted session)
    headed = re.search(r"^[ \t]*CONTAINER ID[ \t]", text, re.M) is not None
    rows = [m.groups() for m in _PS_ROW.finditer(text)
            if headed or re.match(r"[ \t]+[^\n]*\bago\b", text[m.end():m.end() + 200])]
    if not rows:
        return None
    argvs, cut = [], []
    for _id, image, quoted in rows:
        try:
            command = ast.literal_eval('"' + quoted + '"')
        except (ValueError, SyntaxError):
            continue
        if command.endswith("…"):
            cut.append(f"{_id} {image} {command!r}")
            continue
        try:
            argvs.append([image, *split_keeping_json(command)])
        except ValueError:  # (unbalanced quotes inside)
            continue
    speculating = [argv for argv in argvs if any(SPECULATIVE_FLAG.match(w) for w in argv)]
    chosen = _first_server(speculating + [a for a in argvs if a not in speculating], reader)
    serves = reader.is_server(reader.server_argv(chosen or []))
    if cut and not serves:
        raise LaunchParseError(
            f"docker ps cut the containers' commands ({'; '.join(cut)}): their flags are not in this text",
            hint="paste `docker ps --no-trunc` or `docker inspect CONTAINER`")
    # (rows of no server, or a line that only looks like one, `<40-hex hash> author "subject"`
    # of a `git log` in a pasted session: the rest of the text is read as it was)
    return chosen if serves else None


# vLLM production-stack's Helm values: each `servingEngineSpec.modelSpec` entry is a vLLM
# Deployment whose container runs `vllm serve <modelURL>` with flags made from `vllmConfig`
# and its `extraArgs` appended as they are (vllm-project/production-stack
# helm/templates/deployment-vllm-multi.yaml), image `<repository>:<tag>`.
_STACK_FLAGS = (("maxModelLen", "--max-model-len"), ("dtype", "--dtype"), ("tensorParallelSize", "--tensor-parallel-size"),
                ("maxNumSeqs", "--max-num-seqs"), ("gpuMemoryUtilization", "--gpu-memory-utilization"),
                ("maxLoras", "--max-loras"))


def _production_stack_argv(text: str) -> list[str] | None:
    """The vLLM command a production-stack values file deploys (was: its `repository:
    vllm/vllm-openai` read as a docker image among shell words, a vLLM server with no flags:
    the speculative config in `extraArgs` unseen, no finding). None for any other text."""
    if "servingEngineSpec" not in text:
        return None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    engine = doc.get("servingEngineSpec") if isinstance(doc, dict) else None
    specs = engine.get("modelSpec") if isinstance(engine, dict) else None
    if not isinstance(specs, list):
        return None
    argvs = [_stack_model_argv(spec) for spec in specs if isinstance(spec, dict) and spec.get("modelURL")]
    speculating = [argv for argv in argvs if any(SPECULATIVE_FLAG.match(w) for w in argv)]
    return (speculating or argvs or [None])[0]


def _llm_d_modelservice_argv(text: str) -> list[str] | None:
    """The vLLM command an llm-d ModelService values file deploys: `modelArtifacts.uri` (`hf://ORG/NAME`,
    `pvc+hf://CLAIM/.../ORG/NAME`) is the model, and a `decode` / `prefill` container with `modelCommand:
    vllmServe` (or `imageDefault`: `--model` then the model, on the image's entrypoint) runs `vllm serve
    MODEL --port P [--tensor-parallel-size parallelism.tensor] --served-model-name NAME` and then its
    `args:` (llm-d-incubation/llm-d-modelservice charts/llm-d-modelservice/templates/_helpers.tpl
    `vllmServeModelCommand`, `argsByProtocol`). The decode container is the one that serves, read first.
    Was: 'not an SGLang or vLLM server command', the speculative config in `args:` unseen. None for
    any other text."""
    if "modelArtifacts" not in text or "modelCommand" not in text:
        return None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    artifacts = doc.get("modelArtifacts") if isinstance(doc, dict) else None
    if not isinstance(artifacts, dict):
        return None
    # the chart's default uri is "hf://{{ .Values.modelArtifacts.name }}" (values.yaml), rendered
    # with common.tplvalues.render, and its default mountPath /model-cache
    uri = artifacts.get("uri", "hf://{{ .Values.modelArtifacts.name }}")
    if isinstance(uri, str) and isinstance(artifacts.get("name"), str):
        uri = re.sub(r"\{\{-?\s*\.Values\.modelArtifacts\.name\s*-?\}\}", artifacts["name"], uri)
    if not isinstance(uri, str) or "://" not in uri or "{{" in uri:
        return None
    protocol, _, rest = uri.partition("://")
    mount = artifacts.get("mountPath") if isinstance(artifacts.get("mountPath"), str) else "/model-cache"
    # pvc://CLAIM/PATH: the model is the mounted PATH ($mountPath/$path, argsByProtocol)
    model = (rest if protocol == "hf" else "/".join(rest.split("/")[-2:]) if protocol == "pvc+hf"
             else f"{mount}/{rest.partition('/')[2]}" if protocol == "pvc" and "/" in rest else None)
    if model is None:
        return None
    for role in ("decode", "prefill"):
        section = doc.get(role)
        if not isinstance(section, dict) or section.get("create") is False:  # (`.Values.decode.create` gates it)
            continue
        parallelism = section.get("parallelism")
        tensor = parallelism.get("tensor") if isinstance(parallelism, dict) else None
        # (the chart reads it with `int`: "2" is 2; isdecimal, not isdigit: int() refuses "²")
        tensor = int(tensor) if isinstance(tensor, str) and tensor.strip().isdecimal() else tensor
        tp = ["--tensor-parallel-size", str(tensor)] if isinstance(tensor, int) and tensor > 1 else []
        containers = section.get("containers")
        # (`containers: 5`, a scalar, has no container: was TypeError "'int' object is not iterable")
        for container in containers if isinstance(containers, list) else []:
            command = container.get("modelCommand") if isinstance(container, dict) else None
            if command not in ("vllmServe", "imageDefault"):
                continue
            args = container.get("args") or []
            if not isinstance(args, list):
                continue
            _refuse_structured_items("args", args)
            head = ["vllm", "serve", model] if command == "vllmServe" else ["vllm", "serve", "--model", model]
            return [*head, *tp, *(str(a) for a in args)]
    return None


class CallArgv(list):
    """The argv of settings that a Python call takes as keyword arguments (Ray Serve LLM's
    `engine_kwargs`, given in a YAML config as in an `LLMConfig(...)` call), naming the call:
    launch.split_command keeps the name, so the audit words a name the call does not take as its
    TypeError, not argparse's exit."""

    def __init__(self, argv: list[str], call: str) -> None:
        super().__init__(argv)
        self.call = call


def _ray_serve_llm_argv(text: str) -> list[str] | None:
    """The vLLM server a Ray Serve LLM config starts: each `LLMConfig` (`model_loading_config` +
    `engine_kwargs`, in a `serve run` config's `applications[].args.llm_configs`, a file of its
    own, or a KubeRay RayService's `serveConfigV2` string) runs vLLM on `model_source` (else
    `model_id`) with `engine_kwargs` as its engine arguments (docs.ray.io serve/llm
    user-guides/configuration.html: "Arguments forwarded to the inference engine (vLLM)").
    Was: 'not an SGLang or vLLM server command', the speculative_config in engine_kwargs unseen.
    None for any other text."""
    if "engine_kwargs" not in text and "llm_configs" not in text:
        return None
    try:
        docs = list(yaml.safe_load_all(text))
    except yaml.YAMLError:
        return None
    argvs = [llm_config_argv(config) for config in _llm_configs(docs)]
    if not argvs:
        _refuse_config_files(docs)
    speculating = [argv for argv in argvs if any(SPECULATIVE_FLAG.match(w) for w in argv)]
    chosen = (speculating or argvs or [None])[0]
    # (its words are engine_kwargs keys, each a keyword of the replica's AsyncEngineArgs(...), as
    # in a Python LLMConfig(...) call: no argparse reads them)
    return None if chosen is None else CallArgv(chosen, "LLMConfig")


def _refuse_config_files(node: Any) -> None:
    """`llm_configs: [models/llama.yaml]`: a Ray Serve LLM app may name each LLMConfig by the
    path of its YAML file (ray-project/ray python/ray/llm/_internal/serve, LLMServingArgs.llm_configs:
    `List[Union[str, LLMConfig]]`, "A list of LLMConfigs, or paths to LLMConfigs, to run."); the
    engine's settings are in those files. Was: 'not an SGLang or vLLM server command'."""
    if isinstance(node, str) and "llm_configs" in node and "\n" in node:  # (RayService serveConfigV2: |)
        try:
            node = list(yaml.safe_load_all(node))
        except yaml.YAMLError:
            return
    if isinstance(node, list):
        for child in node:
            _refuse_config_files(child)
    if not isinstance(node, dict):
        return
    listed = node.get("llm_configs")
    paths = [item for item in listed if isinstance(item, str)] if isinstance(listed, list) else []
    if paths:
        raise LaunchParseError(
            f"this Ray Serve LLM app's llm_configs name files that are not in this text ({', '.join(paths)}): "
            "the vLLM engine's settings (engine_kwargs) are in them",
            hint="paste those LLMConfig files (or `cat` them below this config)")
    for child in node.values():
        _refuse_config_files(child)


def _llm_configs(node: Any) -> list[dict[str, Any]]:
    """Every mapping with `engine_kwargs` and `model_loading_config`, in file order; a string that
    holds such a config (RayService `serveConfigV2: |`) is read as the YAML it is."""
    if isinstance(node, dict):
        if isinstance(node.get("engine_kwargs"), dict) and isinstance(node.get("model_loading_config"), dict):
            return [node]
        return [found for child in node.values() for found in _llm_configs(child)]
    if isinstance(node, list):
        return [found for child in node for found in _llm_configs(child)]
    if isinstance(node, str) and "engine_kwargs" in node and "\n" in node:
        try:
            return _llm_configs(list(yaml.safe_load_all(node)))
        except yaml.YAMLError:
            return []
    return []


def llm_config_argv(config: dict[str, Any]) -> list[str]:
    """The `vllm serve` command of one Ray Serve LLMConfig's settings."""
    loading = config["model_loading_config"]
    source = loading.get("model_source")
    model = source if isinstance(source, str) else loading.get("model_id")
    argv = ["vllm", "serve", *([str(model)] if model is not None else [])]
    for key, value in config["engine_kwargs"].items():
        flag = "--" + str(key).replace("_", "-")
        if value is None or value is False:
            continue  # (an engine argument's default: no word)
        if value is True:
            argv.append(flag)
        elif isinstance(value, dict):
            argv += [flag, json.dumps(value)]
        elif isinstance(value, list):
            argv += [flag, *(str(v) for v in value)]
        else:
            argv += [flag, str(value)]
    return argv


def _stack_model_argv(spec: dict[str, Any]) -> list[str]:
    config = spec.get("vllmConfig") if isinstance(spec.get("vllmConfig"), dict) else {}
    argv = ["vllm", "serve", str(spec["modelURL"])]
    if spec.get("enableLoRA"):
        argv.append("--enable-lora")
    if spec.get("enableTool"):
        argv.append("--enable-auto-tool-choice")
    if spec.get("toolCallParser"):
        argv += ["--tool-call-parser", str(spec["toolCallParser"])]
    if "enableChunkedPrefill" in config:
        argv.append("--enable-chunked-prefill" if config["enableChunkedPrefill"] else "--no-enable-chunked-prefill")
    argv.append("--enable-prefix-caching" if config.get("enablePrefixCaching") else "--no-enable-prefix-caching")
    argv += [word for key, flag in _STACK_FLAGS if key in config for word in (flag, str(config[key]))]
    argv += [str(word) for word in config.get("extraArgs") or []]
    env = _k8s_env(spec.get("env"))
    if str(config.get("v0")) == "1":
        env["VLLM_USE_V1"] = "0"
    engine_env = [f"{k}={v}" for k, v in env.items() if k.startswith(ENGINE_ENV_PREFIXES)]
    image = f"{spec.get('repository', 'vllm/vllm-openai')}:{spec.get('tag', 'latest')}"
    return [*(["env", *engine_env] if engine_env else []), image, *argv]


def _inspect_path_args(text: str, reader: ArgvReader) -> list[str] | None:
    """`docker inspect -f '{{.Path}} {{.Args}}' CONTAINER`: the process path, then its
    arguments as Go prints a []string (`[serve M --speculative-config {"method":...}]`: joined by
    spaces in brackets, quotes kept, as a `ps` line). Was: the bracketed words read as shell
    words (`[serve` no subcommand: a vLLM image's flags unread). None for any other text."""
    m = re.fullmatch(r"[ \t]*(\S+)[ \t]+\[(.+)\][ \t]*\n?", text)
    if not m or m.group(1).startswith(("[", "$", "#")):
        return None
    try:
        words = [m.group(1), *split_keeping_json(m.group(2))]
    except ValueError:
        return None
    return words if reader.is_server(reader.server_argv(words)) else None


def _describe_shell_string(container: dict[str, Any]) -> dict[str, Any]:
    """`command: [sh, -c]` + one multi-line script in `args`: describe printed the script one
    line per line, which are its lines again, not argv words."""
    words = container["command"] + container["args"]
    for i, word in enumerate(words[:-1]):
        if word in ("-c", "-lc", "-ec") and words[i - 1].rsplit("/", 1)[-1] in ("sh", "bash", "dash", "zsh") and (
                len(words) > i + 2):
            return {**container, "command": words[:i + 1], "args": ["\n".join(words[i + 1:])]}
    return container


# A compose file's top-level `services:` key (compose spec, "Services top-level element").
COMPOSE_SERVICES = re.compile(r"^services[ \t]*:", re.M)
# The lines that name a file in a paste of several: `$ cat .env` (the compose docs' own example),
# `==> .env <==` (head/tail of several files), `# .env`, `.env:`.
_FILE_HEADER = re.compile(r"[ \t]*(?:\$[ \t]*cat[ \t]+(?P<cat>\S+)|==>[ \t]*(?P<tail>\S+)[ \t]*<==|#[ \t]*(?P<hash>\S+)"
                          r"|(?P<colon>\S+):)[ \t]*")
# A dotenv line (compose-go dotenv: `KEY=value`, `export KEY=value`, quotes, a ` #` comment).
_DOTENV_LINE = re.compile(r"[ \t]*(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_.]*)[ \t]*=[ \t]*(.*)")


def _dotenv_and_compose(text: str) -> tuple[dict[str, str], str] | None:
    """A compose file pasted with the `.env` beside it (`$ cat .env` / `SPEC_STEPS=3` / `$ cat
    compose.yaml` / `services:` ..., as the compose docs show them, or the assignments alone above
    `services:`): the .env's values and the compose text. None for any other text."""
    if not COMPOSE_SERVICES.search(text):
        return None
    lines = text.splitlines()
    dotenv: dict[str, str] = {}
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        header = _FILE_HEADER.fullmatch(line)
        name = next((g for g in header.groups() if g), "") if header else ""
        assignment = _DOTENV_LINE.fullmatch(line)
        if header and (name.endswith(".env") or name == ".env"):
            continue
        if assignment and not header:
            dotenv[assignment.group(1)] = _dotenv_value(assignment.group(2))
            continue
        if line.lstrip().startswith("#") and not name.endswith((".yaml", ".yml")):
            continue  # a comment of the .env (or above the compose file)
        if header and name.endswith((".yaml", ".yml")):
            i += 1
        if not dotenv:
            return None
        return dotenv, "\n".join(lines[i:])
    return None


def _dotenv_value(raw: str) -> str:
    """A dotenv value as compose reads it: single quotes literal, double quotes with their
    escapes, else the text before a ` #` comment (docs.docker.com/compose/how-tos/
    environment-variables/variable-interpolation/, ".env syntax")."""
    raw = raw.strip()
    if len(raw) > 1 and raw[0] == raw[-1] == "'":
        return raw[1:-1]
    if len(raw) > 1 and raw[0] == raw[-1] == '"':
        return raw[1:-1].replace('\\n', "\n").replace('\\"', '"').replace("\\\\", "\\")
    return re.split(r"[ \t]+#", raw, maxsplit=1)[0].strip()


# Compose's interpolation (compose spec, "Interpolation"): `$$`, `$VAR`, `${VAR}` and
# `${VAR:-default}`, `${VAR-default}`, `${VAR:?error}`, `${VAR?error}`, `${VAR:+alt}`, `${VAR+alt}`.
_COMPOSE_REFERENCE = re.compile(r"\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([^{}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


def _compose_interpolated(node: Any, dotenv: dict[str, str]) -> Any:
    """The document with the .env's values filled in, as `docker compose up` fills them (the
    shell's environment, which would override them, is not in the paste). A variable the .env
    does not set and that has no default stays as written: unknown."""
    if isinstance(node, dict):
        return {k: _compose_interpolated(v, dotenv) for k, v in node.items()}
    if isinstance(node, list):
        return [_compose_interpolated(v, dotenv) for v in node]
    if not isinstance(node, str):
        return node
    return _COMPOSE_REFERENCE.sub(lambda m: _compose_value(m, dotenv), node)


def _compose_value(m: re.Match[str], dotenv: dict[str, str]) -> str:
    if m.group(0) == "$$":
        return "$$"  # (kept for _expand_k8s, which reads `$$` as one `$`)
    name = m.group(1) or m.group(4)
    operator, word = m.group(2) or "", m.group(3) or ""
    if name not in dotenv:
        # (a default is the value when neither the .env nor the shell sets it: the paste is
        # taken as the whole of what is set, as for the .env's own values)
        return word if operator.endswith("-") else m.group(0)
    value = dotenv[name]
    empty = operator.startswith(":") and value == ""
    if operator.endswith("-"):
        return word if empty else value
    if operator.endswith("?") and empty:
        raise LaunchParseError(f"docker compose refuses to start: required variable {name} is empty in .env ({word})",
                               hint=f"set {name} in the .env file")
    if operator.endswith("+"):
        return "" if empty else word
    return value


# The same keys in JSON (`kubectl get pod -o json`: "command", "args", "image"; `docker inspect`:
# "Path", "Args", "Cmd", "Entrypoint", "Image"): JSON is YAML, read by the same loader.
_JSON_CONTAINER_KEY = re.compile(r'^\s*[\[{][\s\S]*"(?:command|args|entrypoint|image|Path|Args|Cmd|Entrypoint|Image)"\s*:')


# Argo Workflows' parameter references, filled in when the workflow runs: the workflow's own
# `spec.arguments.parameters` (`{{workflow.parameters.NAME}}`), and a template's inputs
# (`{{inputs.parameters.NAME}}`), which the entrypoint template takes from those same arguments
# by name and any template from its `value` / `default` (argoproj/argo-workflows
# docs/variables.md, docs/walk-through/parameters.md).
_ARGO_PARAMETER = re.compile(r"\{\{\s*((?:inputs|workflow)\.parameters\.[\w-]+)\s*\}\}")


def _argo_filled(doc: Any) -> Any:
    """An Argo Workflow (or WorkflowTemplate, CronWorkflow) with the parameter references of its
    templates' containers filled in from the values the file gives; others as they are."""
    if not (isinstance(doc, dict) and str(doc.get("apiVersion", "")).startswith("argoproj.io/")
            and isinstance(doc.get("spec"), dict)):
        return doc
    spec = doc["spec"].get("workflowSpec", doc["spec"])  # (a CronWorkflow nests the Workflow's spec)
    if not isinstance(spec, dict) or not isinstance(spec.get("templates"), list):
        return doc

    def values(parameters: Any, keys: tuple[str, ...]) -> dict[str, str]:
        found = {}
        for parameter in parameters if isinstance(parameters, list) else []:
            if isinstance(parameter, dict) and isinstance(parameter.get("name"), str):
                value = next((parameter[k] for k in keys if parameter.get(k) is not None), None)
                if value is not None and not isinstance(value, (dict, list)):
                    found[parameter["name"]] = str(value)
        return found

    arguments = values((spec.get("arguments") or {}).get("parameters"), ("value",))
    filled = {f"workflow.parameters.{name}": value for name, value in arguments.items()}
    templates = []
    for template in spec["templates"]:
        if not isinstance(template, dict):
            templates.append(template)
            continue
        declared = (template.get("inputs") or {}).get("parameters") if isinstance(template.get("inputs"), dict) else None
        inputs = values(declared, ("value", "default"))
        if template.get("name") == spec.get("entrypoint"):
            names = {p.get("name") for p in declared or [] if isinstance(p, dict)}
            inputs.update({name: value for name, value in arguments.items() if name in names})
        known = {**filled, **{f"inputs.parameters.{name}": value for name, value in inputs.items()}}
        templates.append(_with_strings(template, lambda text: _ARGO_PARAMETER.sub(
            lambda m: known.get(m.group(1), m.group(0)), text)))
    spec = {**spec, "templates": templates}
    if "workflowSpec" in doc["spec"]:
        return {**doc, "spec": {**doc["spec"], "workflowSpec": spec}}
    return {**doc, "spec": spec}


def _with_strings(value: Any, change: Callable[[str], str]) -> Any:
    if isinstance(value, str):
        return change(value)
    if isinstance(value, dict):
        return {key: _with_strings(item, change) for key, item in value.items()}
    if isinstance(value, list):
        return [_with_strings(item, change) for item in value]
    return value


def _inspected_containers(doc: Any) -> Any:
    """`docker inspect` / `podman inspect` output (a list of objects) as the container specs
    the manifest reading takes. A container's process is "Path" + "Args" (the entrypoint and
    command as the runtime resolved them), its image and environment are under "Config"
    (Docker Engine API, ContainerInspect: Path, Args, Config.Image, Config.Env); an image's
    inspect has only Config.Entrypoint + Config.Cmd. Any other document is returned as is
    (was: its JSON read as shell words, a vLLM server with no speculative config)."""
    objects = doc if isinstance(doc, list) else [doc]
    if not objects or not all(isinstance(o, dict) and isinstance(o.get("Config"), dict) for o in objects):
        return doc
    specs = []
    for o in objects:
        config = o["Config"]
        if isinstance(o.get("Path"), str):
            process = [o["Path"], *(o.get("Args") or [])]
        else:
            process = [*(config.get("Entrypoint") or []), *(config.get("Cmd") or [])]
        specs.append({"image": config.get("Image"), "entrypoint": [str(w) for w in process],
                      "environment": config.get("Env") or []})
    return specs


# A YAML block-sequence item line: `- "--speculative-algorithm"`, `  - EAGLE3`.
_YAML_ITEM = re.compile(r"[ \t]*-[ \t]+\S.*")


def _yaml_list_argv(text: str, reader: ArgvReader) -> list[str] | None:
    """The items of a YAML list pasted alone: the lines a README says to add to a compose
    `command:` or a container's `args:` (`- "--speculative-algorithm"` / `- "EAGLE"` ...; a
    public Qwen3.8 SGLang compose README on GitHub, "MTP / Speculative Decoding"). Each item is
    one argv word, as the runtime passes it (was: the dashes read as words, no server command).
    Only a text of item lines alone (comments and blank lines aside) whose first item is a flag,
    or whose items are a server command."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines or not all(_YAML_ITEM.fullmatch(line) for line in lines):
        return None
    try:
        items = yaml.safe_load(textwrap.dedent("\n".join(lines)))
    except yaml.YAMLError:
        return None
    if not isinstance(items, list) or not items or not all(isinstance(i, (str, int, float)) for i in items):
        return None
    words = [str(i) for i in items]
    # (or the whole command as a compose `command:` list: `- python3` / `- -m` / ... / `- "3"`,
    # whose last value was read as missing when its dashes were words)
    return words if words[0].startswith("-") or reader.is_server(words) else None


# An Ansible variables file (group_vars/, host_vars/, a role's defaults/main.yml): its names are
# letters, digits and underscores (Ansible docs, "Using variables", "Creating valid variable
# names"), and a role hands the server its flags as a list or string variable
# (`sglang_args: [--speculative-algorithm, EAGLE3, ...]`) that its template puts in the command.
# A `--config` YAML never has a value that is flags: the engine would make it `--KEY --flag ...`.
_ANSIBLE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# `{{ name }}`: a variable of the same file (Jinja2, which Ansible templates with).
_JINJA_VARIABLE = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
_MODEL_VARIABLES = ("model_path", "model", "model_name", "model_id")


def _ansible_vars_argv(text: str) -> list[str] | None:
    """The server an Ansible variables file configures: the flags in its flag-list variables, the
    engine their names say (`sglang_args`, `vllm_extra_args`) or else the flags only one engine
    has, and the model its `model_path` / `sglang_model_path`-like variable names. Was: read as an
    SGLang `--config` file (`model_path:` -> `--model_path is not an SGLang flag`, the flags in
    `sglang_args` unread). None for any other text."""
    if not re.search(r"^[A-Za-z_]\w*[ \t]*:", text, re.M):
        return None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict) or not data or not all(isinstance(k, str) and _ANSIBLE_NAME.fullmatch(k) for k in data):
        return None
    scalars = {k: str(v) for k, v in data.items() if isinstance(v, (str, int, float)) and not isinstance(v, bool)}
    lists = {name: words for name, words in ((n, _flag_words(v, scalars)) for n, v in data.items() if _names_server_flags(n))
             if words}
    if not lists:
        return None
    words = [word for listed in lists.values() for word in listed]
    named = {engine for name in lists for engine in ("sglang", "vllm") if engine in name.lower()}
    if len(named) > 1:
        raise LaunchParseError(
            f"an Ansible variables file with flags for both engines ({', '.join(lists)}): which server "
            "the role starts is in its tasks, not in this text",
            hint="paste the command the role runs (`ps -ww -o args -p PID` on the host), or the one variable")
    engine = named.pop() if named else "vllm" if only_vllm_flags(words) else "sglang" if only_sglang_flags(words) else None
    if engine is None:
        return None
    model = next((scalars[k] for k in data if k in scalars and (
        k.lower()[len(engine) + 1:] if k.lower().startswith(engine + "_") else k.lower()) in _MODEL_VARIABLES), None)
    if engine == "vllm":
        given = model is not None and not any(w in ("--model", "-m") or w.startswith("--model=") for w in words)
        return ["vllm", "serve", *([_jinja_filled(model, scalars)] if given else []), *words]
    given = model is not None and not any(w.split("=", 1)[0] in ("--model-path", "--model") for w in words)
    return ["python3", "-m", "sglang.launch_server", *(["--model-path", _jinja_filled(model, scalars)] if given else []), *words]


# The words of a variable's name that say it holds the server's own flags (`sglang_args`,
# `vllm_extra_args`, `vllm_serve_flags`). A role keeps other tools' flags beside them
# (`sglang_pip_args: "--upgrade --extra-index-url ..."`, `vllm_docker_args`, `vllm_bench_args`,
# `node_exporter_extra_args`): a name with any other word is not the server's.
_SERVER_FLAG_NAME_WORDS = frozenset((
    "sglang", "vllm", "args", "arguments", "argv", "extra", "additional", "custom", "common", "default", "defaults",
    "server", "serve", "serving", "launch", "engine", "flags", "cli", "opts", "options", "params", "parameters",
    "spec", "speculative", "speculation", "decoding", ""))


def _names_server_flags(name: str) -> bool:
    return set(name.lower().split("_")) <= _SERVER_FLAG_NAME_WORDS


# The modules of an Ansible task that run a command (ansible.builtin.shell / command, their short
# and ansible.legacy names): a string, or `cmd:` / `argv:` under the module.
_ANSIBLE_COMMAND_MODULES = tuple(f"{prefix}{name}" for prefix in ("", "ansible.builtin.", "ansible.legacy.")
                                 for name in ("shell", "command"))
_ANSIBLE_TASK_LISTS = ("tasks", "pre_tasks", "post_tasks", "handlers", "block", "rescue", "always")
# `{{ name }}`, `{{ name | join(' ') }}`, `{{ name | int }}` and the like, `{{ name + 1 }}`.
_JINJA_EXPRESSION = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\|\s*(join\(\s*(['\"])(.*?)\3\s*\)|int|string|quote|trim)\s*"
                               r"|([+-])\s*(\d+)\s*)?\}\}")


def _ansible_play_argv(text: str, reader: ArgvReader) -> list[str] | None:
    """The server an Ansible playbook's shell/command task starts, its `{{ var }}` filled from the
    play's and the task's `vars:` (Jinja2, as Ansible templates a task's arguments). Was: read as
    a container spec or shell words, `--speculative-num-steps {{ spec_steps }}` refused as 'expects
    an integer, got {{'. None for any other text."""
    if not re.search(r"^\s*-?\s*(?:hosts|tasks)\s*:", text, re.M):
        return None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, list) or not all(isinstance(play, dict) for play in doc) or not any(
            "hosts" in play or "tasks" in play for play in doc):
        return None
    commands = [(command, variables) for play in doc for command, variables in _ansible_commands(play, {})]
    for command, variables in commands:
        if not re.search(r"\b(?:sglang|vllm)\b", command):
            continue
        filled = _JINJA_EXPRESSION.sub(lambda m: _jinja_value(m, variables), command)
        if "{{" in filled and _starts_no_server(filled, reader):
            # (`pip install vllm=={{ vllm_version }}` above the server's task, its version in a
            # group_vars file: the server's task is what the audit needs filled)
            continue
        if "{{" in filled:
            unknown = sorted(set(re.findall(r"\{\{.*?\}\}", filled)))
            raise LaunchParseError(
                f"this Ansible task's command uses {', '.join(unknown)}, which the play's vars in this text "
                "do not set: the server's flags are not all here",
                hint="paste the command as it ran (`ps -ww -o args -p PID` on the host), or the vars file too")
        try:
            argv = reader.script_argv(filled)
        except LaunchParseError:
            continue
        if reader.is_server(argv):
            return argv
    return None


def _starts_no_server(command: str, reader: ArgvReader) -> bool:
    """A task's command, its unset `{{ ... }}` held by a plain word, that starts no server (one
    whose words the audit refuses is taken for a server: its unset values may be why)."""
    try:
        argv = reader.script_argv(re.sub(r"\{\{.*?\}\}", "0", command))
    except LaunchParseError:
        return False
    return not reader.is_server(argv)


def _ansible_commands(node: dict[str, Any], inherited: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(command text, the vars it sees) of every shell/command task under a play or block, in order."""
    variables = {**inherited, **(node.get("vars") if isinstance(node.get("vars"), dict) else {})}
    found: list[tuple[str, dict[str, Any]]] = []
    for module in _ANSIBLE_COMMAND_MODULES:
        value = node.get(module)
        if isinstance(value, dict):
            value = value.get("cmd") if isinstance(value.get("cmd"), str) else (
                shlex.join(str(w) for w in value["argv"]) if isinstance(value.get("argv"), list) else None)
        if isinstance(value, str):
            found.append((value, variables))
    for key in _ANSIBLE_TASK_LISTS:
        for task in node.get(key) or []:
            if isinstance(task, dict):
                found += _ansible_commands(task, variables)
    return found


def _jinja_value(m: re.Match[str], variables: dict[str, Any]) -> str:
    """One `{{ ... }}` of a task filled from its vars (left as written when it cannot be)."""
    value = variables.get(m.group(1))
    if value is None or isinstance(value, dict):
        return m.group(0)
    if m.group(2) and m.group(2).startswith("join"):
        return m.group(4).join(str(v) for v in value) if isinstance(value, list) else m.group(0)
    if isinstance(value, list):
        return m.group(0)
    if m.group(5):
        if not isinstance(value, int) or isinstance(value, bool):
            return m.group(0)
        return str(value + int(m.group(6)) if m.group(5) == "+" else value - int(m.group(6)))
    return shlex.quote(str(value)) if m.group(2) == "quote" else str(value)


def _flag_words(value: Any, scalars: dict[str, str]) -> list[str] | None:
    """A variable's value as the argv words it gives, when it is flags: a list whose first item is
    a flag (an item `--flag value` is the flag and its value, as the template's `join(' ')` makes
    them) or a string that starts with one. None for any other value."""
    if isinstance(value, list) and value and all(isinstance(i, (str, int, float)) and not isinstance(i, bool) for i in value):
        items = [_jinja_filled(str(i), scalars) for i in value]
        if not items[0].startswith("--"):
            return None
        return [word for item in items for word in (item.split(None, 1) if item.startswith("--") else [item])]
    if isinstance(value, str) and value.lstrip().startswith("--"):
        try:
            return split_keeping_json(_jinja_filled(value, scalars))
        except ValueError:  # (unbalanced quotes: no flags)
            return None
    return None


def _jinja_filled(value: str, scalars: dict[str, str]) -> str:
    """`{{ name }}` filled with the same file's variable (an unknown one stays as written)."""
    return _JINJA_VARIABLE.sub(lambda m: scalars.get(m.group(1), m.group(0)), value)


def _config_file_alone(text: str) -> list[str] | None:
    """The server a `--config FILE.yaml` pasted alone configures (`model: ...` /
    `speculative-config:` / `  method: eagle3` ...): both engines read such a file as flags
    (spec_debug.diagnose.config_file), and keys only one engine has name it, as flags pasted
    alone are named. Was: 'not an SGLang or vLLM server command'. None for any other text."""
    if not re.search(r"^[A-Za-z][\w.-]*[ \t]*:", text, re.M):
        return None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict) or not data or not all(isinstance(k, str) for k in data):
        return None
    keys = [f"--{key}" for key in data]
    if only_vllm_flags(keys):
        head = ["vllm", "serve"]
    elif only_sglang_flags(keys):
        head = ["python3", "-m", "sglang.launch_server"]
    else:
        return None
    from spec_debug.diagnose.config_file import config_words, sglang_words  # (they import launch.py, which imports this module)
    return head + (config_words("vllm", text, "config.yaml") if head[0] == "vllm" else sglang_words(text, "config.yaml"))


def notebook_code(text: str) -> str | None:
    """The code cells of a Jupyter notebook file (.ipynb JSON: `nbformat`, `cells` whose
    `source` is a string or a list of lines; nbformat docs, "The Notebook file format"), one
    after another: the SGLang docs' notebooks start their servers in such cells. None for any
    other text (was: the JSON read as shell words, no server command)."""
    if '"nbformat"' not in text or '"cells"' not in text:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    cells = doc.get("cells") if isinstance(doc, dict) and "nbformat" in doc else None
    if not isinstance(cells, list):
        return None
    code = [cell for cell in cells if isinstance(cell, dict) and cell.get("cell_type") == "code"]
    # A saved notebook marks each cell it ran: `execution_count` an int, or `outputs` (nbformat
    # docs, "Code cells": null for a cell never executed). Where some cells ran, a cell that did
    # not is no server that ran: a commented-out variant or a leftover launch string above the
    # one run (was: the first server in the file audited, the one run never). A notebook with no
    # cell run (a docs notebook saved stripped of its outputs) is read whole, as before.
    # A cell still running when the file was saved looks the same, though: JupyterLab sets its
    # count to null as it starts and to the number only from the execute_reply, when it finishes
    # (jupyterlab/jupyterlab packages/cells/src/widget.ts, CodeCell.execute), so a blocking `!python -m
    # sglang.launch_server ... > server.log 2>&1` is saved as never run. The cells that ran are
    # read alone only where they start the server (a speculating one, when a cell not run has
    # speculative settings); else the notebook is read whole, as before.
    ran: list[dict] = []
    unran: list[dict] = []
    for cell in code:  # each cell asked once (was: twice, once for each list)
        (ran if _cell_ran(cell) else unran).append(cell)
    whole = _cells_code(code)
    if ran and unran:
        ran_code = _cells_code(ran)
        unran_code = _cells_code(unran) or ""
        if ran_code and _STARTS_SERVER.search(ran_code) and (
                "speculative" in ran_code or "speculative" not in unran_code):
            return ran_code
    return whole


# What starts a server in a notebook cell: a server module or console script (as the probe's
# _SERVER_MARKERS), the SGLang docs' launch helpers, an offline engine built in Python.
_STARTS_SERVER = re.compile(r"sglang\.launch_server|sglang_router\.launch_server|vllm\.entrypoints\."
                            r"|\b(?:sglang|vllm)\s+serve\b|\b(?:launch_server_cmd|popen_launch_server)\s*\("
                            r"|\b(?:LLM|Engine|EngineArgs|AsyncEngineArgs|ServerArgs)\s*\(")


def _cells_code(cells: list[dict]) -> str | None:
    sources = []
    for cell in cells:
        source = cell.get("source")
        source = "".join(str(line) for line in source) if isinstance(source, list) else source
        if isinstance(source, str):
            sources.append(source)
    return "\n".join(sources) if sources else None


def _cell_ran(cell: dict) -> bool:
    count = cell.get("execution_count")
    return (isinstance(count, int) and not isinstance(count, bool)) or bool(cell.get("outputs"))


def task_script(text: str) -> str | None:
    """The script a cloud task file runs, its variables set above it (SkyPilot, dstack), or None."""
    return skypilot_run(text) or _dstack_commands(text)


# A dstack run configuration (dstack docs, "Services" / "Tasks"): `type: service|task|
# dev-environment`, `commands:` run one after another in the container, `env:` given to them as
# `KEY=value` items (a bare `KEY` is taken from the user's shell: not in the text) or a mapping.
_DSTACK_TYPES = ("service", "task", "dev-environment")


@lru_cache(maxsize=4)
def _dstack_doc(text: str) -> dict[str, Any] | None:
    """The dstack configuration in `text`, parsed once for the readers of its commands and of its
    env: (the audit asks both of one text; was: the YAML parsed once per question). Read only."""
    if not re.search(r"^commands\s*:", text, re.M):
        return None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict) or doc.get("type") not in _DSTACK_TYPES or not isinstance(doc.get("commands"), list):
        return None
    return doc


def _dstack_commands(text: str) -> str | None:
    """A dstack configuration's `commands`, its `env` values written above them as the script's
    own assignments, so `--model-path $MODEL_ID` serves the model named there (was: the YAML read
    as shell words, `$MODEL_ID` unexpanded: the target and draft unknown). None for any other text."""
    doc = _dstack_doc(text)
    if doc is None:
        return None
    env = doc.get("env")
    pairs = (env.items() if isinstance(env, dict) else
             (str(item).split("=", 1) for item in env if "=" in str(item)) if isinstance(env, list) else ())
    assignments = "".join(f"{name}={shlex.quote(str(value))}\n" for name, value in pairs
                          if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)) and isinstance(value, (str, int, float))
                          and not isinstance(value, bool))
    commands = "\n".join(str(command) for command in doc["commands"] if isinstance(command, (str, int, float)))
    unfilled = _dstack_unfilled(commands)
    if unfilled is not None:
        raise unfilled
    return assignments + _DSTACK_INTERPOLATION.sub(lambda m: "${{" + m.group(1) + "}}", commands)


def _dstack_unfilled(commands: str) -> LaunchParseError | None:
    """A `${{ env.NAME }}` (or any name but run.args and secrets.*) in the commands: `dstack apply`
    fills in only `${{ run.args }}` there, leaves `secrets.*` to the server, and refuses any other
    name with "Failed to interpolate due to missing vars" (dstackai/dstack
    src/dstack/_internal/cli/services/configurators/run.py `apply_commands_args`; `env.*` is filled
    in only in registry_auth and probes, `interpolate_env`), so no server runs from this file
    (was: read as a shell expression the shell expands when the server starts)."""
    for match in _DSTACK_INTERPOLATION.finditer(commands):
        name = match.group(1)
        if name == "run.args" or name.startswith("secrets."):
            continue
        variable = name.split(".", 1)[1] if name.startswith("env.") else None
        fix = (f"write ${variable} (dstack gives the env: entries to the commands as environment variables)"
               if variable else "use ${{ run.args }} or a variable of env:")
        return LaunchParseError(
            f"dstack configuration: the commands use ${{{{ {name} }}}}, which dstack apply does not fill in there "
            f"(only ${{{{ run.args }}}}): it refuses the configuration with \"Failed to interpolate due to missing "
            f"vars: ['{name}']\" and no server starts", hint=fix)
    return None


# dstack fills `${{ run.args }}` (the arguments after `dstack apply -f FILE`) into the commands
# before a shell runs them, and `${{ secrets.X }}` on the server (dstack docs, "Tasks": "Parametrize
# tasks ... using ${{ run.args }}"; `apply_commands_args`, see _dstack_unfilled). Written without its spaces it is one
# shell word, read as a shell expansion: where flags go, the flags it holds are not in the text
# (was: three words, `${{`, `run.args`, `}}`, with no word said about them).
_DSTACK_INTERPOLATION = re.compile(r"\$\{\{\s*([A-Za-z_][\w.]*)\s*\}\}")


def dstack_unvalued_env(text: str) -> tuple[str, ...]:
    """The names a dstack configuration's `env:` lists with no value (`- HF_TOKEN`, or a mapping's
    `HF_TOKEN:` left empty): dstack takes them from `dstack apply -e NAME=value` or the environment
    `dstack apply` runs in (dstack docs, "Environment variables": "If you don't assign a value to an
    environment variable ... dstack will require the value to be passed via the CLI or set in the
    current process"), so their values are not in the file. () for any other text."""
    doc = _dstack_doc(text)
    if doc is None:
        return ()
    env = doc.get("env")
    if isinstance(env, dict):
        names = [name for name, value in env.items() if value is None]
    elif isinstance(env, list):
        names = [item for item in env if isinstance(item, str) and "=" not in item]
    else:
        return ()
    return tuple(str(name).strip() for name in names if re.fullmatch(r"\s*[A-Za-z_][A-Za-z0-9_]*\s*", str(name)))


def skypilot_run(text: str) -> str | None:
    """The `run:` script of a SkyPilot task YAML, its `envs:` written above it as the script's
    own assignments: SkyPilot exports them to `setup` and `run` (SkyPilot docs, "YAML
    specification": envs "can be used in setup and run"), so `vllm serve $MODEL_NAME` serves the
    model named there. None for any other text."""
    if not re.search(r"^run\s*:", text, re.M):
        return None
    try:
        doc = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(doc, dict) or not isinstance(doc.get("run"), str) or not (
            {"envs", "resources", "setup", "num_nodes"} & set(doc)):
        return None
    envs = doc.get("envs") if isinstance(doc.get("envs"), dict) else {}
    assignments = "".join(f"{name}={shlex.quote(str(value))}\n" for name, value in envs.items()
                          if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)) and isinstance(value, (str, int, float))
                          and not isinstance(value, bool))
    return assignments + doc["run"]


def _container_argv(container: dict[str, Any], strings_only: bool = True) -> list[str] | None:
    """k8s runs `command` (replacing the image ENTRYPOINT) + `args` (its CMD); compose runs
    `entrypoint` + `command` (sgl-project/sglang docker/compose.yaml puts the server module in
    `entrypoint` and its flags in `command`). None: a string that is not shell words.
    `strings_only`: the container is Kubernetes' or compose's, whose items are strings."""
    argv = [str(container["image"])] if isinstance(container.get("image"), str) else []
    if argv and _HELM_ACTION.search(argv[0]):
        # `vllm/vllm-openai:{{ .Values.image.tag }}`: still the engine's image, of a release the
        # values file names (read as no release)
        argv[0] = re.sub(r"\{\{.*?\}\}", "helm-value", argv[0])
    env = _k8s_env(container.get("env"))
    for key in ("entrypoint", "command", "args"):
        value = container.get(key)
        if isinstance(value, str):  # compose allows a string, split as shell words
            try:
                argv += shlex.split(value)
            except ValueError:  # unbalanced quotes: not a manifest after all
                return None
        elif isinstance(value, list):
            if strings_only:
                _refuse_structured_items(key, value)
            argv += [_expand_k8s(str(a), env) for a in value]
    if isinstance(container.get("source"), str) and isinstance(container.get("command"), list):
        # an Argo Workflows `script:` template: its `source` is saved to a file that `command`
        # runs (argoproj/argo-workflows docs/walk-through/scripts-and-results.md), as `-c` would
        argv += ["-c", container["source"]]
    if str(container.get("engine")).upper() == "VLLM" and isinstance(container.get("url"), str):
        # a KubeAI Model (kubeai.org/v1: `engine: VLLM`, `url: hf://org/name`, `args:`): KubeAI
        # runs vLLM on the url's model with these args (substratusai/kubeai docs/model-management.md)
        model = container["url"][len("hf://"):] if container["url"].startswith("hf://") else None
        argv = ["vllm", "serve", *([model] if model else []), *argv]
    elif not any(isinstance(container.get(k), (str, list)) for k in ("image", "entrypoint", "command")) and (
            only_vllm_flags(argv)):
        # a container's `args:` pasted without its image (vllm-project/vllm#20364): the server
        # is the image's entrypoint, and flags only vLLM has say it is vLLM's (`vllm serve`)
        argv = ["vllm", "serve", *argv]
    # The server inherits the container's environment (k8s `env`, compose `environment`):
    # SGLANG_ENABLE_SPEC_V2 there changes what runs. Only the engines' own variables travel
    # on, as the probe ships only those from /proc/PID/environ (no tokens, no keys).
    engine_env = [f"{k}={v}" for k, v in {**env, **_compose_env(container.get("environment"))}.items()
                  if k.startswith(ENGINE_ENV_PREFIXES)]
    return ["env", *engine_env, *argv] if engine_env and argv else argv


def _refuse_structured_items(key: str, items: list[Any]) -> None:
    """A `command:` / `args:` list item that YAML read as a mapping or a list: the JSON of
    --speculative-config written unquoted (`- {"method": "eagle3", ...}`) is YAML flow syntax. The
    runtime takes strings only, and refuses the file: Kubernetes' Container.Args is []string
    (k8s.io/api core/v1 types.go; kubectl: "cannot unmarshal object into Go struct field
    Container.spec.template.spec.containers.args of type string"), the compose spec's command is a
    string or a list of strings (compose-spec schema/compose-spec.json, "command"). Was: read as
    Python's dict syntax, with a hint to write the JSON the file already has."""
    for item in items:
        if isinstance(item, (dict, list)):
            written = json.dumps(item)
            raise LaunchParseError(
                f"{key}: the item {written} is a YAML {'mapping' if isinstance(item, dict) else 'list'}, not a string "
                "(JSON written unquoted in a YAML list is YAML's own flow syntax): a container's command and args "
                "are strings, so kubectl / docker compose refuses the file and the server never starts",
                hint=f"quote the item whole: - '{written}'")


# Options only vLLM's server has, and options only SGLang's has (its names for the same settings):
# vllm/engine/arg_utils.py and sglang/srt/server_args.py.
_VLLM_ONLY = ("speculative-config", "gpu-memory-utilization", "max-model-len", "max-num-seqs",
              "max-num-batched-tokens", "enforce-eager", "spec-tokens", "spec-method")
_SGLANG_ONLY = ("speculative-algorithm", "model-path", "mem-fraction-static", "context-length", "tp-size",
                "speculative-num-steps", "speculative-draft-model-path", "speculative-eagle-topk",
                "speculative-num-draft-tokens")


def only_sglang_flags(words: list[str]) -> bool:
    names = {w[2:].split("=", 1)[0].replace("_", "-") for w in words if w.startswith("--")}
    return bool(names & set(_SGLANG_ONLY)) and not names & set(_VLLM_ONLY)


def only_vllm_flags(words: list[str]) -> bool:
    names = {w[2:].split("=", 1)[0].split(".", 1)[0].replace("_", "-") for w in words if w.startswith("--")}
    return bool(names & set(_VLLM_ONLY)) and not names & set(_SGLANG_ONLY)


# The engines read these from their environment (SGLANG_ENABLE_SPEC_V2, VLLM_USE_V1, ...).
ENGINE_ENV_PREFIXES = ("SGLANG_", "SGL_", "VLLM_")


def _compose_env(entries: Any) -> dict[str, str]:
    """A compose service's `environment:`, a mapping or a list of `KEY=value` (compose spec)."""
    if isinstance(entries, dict):
        return {str(k): str(v) for k, v in entries.items() if isinstance(v, (str, int, float))}
    if isinstance(entries, list):
        return dict(str(e).split("=", 1) for e in entries if isinstance(e, str) and "=" in e)
    return {}


def _k8s_env(entries: Any) -> dict[str, str]:
    """A k8s container's `env: [{name, value}]` (entries from secrets or fields have no value here).
    A value's own `$(VAR)` references are expanded from the entries above it, as the kubelet
    does (k8s API reference, EnvVar.value: "Variable references $(VAR_NAME) are expanded using
    the previously defined environment variables in the container"): `DRAFT: $(MODEL_DIR)/eagle3`."""
    if not isinstance(entries, list):
        return {}
    env: dict[str, str] = {}
    for e in entries:
        if isinstance(e, dict) and "name" in e and isinstance(e.get("value"), (str, int, float)):
            env[str(e["name"])] = _expand_k8s(str(e["value"]), env)
    return env


def _expand_k8s(arg: str, env: dict[str, str]) -> str:
    """Kubernetes expands `$(VAR)` in command and args from the container's env; `$$` escapes
    it and an unknown reference stays as written (k8s docs, "Define a command and arguments for
    a container": "Use environment variables to define arguments")."""
    return re.sub(r"\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)",
                  lambda m: "$" if m.group(0) == "$$" else env.get(m.group(1), m.group(0)), arg)


def _find_containers(doc: Any) -> list[dict[str, Any]]:
    """Every mapping with `command`, `args` or `entrypoint`, depth-first in file order (a
    Deployment nests it under spec.template.spec.containers). A healthcheck's `test:` list is
    not one of them."""
    if isinstance(doc, dict):
        if any(key in doc for key in ("command", "args", "entrypoint")) and "templates" not in doc:
            return [doc]
        # (an Argo Workflow's spec names the template it starts with in `entrypoint:` and holds
        # the templates, whose `container:` is the server's: argoproj/argo-workflows
        # docs/workflow-concepts.md; was: the spec taken for a compose service running `serve`)
        children = list(doc.values())
    elif isinstance(doc, list):
        children = doc
    else:
        return []
    return [found for child in children for found in _find_containers(child)]

"""Small helpers the format adapters share."""

from __future__ import annotations

import ast
import json
import re
from dataclasses import dataclass, field
from typing import Any

from spec_debug.session.events import Event
from spec_debug.session.reader import inner_json, without_lone_surrogates
from spec_debug.session.shell import is_fetch_tool, is_source_path

_EXIT_CODE = re.compile(r"^(?:Error: )?Exit code (\d+)")


@dataclass(slots=True)
class Cursor:
    """Where an adapter is: the session, the agent, the file and the next free seq."""

    session: str
    agent: str
    file: str
    seq_base: int = 0
    records: int = 0
    """Records (non-blank lines / array elements) consumed so far in this file."""
    inline_agents: set[str] = field(default_factory=set)
    """Sub-agents whose lines were inline in this file (older Claude Code CLIs)."""
    inline_spawns: dict[str, str] = field(default_factory=dict)
    """Inline sub-agents named after the call that spawned them, and that call: CLI 1.0.x wrote
    no agentId on the lines nor on the Task result, so the call before the lines is the link."""
    agent_files: frozenset[str] = frozenset()
    """Sub-agents with a file of their own (Claude Code): the copies of their messages in the
    trunk's ``agent_progress`` lines are not read again."""
    seen_calls: set[str] = field(default_factory=set)
    """Tool calls already read in this session, by call id; shared by the cursors of one session's
    files (Claude Code), so that a sub-agent file replaying the parent's messages does not count
    the parent's commands again: a side chain rewrites parent messages under their own message
    ids (ccusage/ccusage issue #913, PR #1155; rajbos/ai-engineering-fluency PR #1632), and
    their tool_use ids with them."""
    seen_results: set[str] = field(default_factory=set)
    """Tool results already read in this session, by call id (see :attr:`seen_calls`)."""
    inline_said: set[tuple[str, str, str]] = field(default_factory=set)
    """(kind, timestamp, text) of the prompts and texts of the sub-agent lines the trunk holds
    inline (``isSidechain``): a sub-agent file with the same lines (a CLI 2.0.x session file
    with the agent's lines merged in, beside its ``agent-<id>.jsonl``) does not say them twice.
    Their calls and results are :attr:`seen_calls` and :attr:`seen_results`."""
    unnamed_spawns: set[str] = field(default_factory=set)
    """Spawning calls answered on a claude-code-log page that no longer names the sub-agent (its
    Markdown takes the ``agentId: …`` tail off a Task's report from 1.3.0): a call whose
    sub-agent's messages the page lacks is a sub-agent whose transcript is missing."""
    hook_blocked: dict[str, str] = field(default_factory=dict)
    """Calls a PreToolUse hook blocked, by call id, and the hook's name, till their result is read
    (:mod:`formats.claude_hook_blocks`)."""


def stream_event(cursor: Cursor, seq: int, lineno: int, raw_type: str, kind: str = "system", text: str = "",
                 timestamp: str | None = None) -> Event:
    """A system event of a saved API stream (a warning, an error, a record of a type not read),
    at the cursor's session, agent and file."""
    return Event(session=cursor.session, seq=seq, agent=cursor.agent, role="system", kind=kind, raw_type=raw_type,
                 text=text, timestamp=timestamp, file=cursor.file, line=lineno)


_SPOKEN = ("input_audio", "output_audio", "audio")
"""Content parts of a Realtime API conversation item whose words are their ``transcript``
(openai/openai-python ``types/realtime/realtime_conversation_item_user_message.py`` and
``..._assistant_message.py``; ``audio`` in the beta): a voice session's prompts and replies were empty."""


def block_text(content: Any) -> str:
    """Text of a message ``content``: a string, or a list of ``{type: text, text}`` blocks."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        parts = []
        for block in content:
            if isinstance(block, str):
                parts.append(block)
            elif isinstance(block, dict):
                text = block.get("text")
                if isinstance(text, dict):
                    # the Assistants API's thread messages: {type: text, text: {value, annotations}}
                    # (openai/openai-python types/beta/threads/text.py); was read as no text
                    text = text.get("value")
                elif text is None and block.get("type") in _SPOKEN:
                    text = block.get("transcript")
                if isinstance(text, str):
                    parts.append(text)
        return "\n".join(parts)
    return ""


_SHOWN_PARTS = {"image_url": "image", "input_image": "image", "image": "image", "input_audio": "audio",
                "file": "file", "input_file": "file", "document": "document"}
"""A prompt's parts that hold no words, by ``type``, and what they are: Chat Completions'
``image_url``, ``input_audio`` and ``file`` (openai/openai-python ``types/chat/
chat_completion_content_part_param.py``), the Responses API's ``input_image``, ``input_file`` and
``input_audio`` (``types/responses/response_input_content_param.py``), Anthropic's ``image`` and
``document`` (anthropics/anthropic-sdk-python ``types/content_block_param.py``)."""


def attachments_shown(content: Any, numbered: bool = False) -> str:
    """What a message's parts without words were, as a viewer shows a prompt made only of them:
    ``[image]``, ``[audio]``, ``[file report.pdf]`` (by the name it was sent with), or, where the
    tool's own viewer numbers pasted images, ``[Image #1]`` (``[Audio #1]``) as Claude Code's and
    Codex's prompts label them (openai/codex ``codex-rs/protocol/src/models.rs``
    ``local_image_label_text``, ``local_audio_label_text``). A prompt of an image alone was an
    empty prompt. ``""`` when there are none."""
    if not isinstance(content, list):
        return ""
    shown, counts = [], {"image": 0, "audio": 0}
    for part in content:
        part_type = part.get("type") if isinstance(part, dict) else None
        kind = _SHOWN_PARTS.get(part_type) if isinstance(part_type, str) else None  # a list "type" is no part's
        if kind is None:
            continue
        if kind in ("image", "audio") and numbered:
            counts[kind] += 1
            shown.append(f"[{kind.title()} #{counts[kind]}]")
            continue
        inner = part.get(part_type)
        name = next((v for v in (part.get("filename"), part.get("title"),
                                 inner.get("filename") if isinstance(inner, dict) else None)
                     if isinstance(v, str) and v.strip()), "")
        shown.append(f"[{kind} {name}]" if name else f"[{kind}]")
    return " ".join(shown)


_SHOWN_PART = r"(?:\[(?:image|audio|file|document)(?: [^\]\n]*)?\]|\[(?:Image|Audio) #\d+\])"
_ONLY_SHOWN_PARTS = re.compile(rf"{_SHOWN_PART}(?:\s+{_SHOWN_PART})*")


def only_attachments(prompt: str) -> bool:
    """The prompt is what :func:`attachments_shown` wrote for one without words: a screenshot
    pasted alone reports nothing of its own (a postmortem is not titled "[Image #1]")."""
    return _ONLY_SHOWN_PARTS.fullmatch(prompt.strip()) is not None  # '[Image #1] ', a space typed after


def exit_code_of(output: str) -> int | None:
    """Claude Code's Bash failure prefix ``Exit code N`` (see TRANSCRIPTS.md section 1a)."""
    m = _EXIT_CODE.match(output)
    return int(m.group(1)) if m else None


_EXIT_TRAILER = re.compile(r"\[(?:(?:The command completed|Command finished) with exit code|Process exited with code"
                           r"|Status: Command failed with exit code) "
                           r"(-?\d+)\.?\]")


def trailing_exit_code(output: str) -> int | None:
    """The exit code OpenHands appends to a command's output in the tool message it sends the
    model: ``[The command completed with exit code 1.]``, and ``[Command finished with exit code
    1]`` in older releases (the lines in OpenHands' saved completions and trajectories); and the
    ``[Process exited with code N]`` Factory Droid's Execute tool ends its result with (the
    session in phnx-labs/agi-cli ``apps/cli/src/lib/teams/__tests__/testdata/droid-stream-json.jsonl``).
    And the status Continue's terminal tool gives a failed command, ``[Status: Command failed with
    exit code N]`` (:mod:`formats.continue_session`).
    And the line ``kubectl exec`` (``oc exec`` too) ends with when the command in the pod exited
    non-zero, ``command terminated with exit code 137`` (kubernetes/client-go ``tools/remotecommand``,
    the error its v4 stream protocol returns for a ``NonZeroExitCode`` status, which kubectl prints
    and exits with): the last line of the output, where it is no quote.
    Looked for in the tail only: a command's own output may quote one."""
    tail = output[-600:]
    found = _EXIT_TRAILER.findall(tail)
    if found:
        return int(found[-1])
    if "command terminated" in tail and (pod := _POD_EXIT.search(tail)) is not None:
        return int(pod.group(1))
    if "srun: error: " in tail:
        return _srun_exit(tail)
    return None


_POD_EXIT = re.compile(r"(?:^|\n)(?:error: )?command terminated with exit code (\d+)\s*\Z")
_SRUN_TASK_EXIT = re.compile(r"srun: error: \S+: tasks? [\d,\[\]-]+: Exited with exit code (\d+)\s*")
_SLURM_LINES = ("srun: ", "slurmstepd: ")


def _srun_exit(tail: str) -> int | None:
    """The status of an ``srun`` whose tasks failed, from the lines it ends its output with:
    ``srun: error: gpu01: task 0: Exited with exit code 2``, one per exit status its tasks gave
    (hosts and task ids as ranges, ``gpu[01-02]: tasks 0-7``), often followed by ``srun:
    Terminating StepId=4242.0`` and slurmstepd's ``*** STEP ... CANCELLED ***``. srun exits with
    the highest of those statuses (SchedMD/slurm ``src/plugins/launch/slurm/launch_slurm.c``,
    ``_task_finish``: the error line, and ``global_rc`` kept as the largest exit status). Only
    the lines srun and slurmstepd end the output with count: a program's own output may quote
    one, and a command after srun (``srun ...; echo done``) gives the status. In a terminal log,
    or a batch job's output, that line is the only word on the failure."""
    codes = []
    for line in reversed(tail.rstrip().split("\n")):
        if not line.startswith(_SLURM_LINES):
            break
        m = _SRUN_TASK_EXIT.fullmatch(line)
        if m is not None:
            codes.append(int(m.group(1)))
    return max(codes) if codes else None


_SHELL_STATUS_LINE = re.compile(r"\[?(?:exit[ _]?(?:code|status)|return[ _]?code|process exited with code)"
                                r"(?:\s*[:=])?\s*(-?\d+)\]?\s*", re.I)
"""A line that is an exit status alone: ``Exit code: 1`` (Codex's shell tool opens its result
with it, ``Exit code: N\nWall time: S seconds\nOutput:``; openai/codex codex-rs/core/src/tools/
mod.rs ``format_exec_output_str``), ``Process exited with code 1`` (unified exec's header,
``Chunk ID``, ``Wall time``, then this line), and what an agent loop of one's own appends to a
command's output, in its own case and words: ``exit code: 1``, ``[exit code: 1]``, ``exit_code=1``,
``Exit status: 1``, ``returncode: 1``, ``Return code: 1`` (and ``go run``'s last line, ``exit status 1``)."""
_STATUS_HEADER_LINES = 6


def shell_result(text: str) -> tuple[str, int | None]:
    """A shell tool's result as an OpenAI-chat ``role: tool`` message holds it, and its exit code
    (None: not said). Codex's shell output sent back as JSON, ``{"output": ..., "metadata":
    {"exit_code": N, "duration_seconds": S}}`` (or unified exec's ``{output, exit_code,
    wall_time_seconds}``), is read as its output, as :mod:`formats.codex` reads a rollout's: kept
    whole, the escaped newlines hid its traceback and its exit code from the extractors. Else an
    exit status on a line of its own in the result's header (before ``Output:``) or as its last
    line. The text as it is, and None, when it says none."""
    if text.startswith("{") and '"output"' in text:
        try:
            wrapped = inner_json(text)
        except ValueError:
            wrapped = None
        if isinstance(wrapped, dict) and isinstance(wrapped.get("output"), str):
            meta = wrapped.get("metadata")
            code = meta.get("exit_code") if isinstance(meta, dict) else None
            if type(code) is not int:
                # {output, returncode}: mini-swe-agent's environments return a command's result so
                # (SWE-agent/mini-swe-agent src/minisweagent/environments/local.py, execute), and
                # loops that hand it to the model as JSON send it so
                code = next((wrapped[k] for k in _STREAM_EXIT_KEYS if k in wrapped), None)
            if type(code) is int:  # another tool's {"output", "error", ...} is kept whole
                output, error = wrapped["output"], wrapped.get("error")
                if isinstance(error, str) and error.strip() and error not in output:
                    # Hermes Agent's terminal tool says why it ran nothing beside an empty output:
                    # {"output": "", "exit_code": -1, "error": "BLOCKED: User denied this command...",
                    # "status": "blocked"}, "Command execution failed: ...", "Foreground command uses
                    # '&' backgrounding..." (NousResearch/hermes-agent tools/terminal_tool.py). Read
                    # as its output alone, the call failed with nothing to say why
                    output = f"{output.rstrip()}\n{error}" if output.strip() else error
                return output, code
    if (streams := stream_result(text)) is not None:
        return streams
    lines = text.splitlines()
    header = lines[:_STATUS_HEADER_LINES]
    # a header is the lines before "Output:" (Codex writes one); without it only the first line
    header = header[:header.index("Output:")] if "Output:" in header else header[:1]
    for line in header:
        m = _SHELL_STATUS_LINE.fullmatch(line)
        if m:
            return text, int(m.group(1))
    if lines and "ommand" in lines[0] and (m := _FAILED_COMMAND.fullmatch(lines[0].strip())):
        return text, int(m.group(1) or m.group(2))
    last = next((line for line in reversed(lines) if line.strip()), "")
    m = _SHELL_STATUS_LINE.fullmatch(last.strip())
    if m is None and "non-zero exit status" in last:
        m = _FAILED_COMMAND.fullmatch(last.strip())
        return text, int(m.group(2)) if m and m.group(2) else None
    return text, int(m.group(1)) if m else None


_FAILED_COMMAND = re.compile(r"(?:[\w.]*Error: )?(?:Command failed with exit code (-?\d+)(?:: .*)?"
                             r"|Command '.*' returned non-zero exit status (\d+)\.)")
"""The error a tool of one's own hands the model when its command fails, ``String(error)`` or
``str(e)``: execa's ``Command failed with exit code N: <command>`` (then stderr and stdout; the
prefix in sindresorhus/execa ``lib/return/error.js``, ``getErrorPrefix``), the same words that
hand-written Node and Bun tools throw, and Python's ``subprocess.CalledProcessError``, ``Command
'<cmd>' returned non-zero exit status N.`` (CPython ``Lib/subprocess.py``, ``__str__``), first or
last. Read as text alone, the failed command had no exit status and did not count as failed."""


_STREAM_EXIT_KEYS = ("exit_code", "returncode", "return_code", "exitCode")
"""Where a shell tool of one's own puts the exit status beside ``stdout``/``stderr`` in the JSON
it hands the model: ``json.dumps({"returncode": r.returncode, "stdout": ..., "stderr": ...})``
(Python loops wrapping ``subprocess.run``, e.g. the LangChain ``bash_shell`` tools and
Hermes-derived ``terminal`` tools published on GitHub, which add ``"success"``), ``{"exitCode",
"stdout", "stderr"}`` (maxkomarychev/debudger ``src/main/kotlin/com/aiagent/tools/shellcommand/
ShellCommandOutput.kt``), ``{"stdout", "stderr", "return_code"}`` (the field names of Anthropic's
``bash_code_execution_result``, anthropics/anthropic-sdk-python ``src/anthropic/types/beta/
beta_bash_code_execution_result_block.py``), and ``{"command", "exit_code", "stdout", "stderr"}``."""


def stream_result(text: str) -> tuple[str, int] | None:
    """``(stdout and stderr, exit code)`` of a result that is such an object; None for any other
    JSON (kept whole). Read whole, the escaped newlines hid a traceback's last line, and the
    exit code, from the extractors: a failed ``ssh`` read as a call with no exit status and an
    error whose message was the JSON."""
    if not (text[:1] == "{" and ('"stdout"' in text or '"stderr"' in text)):
        return None  # (memchr-like tests first: most results are no JSON at all)
    try:
        wrapped = inner_json(text)
    except ValueError:
        return None
    return process_result(wrapped)


def process_result(wrapped) -> tuple[str, int] | None:
    """:func:`stream_result` of a result already decoded (a Responses ``function_call_output``
    read by :mod:`formats.codex`)."""
    if not isinstance(wrapped, dict):
        return None
    streams = [wrapped.get(k) for k in ("stdout", "stderr")]
    code = next((wrapped[k] for k in _STREAM_EXIT_KEYS if k in wrapped), None)
    if type(code) is not int or not all(s is None or isinstance(s, str) for s in streams) \
            or all(s is None for s in streams):
        return None
    return "\n".join(s.rstrip("\n") for s in streams if s and s.strip()), code


def decode_arguments(raw: Any) -> Any:
    """Tool-call ``arguments`` as the model sent them: a JSON string (OpenAI, Codex) is
    decoded, an object is kept; a string that is not JSON gives None.

    Models write arguments that are not strict JSON, and OpenAI-compatible servers pass them
    on as they came: a raw newline inside a string (a multi-line command), a stray closing
    brace after the object (yigit353/langchain-qwq issue #30), the object encoded twice as a
    JSON string (vllm-project/vllm PR #25729), or an object cut short when the reply hit its
    token limit (vllm-project/vllm issue #41739). The first three are read as meant; from a
    cut object the shell command is kept when its string is complete."""
    if not isinstance(raw, str):
        return raw
    try:
        value = inner_json(raw)
    except ValueError:
        pass
    else:
        if isinstance(value, str) and value.lstrip().startswith("{"):
            return decode_arguments(value)  # encoded twice
        return value
    text = raw.strip()
    try:
        value, end = _LENIENT.raw_decode(text)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than json recurses
        value, end = None, 0
    if value is not None and not text[end:].strip(" \t\r\n}]"):
        return without_lone_surrogates(value)
    if text.startswith("```") and (fenced := _FENCED.fullmatch(text)) and fenced.group(1).startswith("{"):
        # The object fenced as Markdown (```json, the object, ```): some models, and gateways that
        # re-serialize replies, send arguments so (earendil-works/pi issue #8858, DeepSeek)
        return decode_arguments(fenced.group(1))
    if text.startswith("{'") and text.endswith("}"):
        # A Python dict's repr, `{'command': 'nvidia-smi'}`: agents that turn the arguments an
        # API gave as an object into text with str() save them so (NousResearch/hermes-agent
        # PR #1087), and models served through a lenient parser write them so (waybarrios/
        # vllm-mlx issue #63). Read as the literal it is, never run.
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            value = None
        if isinstance(value, dict):
            return without_lone_surrogates(value)
    if text.startswith("{"):
        found = _COMMAND_FIELD.search(text)
        if found:
            try:
                return without_lone_surrogates({found.group(1): _LENIENT.decode(found.group(2))})
            except ValueError:
                return None
    return None


_FENCED = re.compile(r"```[A-Za-z]*\s*(.*?)\s*```", re.DOTALL)
"""A Markdown code fence around the whole text, its language tag (``json``) left out."""
_LENIENT = json.JSONDecoder(strict=False)
"""Accepts control characters (a raw newline) inside strings."""
_COMMAND_FIELD = re.compile(r'"(command|cmd)"\s*:\s*("(?:[^"\\]|\\.)*")', re.DOTALL)


def call_text(command: str | None, raw: Any) -> str:
    """What a tool-call event shows: its shell command, else its arguments as sent."""
    return command or (raw if isinstance(raw, str) else json.dumps(raw)[:2000])


def shell_command(args: Any) -> str | None:
    """The shell command in tool-call arguments: ``command``/``cmd`` as a string or an argv.

    Codex sends ``["bash", "-lc", cmd]``; we collapse it to ``cmd`` (txcript
    ``docs/formats/codex.md``).
    """
    if isinstance(args, str):
        args = decode_arguments(args)
    if not isinstance(args, dict):
        return None
    cmd = args.get("command", args.get("cmd"))
    if isinstance(cmd, str):
        return cmd
    if isinstance(cmd, list) and all(isinstance(c, str) for c in cmd):
        script = _shell_script(cmd)
        if script is not None:
            return script
        import shlex

        return shlex.join(cmd)
    return None


_POWERSHELL_FLAGS = frozenset({"-noprofile", "-nologo", "-noninteractive"})


def _shell_script(argv: list[str]) -> str | None:
    """The script of a shell invocation, as Codex builds it to run a command
    (``derive_exec_args``, openai/codex ``codex-rs/core/src/shell.rs``): ``[bash|zsh|sh, -lc|-c,
    script]``, on Windows ``[pwsh.exe|powershell.exe, (-NoProfile,) -Command, script]`` and
    ``[cmd.exe, /c, script]``, the program by name or full path (``C:\\Program
    Files\\PowerShell\\7\\pwsh.exe``). Read as an argv, a Windows command was
    ``pwsh.exe -NoProfile -Command 'ssh gpu01 …'``: its host lost."""
    if len(argv) < 3:
        return None
    program = argv[0].replace("\\", "/").rsplit("/", 1)[-1].lower().removesuffix(".exe")
    if program in ("bash", "sh", "zsh"):
        if argv[1] in ("-lc", "-c"):
            return argv[2]
        return _posix_script(argv[1:])
    if program == "cmd":
        return argv[2] if argv[1].lower() == "/c" and len(argv) == 3 else None
    if program in ("pwsh", "powershell"):
        rest = argv[1:]
        while rest and rest[0].lower() in _POWERSHELL_FLAGS:
            rest = rest[1:]
        return rest[1] if len(rest) == 2 and rest[0].lower() in ("-command", "-c") else None
    return None


_SHELL_LONG_FLAGS = frozenset({"--login", "--norc", "--noprofile", "--posix"})


def _posix_script(words: list[str]) -> str | None:
    """The script of ``bash``/``sh``/``zsh`` given options before it: ``-l -c script``, ``--login -c
    script``, ``-euo pipefail -c script`` (bash(1), "OPTIONS": ``-c`` reads the commands from the
    first word after the options; ``-o``/``+o`` take a word). None where no ``-c`` is among them (a
    script file)."""
    command = False
    at = 0
    while at < len(words):
        word = words[at]
        if word in _SHELL_LONG_FLAGS:
            at += 1
        elif len(word) > 1 and word[0] in "-+" and word[1:].isalpha() and word[1:].isascii():
            command = command or (word[0] == "-" and "c" in word)
            # -o/+o name an option in the next word (`-o pipefail`, `-euo pipefail`)
            at += 2 if word.endswith("o") else 1
        else:
            break
    return words[at] if command and at < len(words) else None


def remote_host(args: Any) -> str | None:
    """The host a tool runs its command on, when the tool takes it as an argument: SSH tools of
    MCP servers do, e.g. ``ssh_exec{host: "user@host:port", command}`` (tenox7/ssh-mcp
    ``README.md``), ``ssh_execute_command{host, username, command}``
    (VitalyMalakanov/mcp-ssh-toolkit-py), ``exec_command{host_id, command}`` (ExecMCP)."""
    # Most calls name no host: a look at their few keys (one set lookup each) says so, where a
    # get of each host key took twice as long
    if not isinstance(args, dict) or _HOST_KEY_SET.isdisjoint(args) \
            or not isinstance(args.get("command", args.get("cmd")), (str, list)):
        return None
    for key in _HOST_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            host = value.strip().rsplit("@", 1)[-1]
            if host.startswith("["):  # [fe80::1]:2222
                host = host[1:host.find("]")] if "]" in host else host[1:]
            elif host.count(":") == 1:  # host:port
                host = host.split(":", 1)[0]
            return host or None
    return None


_HOST_KEYS = ("host", "hostname", "host_id", "server", "remote_host")
_HOST_KEY_SET = frozenset(_HOST_KEYS)
_USER_KEYS = ("username", "user")


def remote_login(args: dict) -> tuple[str | None, int | None]:
    """The user and port an MCP server's SSH tool logs in with, for a call whose host
    :func:`remote_host` found: ``{host, username, port, command}`` (VitalyMalakanov/mcp-ssh-toolkit-py
    ``ssh_execute_command``), or in the host itself, ``"user@host:port"`` (tenox7/ssh-mcp
    ``ssh_exec``). (None, None) where they give neither: the login's defaults."""
    host = next((v.strip() for k in _HOST_KEYS if isinstance(v := args.get(k), str) and v.strip()), "")
    user = next((v.strip() for k in _USER_KEYS if isinstance(v := args.get(k), str) and v.strip()), None)
    if user is None and "@" in host:
        user = host.rsplit("@", 1)[0] or None
    port = args.get("port")
    if isinstance(port, str) and port.strip().isdigit():
        port = int(port)
    if not isinstance(port, int) or isinstance(port, bool):
        port = None
        at = host.rsplit("@", 1)[-1]
        tail = at.rsplit("]:", 1)[-1] if at.startswith("[") and "]:" in at else \
            at.split(":", 1)[1] if at.count(":") == 1 else ""
        port = int(tail) if tail.isdigit() else None
    return user, (port if port is not None and 0 < port < 65536 else None)


_PATH_KEYS = ("file_path", "path", "notebook_path", "absolute_path", "filePath", "dir_path")
"""``absolute_path``: Gemini CLI's read_file of 2025; ``dir_path``: its grep_search, glob and
list_directory now (google-gemini/gemini-cli packages/core/src/tools/definitions/
base-declarations.ts PARAM_DIR_PATH); ``filePath``: OpenCode's read, edit and write
(sst/opencode packages/opencode/src/tool/read.ts)."""
_PATH_KEY_SET = frozenset(_PATH_KEYS)
_PATCHED_FILE = re.compile(r"^\*\*\* (?:Update|Add|Delete) File: (.+)$", re.MULTILINE)
"""The lines of a V4A patch (Codex's ``apply_patch`` input) that name its files (openai/codex
``codex-rs/apply-patch``)."""


def tool_path(args: Any) -> str | None:
    if isinstance(args, dict):
        if not _PATH_KEY_SET.isdisjoint(args):
            for key in _PATH_KEYS:
                value = args.get(key)
                if isinstance(value, str):
                    return value
        patch = args.get("patch")
        if isinstance(patch, str) and "*** Begin Patch" in patch[:200] and (named := _PATCHED_FILE.search(patch)):
            # Hermes Agent's patch tool in its V4A mode, {"mode": "patch", "patch": "*** Begin Patch…"}
            # (NousResearch/hermes-agent tools/file_tools.py): the files are in the patch, as in
            # Codex's apply_patch input. Read without one, the edit was of no file.
            return named.group(1).strip()
        # read_many_files{paths} of Gemini CLI's docs, {include} as the CLI sends it now
        # (base-declarations.ts READ_MANY_PARAM_INCLUDE); a grep's include is a glob string
        paths = args.get("paths", args.get("include"))
        if isinstance(paths, list):
            return _first_source(paths)
    return None


def _first_source(paths: list) -> str | None:
    """Of Gemini CLI's ``read_many_files{paths: [...]}`` (files, folders or globs): the first that
    names Python source, else the first, so that reading the engine's code among a README and
    a docs folder is reading source, as one read_file of it is."""
    named = [p for p in paths if isinstance(p, str) and p.strip()]
    return next((p for p in named if is_source_path(p)), named[0] if named else None)


SHELL_TOOL_NAMES = frozenset({"bash", "shell", "exec", "run", "run_command", "terminal", "execute_command"})
"""Names (lower case) of a function tool that runs its arguments as a shell command."""
_CUT_OBJECT = re.compile(r'\s*\{\s*"')
"""Arguments that open a JSON object (``{"command``) and did not decode: cut short (a stream cut
inside the call: formats.chat_stream; a reply that hit its token limit), no bare command string
(a shell's brace group is ``{ cmd; }``)."""


def bare_command(raw: Any, args: Any) -> str | None:
    """The command a shell tool's arguments hold when they are no JSON at all: ``arguments`` is
    "a JSON string" in chat tool calls and Responses ``function_call`` items alike
    (openai/openai-python types/chat/chat_completion_message_function_tool_call.py,
    types/responses/response_function_tool_call.py), and some stacks send the bare command
    string in either (``"nvidia-smi"``). ``args`` is ``raw`` decoded (None: it was no JSON, or
    JSON's ``null``, which servers and loggers write for a call sent with no arguments: no
    command ``null``)."""
    if isinstance(raw, str) and args is None and raw.strip() and raw.strip() != "null" and not _CUT_OBJECT.match(raw):
        return raw
    return None


EDIT_TEXT_CHARS = 2000
"""How much of an edit tool's new text a call keeps (:func:`edited_text`)."""


def edited_text(args: dict) -> str:
    """What a file tool's edit wrote, bounded: the lines of ``new_string`` that ``old_string``
    does not hold (Claude Code's Edit; each of MultiEdit's ``edits``), or the head of a Write's
    ``content``. An outcome naming only the symptom ("That fixed it: 96.8 tok/s") after an Edit
    of the draft's config.json is matched to the guess the edit's words are about
    (:mod:`spec_debug.session.touched`), as a ``sed -i`` is by its command. Argument names:
    Claude Code's tool input schemas (anthropics/claude-code, the Edit, MultiEdit and Write
    tools' ``file_path``, ``old_string``, ``new_string``, ``edits``, ``content``)."""
    pairs = [args]
    edits = args.get("edits")
    if isinstance(edits, list):
        pairs = [e for e in edits[:16] if isinstance(e, dict)]
    out: list[str] = []
    size = 0
    for pair in pairs:
        new = next((v for k in _NEW_KEYS if isinstance(v := pair.get(k), str)), None)
        if new is None:
            new = next((v for k in _WHOLE_KEYS if isinstance(v := pair.get(k), str)), None)
            if new is None:
                continue
            old = ""
        else:
            old = next((v for k in _OLD_KEYS if isinstance(v := pair.get(k), str)), "")[:20 * EDIT_TEXT_CHARS]
        had = frozenset(line.strip() for line in old.splitlines()) if old else frozenset()
        for line in new[:20 * EDIT_TEXT_CHARS].splitlines():
            line = line.strip()
            if line and line not in had:
                out.append(line)
                size += len(line) + 1
                if size >= EDIT_TEXT_CHARS:
                    return "\n".join(out)[:EDIT_TEXT_CHARS]
    return "\n".join(out)


# The same arguments in other agents' edit tools: OpenCode's edit ``oldString``/``newString``
# (sst/opencode packages/opencode/src/tool/edit.ts), Anthropic's text editor tool
# ``str_replace_based_edit_tool`` ``old_str``/``new_str``, ``file_text`` of its create,
# ``insert_text`` of its insert (Anthropic docs, text editor tool), Gemini CLI's replace
# ``old_string``/``new_string`` and write_file ``content`` (google-gemini/gemini-cli docs/tools/file-system.md).
_NEW_KEYS = ("new_string", "newString", "new_str")
_OLD_KEYS = ("old_string", "oldString", "old_str")
_WHOLE_KEYS = ("content", "file_text", "insert_text")


def call_path(name: str | None, args: Any) -> str | None:
    """The file a call works on, or the page a fetch tool reads (see :func:`fetched_url`)."""
    return tool_path(args) or fetched_url(name, args)


_URL = re.compile(r"https?://[^\s<>()\[\]\"'`]+")
_SOURCE_FILE_URL = re.compile(r"\.(?:py|cu|cuh|cpp|h)(?:[?#]|$)", re.I)


def fetched_url(name: str | None, args: Any) -> str | None:
    """The page a fetch tool (``shell.is_fetch_tool``) reads, as its path: after a failure, reading
    the reference source on GitHub is a change of approach to reading source code, as a Read of
    the same file is. ``{"url": …}`` (Claude Code's WebFetch, an OpenAI chat ``fetch`` or
    ``browser`` tool), or the URLs in Gemini CLI's ``web_fetch{prompt}``, which takes no url but
    "a prompt that includes the URL(s) (up to 20)" (google-gemini/gemini-cli
    docs/tools/web-fetch.md): its first source-file URL, else its first URL."""
    if not isinstance(args, dict) or not is_fetch_tool(name):
        return None
    url = args.get("url")
    if isinstance(url, str) and url.strip():
        return url.strip()
    prompt = args.get("prompt")
    if not isinstance(prompt, str):
        return None
    urls = [u.rstrip(".,;:!?") for u in _URL.findall(prompt)]
    return next((u for u in urls if _SOURCE_FILE_URL.search(u)), urls[0] if urls else None)

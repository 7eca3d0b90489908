"""Checkpoint folders a session saw without a command that names them: a running server's command
line in a process listing's output (``ps aux | grep [s]glang``: the draft and target it serves),
and a file tool's read of a checkpoint file (Claude Code's Read of ``/ckpt/draft/config.json``).

distill makes them the defaults of its built-in checks' checkpoint vars (was empty: the step was
skipped until the user dug the path out of the transcript). Worked out only on a process
listing's result and a file tool's call, never on the per-event text path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.errors import UsageError


@dataclass(slots=True)
class CheckpointSeen:
    session: str
    seq: int
    """The listing's result, or the file tool's call."""
    agent: str
    host: str | None
    how: str
    """listed (a server's command line in a process listing) | read (a file tool read a file of it)
    | config (a command printed the config.json of a drafter: ``draft`` is its folder)"""
    draft: str = ""
    target: str = ""
    path: str = ""
    """For ``read``: the file's path (which checkpoint it is, distill tells by its folder's name)."""
    command_seq: int | None = None
    """For ``listed``: the seq of the listing command."""


# A server's command line in a listing: SGLang's launch_server, vLLM's `vllm serve` and its
# OpenAI api_server entry point (the programs launch.parse_launch_command reads).
_SERVER_LINE = re.compile(r"launch_server|\bvllm\s+serve\b|vllm\.entrypoints")
_LISTED_LINES = 200
"""Lines of a listing's output looked at: ``ps aux`` of a busy node is a few hundred."""


def listed_server(text: str) -> tuple[str, str] | None:
    """The draft and target paths of the last server command line in a process listing's
    output (``ps aux``, ``pgrep -af``), None where none names one. The listing's own ``grep
    sglang`` line, which also holds the words, names no model and is passed over."""
    if "launch_server" not in text and "vllm" not in text:
        return None
    found = None
    for line in text.splitlines()[:_LISTED_LINES]:
        if _SERVER_LINE.search(line) is None:
            continue
        try:
            cfg = parse_launch_command(line)
        except (UsageError, ValueError):
            continue
        if cfg.draft_model or cfg.target_model:
            found = (cfg.draft_model or "", cfg.target_model or "")
    return found


# A config.json a command names, as builtin_checks reads checkpoint files in commands (absolute or
# home, its folder the checkpoint), and what an EAGLE-3 drafter's config says and a target's does
# not: its architecture (SGLang/EAGLE's "LlamaForCausalLMEagle3", vLLM's "Eagle3LlamaForCausalLM",
# speculators' "Eagle3DraftModel") or speculators' own key ("speculators_model_type": "eagle3",
# speculators src/speculators/models/eagle3/config.py).
_CONFIG_FILE = re.compile(r"""(?<![\w.~/-])((?:~|/)[^\s'"`;|&<>(){}$*]*?)/config\.json(?=$|[\s'"`;|&<>()\],])""")
_DRAFT_CONFIG_WORDS = ("Eagle3", "EAGLE3", "speculators_model_type")


def shown_draft(command: str, output: str) -> str | None:
    """The checkpoint folder whose config.json ``command`` printed (``cat``, ``jq``, ``grep``),
    where ``output`` shows it is a drafter's; None where the command names no one config (``cat
    a/config.json b/config.json`` printed whose?) or the output says no such thing. Asked only
    of a command that names a config.json: a substring test first."""
    if not any(word in output for word in _DRAFT_CONFIG_WORDS):
        return None
    folders = {m.group(1).rstrip("/") for m in _CONFIG_FILE.finditer(command)}
    if len(folders) != 1:
        return None
    folder = folders.pop()
    return folder if folder not in ("", "~", "/tmp") else None


# A checkpoint file (as builtin_checks reads them in commands): the config, the weights, the vocab maps
_CHECKPOINT_ENDS = ("/config.json", ".safetensors", ".bin", "/d2t.npy", "/t2d.npy")


def checkpoint_file(path: str) -> bool:
    """``path`` (a file tool's, absolute or home) is a file of a checkpoint folder. Asked of every
    file tool call: suffix tests, no regex."""
    if not path.endswith(_CHECKPOINT_ENDS) or not (path.startswith("/") or path.startswith("~/")):
        return False
    return not path.endswith(".bin") or path.rpartition("/")[2].startswith("pytorch_model")

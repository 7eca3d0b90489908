"""What a Python script run inline (``python3 -c '...'``, ``python3 - <<'PY'``) writes to the
host: the way an agent patches a draft's config.json ("load it, set draft_vocab_size, dump it
back") without an editor. A playbook that replays it edits the checkpoint of every host it runs on.

Read from the script's text, not run: a write is a call to ``open`` with a mode that writes
(``'w'``, ``'a'``, ``'x'``, ``'+'``; Python docs, built-in open), ``Path.write_text`` /
``write_bytes``, a tensor or checkpoint save (``torch.save``, safetensors ``save_file``,
``save_pretrained``, ``numpy.save``), or a file removed or moved (``os.remove``, ``shutil.rmtree``,
...). A write whose every named path is scratch (``/tmp/``, ``/dev/null``) is no change.
"""

from __future__ import annotations

import re

_HINTS = ("open(", "write_", "save", "shutil.", "os.re", "unlink(", "rmdir(", "truncate(")
"""Every write below holds one of these; a script with none (most reads) is not scanned further."""

_OPEN = re.compile(r"(?<![\w])(\.?)open\(")
_WRITERS = re.compile(r"(?<![\w])(?:\w+\.)?(write_text|write_bytes|save_file|save_pretrained|save_model|"
                      r"torch\.save|np\.save[z]?|numpy\.save[z]?|"
                      r"shutil\.(?:rmtree|move|copy\w*)|os\.(?:remove|unlink|rename|replace|rmdir|removedirs|truncate)|"
                      r"unlink|rmdir)\(")
_LITERAL = re.compile(r"""[rbfRBF]{0,2}(['"])(.*?)(?<!\\)\1""")


def python_writes(script: str, scratch: tuple[str, ...]) -> str | None:
    """Why ``script`` changes the host (``open(p, 'w')``, ``torch.save``), or None."""
    if not any(hint in script for hint in _HINTS):
        return None
    for m in _OPEN.finditer(script):
        args = _arguments(script, m.end())
        method = m.group(1) == "."  # Path(p).open('w'): the mode comes first
        positional = [a for a in args if not re.match(r"\w+\s*=", a)]
        mode = next((a.split("=", 1)[1].strip() for a in args if re.match(r"mode\s*=", a)), None)
        if mode is None:
            mode = positional[0 if method else 1] if len(positional) > (0 if method else 1) else ""
        literal = _LITERAL.fullmatch(mode.strip())
        if not literal or not set(literal.group(2)) & set("wax+"):
            continue
        target = "" if method else (positional[0] if positional else "")
        if _scratch(target, scratch):
            continue
        return f"python open(…, {mode.strip()})"
    for m in _WRITERS.finditer(script):
        if not _scratch(", ".join(_arguments(script, m.end())), scratch):
            return f"python {m.group(1)}"
    return None


def _scratch(text: str, scratch: tuple[str, ...]) -> bool:
    """Every path the text names as a literal is scratch (and it names one)."""
    paths = [lit.group(2) for lit in _LITERAL.finditer(text) if lit.group(2).startswith(("/", "~"))]
    return bool(paths) and all(p.startswith(scratch) for p in paths)


def _arguments(script: str, start: int) -> list[str]:
    """The top-level arguments of the call whose ``(`` ends at ``start``, as text."""
    args, depth, quote, begin = [], 0, "", start
    for i in range(start, min(len(script), start + 2000)):
        ch = script[i]
        if quote:
            if ch == quote and script[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            if depth == 0:
                args.append(script[begin:i])
                return [a.strip() for a in args if a.strip()]
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(script[begin:i])
            begin = i + 1
    return [a.strip() for a in args if a.strip()]

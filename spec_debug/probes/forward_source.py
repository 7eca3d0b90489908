"""forward_source (host side): read the eagle3 draft forward of the reference (speculators) and
of the serving engine from their installed sources with `ast`, without importing them.

For each file: the op order of every `forward` (and norm helper), the order of the arguments
of every `cat`, and which norm flags the file implements at all. Files (EAGLE3.md s.1-2):
- speculators: models/eagle3/core.py (Eagle3DraftModel.forward) and
  models/eagle3/model_definitions.py (Eagle3FirstLayerMixin.forward);
- SGLang: srt/models/llama_eagle3.py; vLLM: model_executor/models/llama_eagle3.py, or the
  module the engine's registry runs the served draft with (engines.drafter_module: vLLM >= 0.24
  qwen3_eagle3.py for a Qwen3 draft, deepseek_eagle3.py for an MLA draft in both engines).
"""

from __future__ import annotations

import ast
import importlib.util
import io
import sys
import tokenize
from pathlib import Path
from typing import Any, Callable

from spec_debug.eagle3 import engines
from spec_debug.probes.engine_info import installed_version, server_packages
from spec_debug.probes.hostfiles import describe_model, looks_like_draft
from spec_debug.probes.launch_flags import (ServerView, model_refs, choose_server, find_models,
                                            server_processes, server_view)

NORM_FLAGS = ("norm_before_residual", "norm_before_fc", "fc_norm", "norm_output")
# A flag is implemented where its name appears, or the module it creates (speculators builds
# `input_norm` only when norm_before_fc is set: core.py __init__).
FLAG_MARKERS = {
    "norm_before_residual": ("norm_before_residual",),
    "norm_before_fc": ("norm_before_fc", "input_norm"),
    "fc_norm": ("fc_norm",),
    "norm_output": ("norm_output",),
}
FILES = {
    "speculators": ("models/eagle3/core.py", "models/eagle3/model_definitions.py"),
    "sglang": ("srt/models/llama_eagle3.py",),
    "vllm": ("model_executor/models/llama_eagle3.py",),
}
# where each engine keeps its eagle3 model files, under the package root
MODELS_DIR = {"sglang": "srt/models", "vllm": "model_executor/models"}
_INTERESTING = ("norm", "cat", "fc", "embed", "residual", "attn", "mlp", "lm_head", "hidden", "split")


def package_dir(name: str) -> tuple[Path | None, str | None]:
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.submodule_search_locations:
        return None, None
    root = list(spec.submodule_search_locations)[0]
    return Path(root), installed_version(name, root)


def _code(node: ast.AST, source: str) -> str:
    """The node as code: `ast.unparse` (Python >= 3.9), else its own text in the file. The
    playbook's default interpreter is the host's `python3`, 3.8 on Ubuntu 20.04, which has no
    unparse and still reads an engine installed in a newer venv (package_in_server)."""
    unparse = getattr(ast, "unparse", None)
    if unparse is not None:
        return unparse(node)
    segment = ast.get_source_segment(source, node) or type(node).__name__
    return "\n".join(" ".join(line.split()) for line in segment.splitlines())


def _first_line(node: ast.AST, source: str) -> str:
    text = _code(node, source).splitlines()[0]
    return text if len(text) <= 120 else text[:117] + "..."


def _ops(body: list[ast.stmt], source: str) -> list[str]:
    """Statements in source order that touch the draft's data path, one line each."""
    out: list[str] = []
    for stmt in body:
        if isinstance(stmt, ast.If):
            out.append(f"if {_first_line(stmt.test, source)}:")
            out.extend("    " + line for line in _ops(stmt.body, source))
            if stmt.orelse:
                out.append("else:")
                out.extend("    " + line for line in _ops(stmt.orelse, source))
        elif isinstance(stmt, (ast.For, ast.While, ast.With)):
            head = _first_line(stmt, source).rstrip(":")
            out.append(f"{head}:")
            out.extend("    " + line for line in _ops(stmt.body, source))
        elif isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Expr)):
            line = _first_line(stmt, source)
            if any(word in line for word in _INTERESTING):
                out.append(line)
    return out


def _cat_orders(tree: ast.AST, source: str) -> list[list[str]]:
    orders = []
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cat"
                and node.args and isinstance(node.args[0], (ast.List, ast.Tuple))):
            elts = node.args[0].elts
            if all(isinstance(e, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)) for e in elts):
                orders.append([" ".join(_code(e, source).split()) for e in elts])
    return orders


def _flag_sites(tree: ast.AST) -> dict[str, list[str]]:
    sites: dict[str, list[str]] = {flag: [] for flag in NORM_FLAGS}
    for node in ast.walk(tree):
        name = None
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif isinstance(node, ast.Name):
            name = node.id
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            name = node.value
        elif isinstance(node, ast.keyword):
            name = node.arg
        if not name:
            continue
        for flag, markers in FLAG_MARKERS.items():
            site = f"line {getattr(node, 'lineno', '?')}: {name}"
            if name in markers and len(sites[flag]) < 5 and site not in sites[flag]:
                sites[flag].append(site)
    return sites


def _read_source(path: Path) -> str:
    """The file's text as Python reads a source file: its PEP 263 coding line, else UTF-8
    (not the host's locale: an engine file with a non-ASCII comment read under LANG=C)."""
    data = path.read_bytes()
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as exc:  # not UTF-8 and no coding line: no Python would read it
        raise UnicodeError(exc.msg) from None
    return data.decode(encoding)


def extract(path: Path) -> dict[str, Any]:
    """Op order of each forward-like function, cat orders and flag sites of one file."""
    source = _read_source(path)
    tree = ast.parse(source, filename=str(path))
    functions: dict[str, list[str]] = {}
    for cls in [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]:
        for fn in cls.body:
            if isinstance(fn, ast.FunctionDef) and (fn.name == "forward" or "norm" in fn.name):
                functions[f"{cls.name}.{fn.name}"] = _ops(fn.body, source)
    sites = _flag_sites(tree)
    return {"file": str(path), "functions": functions, "cat_orders": _cat_orders(tree, source),
            "flag_sites": sites, "flags": {flag: bool(s) for flag, s in sites.items()}}


def package_in_server(package: str, server: dict[str, Any]) -> tuple[Path | None, str | None, str]:
    """Where the running server's interpreter has `package` (engine_info.server_packages), so
    its source is read when the probe's own Python has none (the server in another venv)."""
    info = (server.get("packages") or {}).get(package) or {}
    if info.get("path"):
        return Path(info["path"]), info.get("version"), f"the server's interpreter {server.get('python')}"
    if server.get("packages") is not None:
        return None, None, f"nor in the server's interpreter {server.get('python')}"
    return None, None, f"and the server's interpreter was not read: {server['note']}" if server.get("note") else ""


def engine_files(package: str, root: Path, draft_config: Any, version: str | None = None) -> list[Path]:
    """The eagle3 file the engine runs this draft with: its registry's module for the draft's
    architecture in this release (`version`: vLLM 0.23 still ran a Qwen3 draft with
    llama_eagle3.py, engines.drafter_module) when the file is there, else FILES. Reading llama_eagle3.py for a draft served by qwen3_eagle3.py
    or deepseek_eagle3.py compared the checkpoint's flags with code that never runs it."""
    default = [root / rel for rel in FILES.get(package, ())]
    if package not in MODELS_DIR or not isinstance(draft_config, dict):
        return default
    try:
        module = engines.drafter_module(package, draft_config, None if _source_build(version) else version)
    except (TypeError, AttributeError):
        return default
    path = root / MODELS_DIR[package] / f"{module}.py"
    try:
        return [path] if module != "llama_eagle3" and path.is_file() else default
    except OSError:  # the unreadable folder is named by describe, on the default file
        return default


def _source_build(version: str | None) -> bool:
    """A build from a source tree between releases (vLLM's 0.23.1.dev120+g...: commits after
    the 0.23.0 tag). Whether it runs a Qwen3 draft with qwen3_eagle3.py is not in its version
    number: the file being in the installed tree says it (vllm#43132 added the file, its
    registry entry and the speculators routing together)."""
    return bool(version) and ".dev" in str(version).lower()


def describe(package: str, files: list[Path] | None = None,
             server: Callable[[], dict[str, Any]] | None = None,
             draft_config: Any = None) -> dict[str, Any]:
    """Merge the extraction of every file of one package (the forward spans two files in
    speculators). `server`: the running server's packages, asked only when this Python lacks
    the package. `draft_config`: the served draft's config.json, which picks the engine file."""
    version, where = None, "this Python"
    if files is None:
        root, version = package_dir(package)
        if root is None and server is not None:
            root, version, where = package_in_server(package, server())
            if root is None:
                return {"package": package, "found": False,
                        "reason": f"{package} is not installed in this Python {where}".rstrip()}
        if root is None:
            return {"package": package, "found": False, "reason": f"{package} is not installed in this Python"}
        files = engine_files(package, root, draft_config, version)
    try:
        present = [f for f in files if f.is_file()]
    except OSError as exc:
        # a folder on the way this user may not enter (another user's venv, a container's
        # root through /proc/PID/root): is_file raises instead of saying no
        return _unreadable(package, version, exc.filename or files[0], exc.strerror or str(exc))
    if not present:
        return {"package": package, "found": False, "reason": f"no eagle3 source in {[str(f) for f in files]}"}
    merged: dict[str, Any] = {"package": package, "version": version, "found": True, "read_from": where,
                              "file": ", ".join(str(f) for f in present), "functions": {},
                              "cat_orders": [], "flag_sites": {f: [] for f in NORM_FLAGS}}
    for f in present:
        try:
            part = extract(f)
        except OSError as exc:
            return _unreadable(package, version, f, exc.strerror or str(exc))
        except (UnicodeError, LookupError) as exc:
            return _unreadable(package, version, f, f"not a Python source in its declared encoding ({exc})",
                               "Python refuses to import it too: reinstall the package")
        except SyntaxError as exc:
            # the server's package in a newer venv than this interpreter (e.g. Python 3.8 and
            # syntax of a later release): the other side of the comparison still stands
            return {"package": package, "version": version, "found": False,
                    "reason": f"{f}: this Python ({sys.version.split()[0]}) cannot parse it ({exc.msg}, "
                              f"line {exc.lineno}); run the probe with the engine's interpreter "
                              "(--var python=...)"}
        merged["functions"].update({f"{f.name}:{k}": v for k, v in part["functions"].items()})
        merged["cat_orders"].extend(part["cat_orders"])
        for flag, s in part["flag_sites"].items():
            merged["flag_sites"][flag].extend(f"{f.name} {site}" for site in s)
    merged["flags"] = {flag: bool(s) for flag, s in merged["flag_sites"].items()}
    return merged


_ACCESS_FIX = ("run the probe as the user that installed it (the server's), or with an interpreter that "
               "has its own copy (--var python=...)")


def _unreadable(package: str, version: str | None, path: Any, why: str,
                fix: str = _ACCESS_FIX) -> dict[str, Any]:
    """One side of the comparison that could not be read; the other side still stands."""
    return {"package": package, "version": version, "found": False,
            "reason": f"{path}: cannot be read ({why}); {fix}"}


def _served_draft_config(args: dict, server_argv: Callable[[], list[str]],
                         view: ServerView | Callable[[], ServerView | None] | None = None
                         ) -> dict[str, Any] | None:
    """The draft's config.json: --var draft_model (a path or Hub id), else the model of the
    running server's command line that looks like a draft, read the way the launch probe reads
    it (launch_flags: `--flag=value`, a JSON speculative config's "model") and looked up where
    the server looks (`view`: its working directory, its Hub cache, its container's
    filesystem; a draft at /models/draft inside vllm/vllm-openai is not the host's). A
    draft_model not found here is looked up there too: the launch step passes the path as the
    server's command line writes it. `server_argv` and a callable `view` are asked only when
    the named draft is not found here: finding the server scans /proc."""
    named = args.get("draft_model") or ""
    try:
        if named:
            config = describe_model(named, with_tensors=False).get("config")
            if isinstance(config, dict):
                return config
        argv = server_argv()
        if callable(view):
            view = view()
        refs = ([named] if named else []) + model_refs(argv)
        models = find_models(list(dict.fromkeys(refs)), argv, view, with_tensors=False)  # configs are all it reads
    except OSError:  # a folder this user may not enter: the default file is read instead
        return None
    if isinstance(models.get(named, {}).get("config"), dict):
        return models[named]["config"]
    drafts = [info["config"] for info in models.values()
              if isinstance(info.get("config"), dict) and looks_like_draft(info["config"])]
    return drafts[0] if drafts else None


def run(args: dict) -> dict:
    engine = (args.get("engine") or "").lower()
    ref_files = args.get("reference_files")
    eng_files = args.get("engine_files")
    asked: list[dict[str, Any]] = []

    chosen: list[dict[str, Any]] = []

    def server_process() -> dict[str, Any]:
        if not chosen:
            processes = server_processes()
            chosen.append(choose_server(processes) if processes else {})
        return chosen[0]

    def server() -> dict[str, Any]:
        if not asked:
            process = server_process()
            asked.append(server_packages(process) if process else {})
        return asked[0]

    def served_draft() -> dict[str, Any] | None:
        # the server (a /proc scan) only when the named draft is not found on this host
        def view() -> ServerView | None:
            pid = server_process().get("pid")
            return server_view(pid) if pid else None

        return _served_draft_config(args, lambda: server_process().get("argv") or [], view)

    reference = describe("speculators", [Path(p) for p in ref_files] if ref_files else None, server)
    if engine in ("sglang", "vllm") or eng_files:
        draft = served_draft() if engine in MODELS_DIR and not eng_files else None
        served = describe(engine or "engine", [Path(p) for p in eng_files] if eng_files else None, server,
                          draft_config=draft)
    else:
        served = {"package": engine or None, "found": False, "reason": "engine unknown: pass --var engine=sglang|vllm"}
    return {"args": args, "reference": reference, "engine": served}

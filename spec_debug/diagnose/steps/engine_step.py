"""Engine and version: from the vars, the launch command, the running server's interpreter, or
the host's installed packages."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.steps.common import not_checked, record
from spec_debug.eagle3.engines import VERSION_PROVIDE, unplaceable_version, version_line
from spec_debug.record import Finding

NS = "engine"


def _installed(packages: Any) -> dict[str, Any]:
    return {k: v for k, v in (packages or {}).items() if v}


def parse(host: dict[str, Any]) -> dict[str, Any]:
    args = host.get("args") or {}
    server = host.get("server") or {}
    # The server's own interpreter, when the probe could ask it, is what serves; the probe's
    # Python is only a fallback (it may be another venv with another engine release).
    if server.get("packages") is not None:
        packages = _installed(server["packages"])
        where = f"the server's interpreter {server.get('python')} (pid {server.get('pid')})"
    else:
        packages = _installed(host.get("packages"))
        # sys.executable is "" or None when Python cannot tell its own path (an embedded one)
        where = host.get("python_executable") or "the probe's Python"
        if server:
            where += f", the probe's Python (not the server's: {server.get('note')})"
    name = (args.get("engine") or "").lower() or None
    source = "--var engine" if name else None
    if name is None and args.get("launch_engine"):
        name, source = args["launch_engine"], "the server command"
    if name is None:
        installed = [e for e in ("sglang", "vllm") if e in packages]
        if len(installed) == 1:
            name, source = installed[0], f"the only engine installed in {where}"
    version = args.get("engine_version") or None
    version_source = "--var engine_version" if version else None
    if version is None and name and name in packages:
        version, version_source = packages[name].get("version"), f"{where} (package metadata)"
    untagged = unreadable = None
    problem = unplaceable_version(str(version)) if version else None
    if problem == "unreadable":
        # a fork's own label or a typo: every later step would fail on it (SD003 three times);
        # said once here, and the later steps get no version (the newest conventions)
        unreadable, version = f"{version!r} ({version_source})", None
    elif problem == "untagged":
        # setuptools-scm's fallback for a checkout without release tags: vLLM built from source
        # (and images built that way) report "0.1.dev19253+g5f76ae224", which as a version is
        # older than every rule in the conventions table
        untagged, version = f"{version} ({version_source})", None
    engine = {"name": name, "source": source, "version": version, "version_source": version_source,
              "installed": {k: v.get("version") for k, v in packages.items()},
              "python": host.get("python"), "python_executable": host.get("python_executable"),
              "server_python": server.get("python"), "server_pid": server.get("pid"),
              "server_note": server.get("note"), "server_read": server.get("packages") is not None,
              "untagged_build": untagged, "unreadable_version": unreadable, "installed_in": where}
    return {NS: engine, "resolved_engine": name or "", "resolved_engine_version": version or ""}


def _unnamed_line(engine: dict[str, Any]) -> str:
    """Why no engine was picked: with SGLang and vLLM both installed (a dev venv, an image that
    ships both) the installed packages cannot say which one serves, and the line names them
    and where they were found."""
    installed = engine.get("installed") or {}
    both = [f"{name} {installed[name] or '(no version)'}" for name in ("sglang", "vllm") if name in installed]
    if len(both) == 2:
        return (f"no engine named and none in the server command; {both[0]} and {both[1]} are both "
                f"installed in {engine.get('installed_in') or 'this Python'}, so which one serves is not known")
    return "no engine named, none in the server command, and no single engine installed in this Python"


def check(ctx: Any) -> list[Finding]:
    engine = ctx.facts.get(NS, {})
    if not engine.get("name"):
        return record(ctx.facts, NS, [not_checked(ctx, _unnamed_line(engine),
                                                  "--var engine=sglang|vllm --var engine_version=X.Y.Z")])
    for problem, key in (("unreadable", "unreadable_version"), ("untagged", "untagged_build")):
        if engine.get(key):
            return record(ctx.facts, NS, [not_checked(
                ctx, version_line(engine["name"], problem, engine[key]), VERSION_PROVIDE[problem])])
    if not engine.get("version"):
        if engine.get("server_read"):
            what = f"{engine['name']} is not installed in the server's interpreter {engine['server_python']}"
            if engine.get("server_note"):
                what += f" ({engine['server_note']})"
        else:
            what = f"{engine['name']} is not installed in this Python"
            if engine.get("server_note"):
                what += f" (the server's interpreter was not read: {engine['server_note']})"
        what += "; its conventions are taken for the newest version"
        return record(ctx.facts, NS, [not_checked(
            ctx, what, "--var engine_version=X.Y.Z (or --var python=the server's interpreter)")])
    return record(ctx.facts, NS, [])

"""Engine and version: from the vars, the launch command, or the host's installed packages."""

from __future__ import annotations

from typing import Any

from spec_debug.diagnose.steps.common import not_checked, record
from spec_debug.record import Finding

NS = "engine"


def parse(host: dict[str, Any]) -> dict[str, Any]:
    args = host.get("args") or {}
    packages = {k: v for k, v in (host.get("packages") or {}).items() if v}
    name = (args.get("engine") or "").lower() or None
    source = "--var engine" if name else None
    if name is None and args.get("launch_engine"):
        name, source = args["launch_engine"], "the server command"
    if name is None:
        installed = [e for e in ("sglang", "vllm") if e in packages]
        if len(installed) == 1:
            name, source = installed[0], "the only engine installed in the host's Python"
    version = args.get("engine_version") or None
    version_source = "--var engine_version" if version else None
    if version is None and name and name in packages:
        version, version_source = packages[name].get("version"), f"{host.get('python_executable')} (package metadata)"
    engine = {"name": name, "source": source, "version": version, "version_source": version_source,
              "installed": {k: v.get("version") for k, v in packages.items()},
              "python": host.get("python"), "python_executable": host.get("python_executable")}
    return {NS: engine, "resolved_engine": name or "", "resolved_engine_version": version or ""}


def check(ctx: Any) -> list[Finding]:
    engine = ctx.facts.get(NS, {})
    if not engine.get("name"):
        return record(ctx.facts, NS, [not_checked(
            ctx, "no engine named, none in the server command, and no single engine installed in this Python",
            "--var engine=sglang|vllm --var engine_version=X.Y.Z")])
    if not engine.get("version"):
        return record(ctx.facts, NS, [not_checked(
            ctx, f"{engine['name']} is not installed in this Python; its conventions are taken for the newest version",
            "--var engine_version=X.Y.Z (or --var python=the server's interpreter)")])
    return record(ctx.facts, NS, [])

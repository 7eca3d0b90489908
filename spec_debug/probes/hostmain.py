"""Entry point inside the bundle: `python3 bundle.pyz MODULE 'JSON ARGS'` prints one JSON document."""

from __future__ import annotations

import importlib
import json
import sys
import traceback

ERROR_KEY = "__probe_error__"


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2:
        print(json.dumps({ERROR_KEY: {"type": "UsageError", "message": "usage: bundle.pyz MODULE JSON_ARGS"}}))
        return 2
    module_name, raw_args = argv
    try:
        if not module_name.startswith("spec_debug.probes."):
            raise ValueError(f"not a probe module: {module_name}")
        args = json.loads(raw_args)
        result = importlib.import_module(module_name).run(args)
        sys.stdout.write(json.dumps(result, default=str) + "\n")
        return 0
    except Exception as exc:  # report every failure as data; the controller decides
        error = {"type": type(exc).__name__, "message": _message(exc), "traceback": traceback.format_exc(limit=8)}
        hint = getattr(exc, "hint", None)
        if isinstance(hint, str) and hint and isinstance(getattr(exc, "message", None), str):
            # A SpecDebugError's str() glues its hint on as a second line; sent apart, the
            # runner can make it the finding's fix instead of a line inside its evidence.
            error["message"], error["hint"] = exc.message, hint
        sys.stdout.write(json.dumps({ERROR_KEY: error}) + "\n")
        return 1
    except KeyboardInterrupt as stop:
        # Ctrl-C on the probe's command, run by hand as the report shows it: a Python traceback
        # (`except Exception` lets it through) and no JSON. One line, as every failure is said;
        # a probe with partial results (drafter_eval) catches the stop itself and returns them.
        from spec_debug.errors import stop_reason

        said = f"{stop_reason(stop)} before probe {module_name.rsplit('.', 1)[-1]} finished"
        sys.stdout.write(json.dumps({ERROR_KEY: {"type": type(stop).__name__, "message": said}}) + "\n")
        return 130  # the shell's code for a SIGINT, as `drafter eval` ends on a stop


def _message(exc: Exception) -> str:
    """The error as one line; a package this Python lacks (torch for a drafter probe) names the
    interpreter and how to pick another: "No module named 'torch'" alone said neither, and the
    playbook's default, the host's python3, is rarely the venv the ML stack lives in."""
    name = getattr(exc, "name", None) if isinstance(exc, ModuleNotFoundError) else None
    if not name or name.split(".")[0] == "spec_debug":
        return str(exc)
    package = name.split(".")[0]
    from spec_debug.probes.engine_info import python_executable

    return (f"{exc} in Python {sys.version.split()[0]} at {python_executable() or 'an unknown path'}: run the probe "
            f"with a Python that has {package} (--var python=/path/to/venv/bin/python)")


if __name__ == "__main__":
    raise SystemExit(main())

"""A one-step playbook run over SSH, as the hint tests of round 49 make it: the CLI's result and
the run's record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

PLAYBOOK = "name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n"


def run_tiny(cli: Callable[..., Any], tmp_path: Path, name: str, *hosts: str) -> tuple[Any, dict[str, Any]]:
    """`spec-debug run tiny.yaml HOSTS... --batch --out tmp_path/NAME`; `hosts` as the CLI takes
    them (`--host gpu01`, `-i hosts.ini`)."""
    (tmp_path / "tiny.yaml").write_text(PLAYBOOK)
    out = tmp_path / name
    done = cli("run", str(tmp_path / "tiny.yaml"), *hosts, "--batch", "--out", str(out))
    (run_dir,) = [p for p in out.iterdir() if p.is_dir()]
    return done, json.loads((run_dir / "run.json").read_text())

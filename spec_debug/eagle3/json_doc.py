"""The drafter commands' JSON documents (`drafter eval/layout/vocab --json` and the probe's
one document): standard JSON, which has no NaN or Infinity.

Python's json writes a float NaN or inf as the bare words `NaN` / `Infinity`; `jq`, JavaScript's
`JSON.parse` and most other readers refuse the whole document. A non-finite number here is
evidence (a slot holding inf gives `slot_checks[].max_abs_diff` = inf), so it is written as the
strings the run record uses for the same numbers (record._RecordModel: "NaN", "Infinity",
"-Infinity"), not dropped to null."""

from __future__ import annotations

import json
import math
from typing import Any

_NAMES = {math.inf: "Infinity", -math.inf: "-Infinity"}


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        return _NAMES.get(value, value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def json_document(value: Any, indent: int | None = None) -> str:
    """value as standard JSON; walked only when it holds a non-finite float (the usual
    document is written in one pass)."""
    try:
        return json.dumps(value, indent=indent, allow_nan=False)
    except ValueError:  # "Out of range float values are not JSON compliant"
        return json.dumps(_finite(value), indent=indent, allow_nan=False)

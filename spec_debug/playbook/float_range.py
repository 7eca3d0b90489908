"""A number written past what a float holds: `1e400` reads as infinity and `1e-400` as 0, with
nothing said, in Python, YAML and Jinja alike. Kept free of imports (the CLI reads --var
values with it before it loads anything else)."""

from __future__ import annotations

import math
import re

# Exponents of three digits and more: the only way to write a number past a float's range
# (about 1.8e308 at the top, 4.9e-324 the smallest above 0: Python's sys.float_info).
FAR_EXPONENT = re.compile(r"[eE][-+]?\d{3}")


def past_float_range(text: str) -> str | None:
    """What `text`, a number, is when a float cannot hold it (`1e400` reads as inf and `1e-400` as
    0.0, silently, in Python, YAML and Jinja alike), else None."""
    if not FAR_EXPONENT.search(text):
        return None
    # YAML 1.1 takes `_` anywhere among a float's digits (`1__0.0e+400`, `1.0_e+400`; PyYAML's
    # construct_yaml_float drops them) where Python's float() refuses all but single ones between
    # digits: read as YAML does, not a ValueError traceback out of the loader
    digits = text.replace("_", "")
    try:
        value = float(digits)
    except ValueError:
        return None  # no number: what reads it says so
    if math.isinf(value):  # -1e400 is -inf: larger in size, not "infinity"
        return f"larger than any number its checks can compare{', in size' if value < 0 else ''} (it reads as {'-' if value < 0 else ''}infinity)"
    mantissa = re.split("[eE]", digits)[0]
    if value == 0 and any(digit in mantissa for digit in "123456789"):
        return "closer to 0 than any number its checks can compare but 0 (it reads as 0)"
    return None

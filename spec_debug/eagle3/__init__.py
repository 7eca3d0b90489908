"""The standalone EAGLE-3 drafter: checkpoint loading, an exact forward pass, vocab-map checks,
hidden-state data, acceptance evaluation, layout probing and engine conventions.

Everything here depends only on the stdlib, torch, safetensors and numpy so that it can also run
as a probe on a GPU host. `engines` and `vocab`'s pure checks need no torch at import time.
The CLI lives in `commands.py` (typer/rich), imported only by the controller.
"""

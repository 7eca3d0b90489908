"""Code that runs ON the target host. Each probe module defines `run(args: dict) -> dict`.

Probe modules depend on the stdlib (plus torch/safetensors and spec_debug.eagle3 where they
must): they travel to the host inside a zipapp bundle (see bundle.py) and are never installed
there by hand. Parsing and deciding happen on the controller (registry.py: parse and check).
"""

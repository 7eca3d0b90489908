"""The playbook's layout step copies the probe's report (eagle3/layout.probe ->
api.probe_layout) into run facts through layout_step._layout_summary. It kept a hand-written
list of keys, so each field added to the report later was dropped on the way (that is how
`ids_misaligned` was lost and SD402 fired on a ranking scored on ids one position off). The
summary now takes the report's own fields (LayoutReport, in the torch-free
eagle3/layout_report.py) plus the served layout's, so no field can be left behind."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

from spec_debug.diagnose.steps import layout_step
from spec_debug.eagle3 import layout_report
from spec_debug.eagle3.layout_report import SERVED_FIELDS, LayoutReport


def _every_field_set(cls=LayoutReport) -> dict:
    """A report (as to_dict writes it) whose every field holds a value of its own."""
    report = {f.name: f"value of {f.name}" for f in dataclasses.fields(cls)}
    report["ranked"] = [{"layout": [0, 1, 2], "layer_ids": None, "full_accuracy0": 0.5}]
    report["configured"] = [0, 1, 2]
    return report | {name: f"value of {name}" for name in SERVED_FIELDS}


def test_every_field_of_the_probe_report_reaches_the_step_facts():
    report = _every_field_set()
    training = layout_step.parse({"layout": report})[layout_step.NS]["training"]
    assert training == report
    assert layout_step.parse({"serving_layout": report})[layout_step.NS]["serving"] == report


def test_a_field_added_to_the_report_later_is_kept_without_touching_the_step(monkeypatch):
    grown = dataclasses.make_dataclass("GrownReport", [("a_later_field", str, "")],
                                       bases=(LayoutReport,))
    monkeypatch.setattr(layout_report, "LayoutReport", grown)
    report = _every_field_set(grown)
    training = layout_step.parse({"layout": report})[layout_step.NS]["training"]
    assert training["a_later_field"] == "value of a_later_field"
    assert training == report


def test_the_ranking_is_still_cut_to_the_top_and_the_configured_and_served_layouts():
    ranked = [{"layout": [i, 9, 8], "layer_ids": None, "full_accuracy0": 1 - i / 100}
              for i in range(20)]
    report = _every_field_set() | {"ranked": ranked, "configured": [15, 9, 8],
                                   "served": [12, 9, 8]}
    kept = layout_step.parse({"layout": report})[layout_step.NS]["training"]["ranked"]
    assert [r["layout"][0] for r in kept] == [0, 1, 2, 3, 4, 5, 6, 7, 12, 15]


def test_the_layout_step_still_imports_without_torch():
    code = ("import sys; import spec_debug.diagnose.steps.layout_step; "
            "print('torch' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_the_probe_module_reports_with_the_same_class():
    from spec_debug.eagle3 import layout

    assert layout.LayoutReport is LayoutReport
    assert layout.SlotCheck is layout_report.SlotCheck

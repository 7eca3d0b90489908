"""docs/findings.md's index linked SD702 as `#sd702-draft-maxpositionembeddings-below-...`, and on
GitHub that led nowhere: GitHub's heading anchors keep an underscore (github-slugger strips no
connector punctuation, script/generate-regex.mjs), so the heading "SD702: Draft
max_position_embeddings below the serving context length" is
`#sd702-draft-max_position_embeddings-below-the-serving-context-length`. Every in-page or
cross-page anchor the README and docs link to is now checked against the anchors GitHub gives
the target's headings, computed here by github-slugger's rule (not by the catalog's code)."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

# github-slugger removes these general categories (all but '-' and ' '), letters kept
_REMOVED = {"No", "Pe", "Pf", "Pi", "Ps", "Po", "Pd", "Sm", "Sc", "Sk", "So", "Cc", "Co", "Cf", "Cn", "Zs", "Zl", "Zp"}


def github_slug(heading: str) -> str:
    text = re.sub(r"`([^`]*)`", r"\1", heading).strip()  # the heading's text, not its markup
    kept = "".join(ch for ch in text.lower()
                   if ch in "- " or ch.isalpha() or unicodedata.category(ch) not in _REMOVED)
    return kept.replace(" ", "-")


def anchors_of(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out = set()
    fenced = False
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        match = None if fenced else re.match(r"#{1,6} +(.*?) *#*$", line)
        if match:
            slug = github_slug(match.group(1))
            count = seen.get(slug, 0)
            seen[slug] = count + 1
            out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def test_the_slug_rule_is_github_s():
    assert github_slug("SD702: Draft max_position_embeddings below the serving context length") == \
        "sd702-draft-max_position_embeddings-below-the-serving-context-length"
    assert github_slug("Limits & Retries") == "limits--retries"
    assert github_slug("`explain` a step") == "explain-a-step"


def test_every_anchor_the_docs_link_to_is_a_heading_of_the_page():
    broken = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)\s]*#[^)\s]+)\)", page.read_text(encoding="utf-8")):
            path, _, anchor = target.partition("#")
            linked = (page.parent / path).resolve() if path else page
            if linked.suffix == ".md" and linked.is_file() and anchor not in anchors_of(linked):
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert broken == []

#!/usr/bin/env python3
"""The layering rules of Sources/Strata, checked on the code (comments and strings left out):

- Interface/ (the contracts) names no type declared in Client/;
- the core (every folder but Features/) names no type a feature declares in Features/:
  the core names no feature (DESIGN.md, "An open core").

    python3 scripts/check-layers.py      # prints what breaks a rule; exit status 1 if anything does

Python 3 standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "Sources" / "Strata"
# A type declared at file scope and visible beyond its file (nested and private types are local).
DECLARATION = re.compile(
    r"^(?:(?:public|package|internal|final|indirect|@\w+(?:\([^)]*\))?)\s+)*"
    r"(?:struct|enum|class|actor|protocol|typealias)\s+([A-Z][A-Za-z0-9_]*)",
    re.M,
)
IDENTIFIER = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)


def code(path: Path) -> str:
    return COMMENT_OR_STRING.sub(" ", path.read_text(encoding="utf-8"))


def declared(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.swift"):
        names.update(DECLARATION.findall(code(path)))
    return names


def named(paths: list[Path], names: set[str]) -> list[str]:
    found = []
    for path in paths:
        for number, line in enumerate(code(path).splitlines(), 1):
            hits = sorted(set(IDENTIFIER.findall(line)) & names)
            if hits:
                found.append(f"{path.relative_to(ROOT.parent.parent)}:{number}: {', '.join(hits)}")
    return found


def main() -> int:
    features = ROOT / "Features"
    client_types = declared(ROOT / "Client")
    # A type a feature declares, less the names the core declares too (an extension's nested type).
    feature_types = declared(features) - declared(ROOT / "Interface") - client_types
    interface = sorted((ROOT / "Interface").rglob("*.swift"))
    core = sorted(p for p in ROOT.rglob("*.swift") if features not in p.parents)
    broken = [f"Interface names Client: {hit}" for hit in named(interface, client_types)]
    broken += [f"core names a feature: {hit}" for hit in named(core, feature_types)]
    for line in broken:
        print(f"check-layers: {line}", file=sys.stderr)
    if not broken:
        print(f"check-layers: OK: Interface names nothing in Client; the core ({len(core)} files) names no feature")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""The layering rules the compiler cannot check, on the code (comments and strings left out).

The core is a target of its own (Sources/StrataCore), and the features are in the `Strata`
target on top of it: the core cannot import a feature, and SwiftPM says so at build time.
What targets cannot express is checked here:

- StrataCore's Interface/ (the contracts) names no type declared in Client/ (the client);
- Request/, Models/, Routing/ and Encoding/ (what a request is and how it is built) name
  no type declared in Client/;
- `CancellationError` is type-tested (`is`, `as?`, `catch is`) only where a call's ending
  is classified (StrataCore/Interface/CallEnding.swift) and in the in-process servers'
  own lifecycle (StrataServerLifecycle): everything else asks `StrataError.isCancellation`;
- in Client/, no answer of a call's state is dropped (`_ = call.…`, `_ = state.…`).

    python3 scripts/check-layers.py      # prints what breaks a rule; exit status 1 if anything does

Python 3 standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

SOURCES = Path(__file__).resolve().parent.parent / "Sources"
CORE = SOURCES / "StrataCore"
# A type declared at file scope and visible beyond its file (nested and private types are local).
DECLARATION = re.compile(
    r"^(?:(?:public|package|internal|final|indirect|@\w+(?:\([^)]*\))?)\s+)*"
    r"(?:struct|enum|class|actor|protocol|typealias)\s+([A-Z][A-Za-z0-9_]*)",
    re.M,
)
IDENTIFIER = re.compile(r"\b[A-Z][A-Za-z0-9_]*\b")
COMMENT_OR_STRING = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"', re.S)
CANCELLATION_TYPE_TEST = re.compile(r"\b(?:is|as\?|as!)\s+CancellationError\b")
CANCELLATION_CLASSIFIERS = {CORE / "Interface" / "CallEnding.swift"}
DROPPED_ANSWER = re.compile(r"\b_\s*=\s*(?:call|state|self\.call)\s*\.")


def code(path: Path) -> str:
    return COMMENT_OR_STRING.sub(" ", path.read_text(encoding="utf-8"))


def declared(folder: Path) -> set[str]:
    names: set[str] = set()
    for path in folder.rglob("*.swift"):
        names.update(DECLARATION.findall(code(path)))
    return names


def lines(paths: list[Path], pattern) -> list[str]:
    """`path:line: hits` for each line of `paths` where `pattern` (a function of the line) finds something."""
    found = []
    for path in paths:
        for number, line in enumerate(code(path).splitlines(), 1):
            hits = pattern(line)
            if hits:
                found.append(f"{path.relative_to(SOURCES.parent)}:{number}: {hits}")
    return found


def naming(names: set[str]):
    return lambda line: ", ".join(sorted(set(IDENTIFIER.findall(line)) & names))


def swift_files(*folders: Path) -> list[Path]:
    return sorted(path for folder in folders for path in folder.rglob("*.swift"))


def main() -> int:
    client_types = declared(CORE / "Client")
    # A type the client declares, less the names a lower layer declares too (an extension's nested type).
    lower = [CORE / name for name in ("Interface", "Request", "Models", "Routing", "Encoding")]
    for folder in lower:
        client_types -= declared(folder)
    broken = [f"a lower layer names Client: {hit}" for hit in lines(swift_files(*lower), naming(client_types))]
    everywhere = [p for p in swift_files(SOURCES) if "StrataServerLifecycle" not in p.parts]
    broken += [
        f"CancellationError type-tested outside the call's classification: {hit}"
        for hit in lines([p for p in everywhere if p not in CANCELLATION_CLASSIFIERS],
                         lambda line: " ".join(CANCELLATION_TYPE_TEST.findall(line)))
    ]
    broken += [
        f"a call's answer dropped: {hit}"
        for hit in lines(swift_files(CORE / "Client"), lambda line: " ".join(DROPPED_ANSWER.findall(line)))
    ]
    for line in broken:
        print(f"check-layers: {line}", file=sys.stderr)
    if not broken:
        print(
            "check-layers: OK: Interface, Request, Models, Routing and Encoding name nothing in Client; "
            "CancellationError is type-tested only in CallEnding.swift; no call's answer is dropped"
        )
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())

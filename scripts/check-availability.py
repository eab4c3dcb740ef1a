#!/usr/bin/env python3
"""Finds uses of APIs newer than the package's Apple floor outside an availability scope.

Linux ignores `@available(macOS …)`, so code that calls an API newer than the floor in
Package.swift (macOS 13, iOS 16, tvOS 16, watchOS 9) compiles here and breaks on Apple
platforms unseen. This check reads every Swift file under Sources/ and Tests/ and fails
when a use of an API listed in NEWER (or of a type Strata itself declares with a higher
`@available(macOS …)`) is not inside a scope that is available from the API's first macOS
version: a declaration marked `@available(macOS N…)`, an `if #available(macOS N…)` block,
or the rest of a scope after `guard #available(macOS N…)`.

It is a heuristic: it lexes Swift just enough (comments, string literals, braces) to know
the scopes, and it checks macOS versions only (Strata's availability attributes name every
Apple platform together). It can be fooled by an availability attribute on a declaration
without braces that comes right before another declaration; it never misses a listed API
because of its spelling or of where it is (a signature, a closure, a nested type).

    python3 scripts/check-availability.py          # check the tree
    python3 scripts/check-availability.py --list   # the APIs checked and their first versions

Python 3 standard library only.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FLOOR = (13, 0)  # Package.swift: .macOS(.v13)

# (what, first macOS version, pattern, only in files that import one of these modules)
# Each pattern is matched against code with comments and string literals blanked out.
NEWER: list[tuple[str, tuple[int, int], str, tuple[str, ...]]] = [
    ("String(validating:as:)", (15, 0), r"\bString\s*\(\s*validating\s*:", ()),
    ("Synchronization.Mutex", (15, 0), r"\bMutex\s*[<(.]", ()),
    ("Synchronization.Atomic", (15, 0), r"\bAtomic\s*<", ()),
    ("AsyncSequence<Element, Failure>", (15, 0), r"\bAsyncSequence\s*<[^<>]*,[^<>]*>", ()),
    ("AsyncIteratorProtocol<Element, Failure>", (15, 0), r"\bAsyncIteratorProtocol\s*<[^<>]*,[^<>]*>", ()),
    ("next(isolation:)", (15, 0), r"\.next\s*\(\s*isolation\s*:", ()),
    ("Int128 / UInt128", (15, 0), r"\bU?Int128\b", ()),
    ("RangeSet", (15, 0), r"\bRangeSet\b", ()),
    ("withDiscardingTaskGroup", (14, 0), r"\bwith(Throwing)?DiscardingTaskGroup\b", ()),
    ("Task.immediate", (26, 0), r"\bTask\s*\.\s*immediate\b|\bTask\s*<[^>]*>\s*\.\s*immediate\b", ()),
    ("InlineArray", (26, 0), r"\bInlineArray\b", ()),
    ("Span / RawSpan", (26, 0), r"\b(Mutable|Output)?Span\s*<|\b(Mutable)?RawSpan\b|\.(span|mutableSpan)\b", ()),
    ("kSecImportToMemoryOnly", (15, 0), r"\bkSecImportToMemoryOnly\b", ("Security",)),
    (
        "Hummingbird 2",
        (14, 0),
        r"\b(Router|RouterGroup|Application|HTTP1Channel|BasicRequestContext|RequestContext|"
        r"RouterMiddleware|ResponseGenerator|HTTPResponseError|ApplicationConfiguration|"
        r"HTTPServerBuilder|ResponseBody|RequestBody|Request|Response)\b",
        ("Hummingbird", "HummingbirdCore"),
    ),
    (
        "grpc-swift 2",
        (15, 0),
        r"\b(GRPCClient|GRPCServer|ClientInterceptor|ServerInterceptor|ClientContext|ServerContext|"
        r"Metadata|RPCError|Status|ClientRequest|StreamingClientRequest|ClientResponse|"
        r"StreamingClientResponse|ServerRequest|StreamingServerRequest|ServerResponse|"
        r"StreamingServerResponse|MethodDescriptor|ServiceDescriptor|HTTP2ClientTransport|"
        r"HTTP2ServerTransport|RegistrableRPCService|RPCRouter|CallOptions|RetryPolicy|"
        r"ClientTransport|ServerTransport|GRPCProtobuf\w*|ProtobufSerializer|ProtobufDeserializer)\b",
        ("GRPCCore", "GRPCNIOTransportHTTP2", "GRPCProtobuf"),
    ),
]

AVAILABLE = re.compile(r"[@#]available\s*\(\s*macOS\s+(\d+)(?:\.(\d+))?")
IMPORT = re.compile(
    r"^[ \t]*(?:@\w+[ \t]+)*(?:(?:public|package|internal)[ \t]+)?import[ \t]+"
    r"(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?(\w+)",
    re.M,
)
DECLARED = re.compile(r"\b(?:struct|class|enum|actor|protocol|typealias)\s+(\w+)")


def blank_comments_and_strings(source: str) -> str:
    """`source` with comments and string literal contents replaced by spaces (newlines
    kept), so that offsets and line numbers stay the same; interpolations stay code."""
    out = list(source)
    n = len(source)

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if out[k] != "\n":
                out[k] = " "

    def read_string(start: int, hashes: int, triple: bool) -> int:
        """Blanks a string literal from its opening quote at `start`; returns the index
        after it. Interpolations are left as code (and lexed recursively)."""
        quote = '"""' if triple else '"'
        close = quote + "#" * hashes
        interp = "\\" + "#" * hashes + "("
        j = start + len(quote)
        seg = j
        while j < n:
            if source.startswith(close, j):
                blank(seg, j)
                return j + len(close)
            if source.startswith(interp, j):
                blank(seg, j)
                j = read_code(j + len(interp), until_paren=True)
                seg = j
                continue
            if source[j] == "\\" and hashes == 0:
                j += 2
                continue
            if source[j] == "\n" and not triple:
                break
            j += 1
        blank(seg, min(j, n))
        return j

    def read_code(j: int, until_paren: bool) -> int:
        depth = 0
        while j < n:
            c = source[j]
            if source.startswith("//", j):
                e = source.find("\n", j)
                e = n if e < 0 else e
                blank(j, e)
                j = e
            elif source.startswith("/*", j):
                e, d = j + 2, 1
                while e < n and d:
                    if source.startswith("/*", e):
                        d, e = d + 1, e + 2
                    elif source.startswith("*/", e):
                        d, e = d - 1, e + 2
                    else:
                        e += 1
                blank(j, e)
                j = e
            elif c == "#" and re.match(r'#+"', source[j:]):
                hashes = len(re.match(r"#+", source[j:]).group(0))
                q = j + hashes
                triple = source.startswith('"""', q)
                j = read_string(q, hashes, triple)
            elif c == '"':
                j = read_string(j, 0, source.startswith('"""', j))
            elif until_paren and c == "(":
                depth += 1
                j += 1
            elif until_paren and c == ")":
                if depth == 0:
                    return j + 1
                depth -= 1
                j += 1
            else:
                j += 1
        return j

    read_code(0, until_paren=False)
    return "".join(out)


def version(match: re.Match[str]) -> tuple[int, int]:
    return (int(match.group(1)), int(match.group(2) or 0))


@dataclass
class Finding:
    path: Path
    line: int
    what: str
    needs: tuple[int, int]
    has: tuple[int, int]


def scopes(code: str) -> tuple[list[tuple[int, int]], list[int]]:
    """For each offset of `code`: the macOS version its scope is available from, and where
    the header it belongs to starts (the text since the last `{`, `}` or `;` outside
    parentheses: a declaration's attributes and signature, or a statement)."""
    versions: list[tuple[int, int]] = [FLOOR] * (len(code) + 1)
    starts: list[int] = [0] * (len(code) + 1)
    stack: list[tuple[tuple[int, int], int | None]] = []
    parens: list[int] = []
    current = FLOOR
    header_start = 0
    for i, c in enumerate(code):
        versions[i], starts[i] = current, header_start
        if c == "(":
            parens.append(header_start)
        elif c == ")":
            header_start = parens.pop() if parens else header_start
        elif c == "{":
            header = code[header_start:i]
            inner, after = current, current
            for m in AVAILABLE.finditer(header):
                if re.search(r"\bguard\b[^{}]*$", header[: m.start()]):
                    # `guard #available(…) else {`: the else-block is not available; the
                    # rest of the enclosing scope, after it closes, is.
                    after = max(after, version(m))
                else:
                    inner = max(inner, version(m))
            # A closure inside parentheses (a default value, an argument) is part of the
            # header or statement it is written in, which goes on after it.
            stack.append((after, header_start if parens else None))
            current = inner
            header_start = i + 1
        elif c == "}":
            current, resumed = stack.pop() if stack else (FLOOR, None)
            header_start = i + 1 if resumed is None else resumed
        elif c == ";":
            header_start = i + 1
    return versions, starts


def version_at(code: str, offset: int, versions: list[tuple[int, int]], starts: list[int]) -> tuple[int, int]:
    """The version a use at `offset` is available from: its scope's, or its header's when
    an availability attribute or condition in the header (before the use) says more."""
    best = versions[offset]
    for m in AVAILABLE.finditer(code, starts[offset], offset):
        best = max(best, version(m))
    return best


def module_of(path: Path) -> str:
    """The module a file belongs to: its folder under Sources/ or Tests/."""
    return path.relative_to(ROOT).parts[1]


def own_declarations(files: dict[Path, str]) -> list[tuple[str, tuple[int, int], str, tuple[str, ...]]]:
    """Types Strata declares with an `@available(macOS …)` above the floor: their uses, in
    their module or a file that imports it, need the same scope."""
    found: dict[tuple[str, str], tuple[int, int]] = {}
    for path, code in files.items():
        for m in AVAILABLE.finditer(code):
            if code[m.start()] != "@":
                continue
            v = version(m)
            if v <= FLOOR:
                continue
            rest = code[m.end() : m.end() + 400]
            rest = rest[rest.find(")") + 1 :]
            d = re.match(
                r"(?:\s*@\w+(?:\([^)]*\))?)*\s*(?:(?:public|package|internal|fileprivate|private|final|open)\s+)*",
                rest,
            )
            decl = DECLARED.match(rest, d.end() if d else 0)
            if decl:
                key = (module_of(path), decl.group(1))
                found[key] = max(found.get(key, FLOOR), v)
    return [
        (f"{name} (declared @available(macOS {v[0]}) in {module})", v, rf"\b{name}\b", (module,))
        for (module, name), v in sorted(found.items())
    ]


def uses_outside_scope(path: Path, code: str, rules: list) -> list[Finding]:
    """The uses of `rules`' APIs in `code` (blanked) that no scope makes available."""
    imports = set(IMPORT.findall(code)) | {module_of(path)}
    table = None
    findings: list[Finding] = []
    for what, needs, pattern, modules in rules:
        if modules and not (imports & set(modules)):
            continue
        # A module's type names only where they stand for that module's types: not as a
        # member (`Strata.RetryPolicy`) and not in an import line.
        if modules:
            pattern = r"(?<![.\w])" + pattern
        for m in re.finditer(pattern, code):
            line_start = code.rfind("\n", 0, m.start()) + 1
            if re.match(r"\s*(?:@\w+\s+)*import\b", code[line_start : m.start()] + " "):
                continue
            if table is None:
                table = scopes(code)
            has = version_at(code, m.start(), *table)
            if has < needs:
                findings.append(Finding(path, code.count("\n", 0, m.start()) + 1, what, needs, has))
    return findings


def check(paths: list[Path]) -> list[Finding]:
    files = {p: blank_comments_and_strings(p.read_text(encoding="utf-8")) for p in paths}
    rules = NEWER + own_declarations(files)
    return [finding for path, code in files.items() for finding in uses_outside_scope(path, code, rules)]


# Snippets with the lines where a finding is expected: the rules above, checked on
# themselves (`--self-test`, run by scripts/check-availability.sh before the tree).
SELF_TEST: list[tuple[str, list[int]]] = [
    ("let s = String(validating: b, as: UTF8.self)\n", [1]),
    ('// String(validating: b, as: UTF8.self)\nlet t = "String(validating: b, as: UTF8.self) {"\n', []),
    ("@available(macOS 15.0, *)\nfunc f() {\n    let m = Mutex(0)\n}\nfunc g() { let m = Mutex(0) }\n", [5]),
    ("@available(macOS 15.0, *)\nfunc f(_ x: Int128) -> Int128 { x }\nfunc g(_ x: Int128) {}\n", [3]),
    ("func f() {\n    if #available(macOS 15.0, *) {\n        _ = Mutex(0)\n    } else {\n        _ = Mutex(1)\n    }\n}\n", [5]),
    ("func f() {\n    guard #available(macOS 15.0, *) else {\n        _ = Mutex(1)\n        return\n    }\n    _ = Mutex(0)\n}\n", [3]),
    ("@available(macOS 14.0, *)\nfunc f(c: () -> Void = { }, _ b: (Router<C>) -> Void) {}\n", []),
    ("import Hummingbird\nfunc f(_ r: Router<C>) {}\nlet x = Strata.Router()\n", [2]),
    ("func f(_ r: Router<C>) {}\n", []),  # not Hummingbird's without the import
    ("func f() { Task.immediate { } }\n", [1]),
    ('let s = """\n  { Mutex(0) \\(x) }\n  """\nlet m = Mutex(0)\n', [4]),
    ("@available(macOS 14.0, *)\nstruct Server {}\nfunc f() { _ = Server() }\n", [3]),
]


def self_test() -> int:
    failures = 0
    for number, (snippet, expected) in enumerate(SELF_TEST):
        path = ROOT / "Tests" / "SelfTest" / f"Snippet{number}.swift"
        code = blank_comments_and_strings(snippet)
        found = sorted({f.line for f in uses_outside_scope(path, code, NEWER + own_declarations({path: code}))})
        if found != expected:
            print(f"check-availability: self-test {number}: expected findings on lines {expected}, found {found}")
            failures += 1
    return 1 if failures else 0


def main() -> int:
    if "--self-test" in sys.argv:
        return self_test()
    if "--list" in sys.argv:
        for what, needs, _, modules in NEWER:
            where = f" (in files importing {', '.join(modules)})" if modules else ""
            print(f"macOS {needs[0]}.{needs[1]}: {what}{where}")
        return 0
    paths = sorted(p for d in ("Sources", "Tests") for p in (ROOT / d).rglob("*.swift"))
    findings = check(paths)
    seen = set()
    for f in findings:
        key = (f.path, f.line, f.what)
        if key in seen:
            continue
        seen.add(key)
        print(
            f"{f.path.relative_to(ROOT)}:{f.line}: {f.what} needs macOS {f.needs[0]}.{f.needs[1]}, "
            f"but this scope is available from macOS {f.has[0]}.{f.has[1]}"
        )
    if findings:
        print(
            f"check-availability: FAIL: {len(seen)} uses of APIs newer than the floor (macOS {FLOOR[0]}) "
            "outside an @available / #available scope",
            file=sys.stderr,
        )
        return 1
    print(f"check-availability: OK: {len(paths)} files, no API newer than macOS {FLOOR[0]} outside its scope")
    return 0


if __name__ == "__main__":
    sys.exit(main())

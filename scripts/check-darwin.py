#!/usr/bin/env python3
"""Type-checks every line Apple's compilers see and Linux's does not.

Linux compiles the `#if os(Linux)` / `canImport(FoundationNetworking)` side of each
condition and skips the Apple side, so a type error in an Apple-only branch never shows
here. This check compiles that side on Linux:

1. `darwin-view` (scripts/darwin-view, on swift-syntax's SwiftIfConfig: the toolchain's own
   copy where it ships one) writes each module's sources as each Apple platform's compiler
   reads them (macOS, iOS, tvOS, watchOS, visionOS): inactive clauses and directives
   blanked, lines kept, so diagnostics point at the real file and line.
2. Stand-ins of what Apple's SDK declares and Linux lacks (scripts/darwin-view/StandIns:
   `Security`, `CryptoKit` over swift-crypto, `Darwin`, `Network`, and overlays of
   Foundation and AsyncHTTPClient for their Apple-only declarations) are compiled into
   modules; the view's files that import Foundation or AsyncHTTPClient import the overlay.
   URLSession's Apple API is FoundationNetworking's where Linux has it.
3. Each module whose Apple view differs from its Linux one is type-checked with the very
   flags of its Linux build (read from .build/debug.yaml) against the Linux build of its
   dependencies, once per distinct view: whole-module, as many views at once as there are
   cores.

What it cannot see: availability (`@available`; scripts/check-availability.sh looks for that),
and differences between an Apple SDK declaration and FoundationNetworking's where Strata
uses URLSession's API on both. It needs `swift build --enable-all-traits --build-tests` first.

    python3 scripts/check-darwin.py [MODULE ...]   # every module of Sources/ and Tests/, or these
    python3 scripts/check-darwin.py --self-test    # shows that a type error in an Apple branch fails

Python 3 standard library only.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = ROOT / ".build-darwin"
TOOL_PACKAGE = ROOT / "scripts" / "darwin-view"
TOOL_SCRATCH = ROOT / ".build-darwin-view"
STAND_INS = TOOL_PACKAGE / "StandIns"
# In dependency order; each is a module named after its file.
STAND_IN_MODULES = ["Security", "CryptoKit", "Darwin", "Network", "Foundation_Darwin", "AsyncHTTPClient_Darwin"]
OVERLAYS = {"Foundation": "Foundation_Darwin", "AsyncHTTPClient": "AsyncHTTPClient_Darwin"}

# Flags of a module's build that produce outputs or state; a type-check takes the rest.
DROP_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path",
                   "-emit-module-interface-path", "-emit-private-module-interface-path", "-o",
                   "-emit-package-module-interface-path", "-emit-abi-descriptor-path"}
DROP = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-serialize-diagnostics", "-enable-batch-mode",
        "-emit-objc-header", "-parseable-output", "-emit-module-interface", "-emit-private-module-interface",
        "-whole-module-optimization", "-no-whole-module-optimization", "-emit-executable", "-emit-library",
        "-emit-symbol-graph"}


def modules_from_build_manifest() -> dict[str, dict]:
    """Every Swift module of the debug build: its sources and its compiler arguments."""
    manifest = ROOT / ".build" / "debug.yaml"
    if not manifest.exists():
        sys.exit("check-darwin: no .build/debug.yaml; run `swift build --enable-all-traits --build-tests` first")
    modules: dict[str, dict] = {}
    key = re.compile(r'^  "C\.(?P<name>[^"]+?)-[^"-]+-[^"-]+-[^"-]+-[^"-]+-debug\.module":$')
    current = None
    for line in manifest.read_text().splitlines():
        match = key.match(line)
        if match:
            current = {"name": match.group("name")}
            continue
        if current is None:
            continue
        stripped = line.strip()
        if stripped.startswith("inputs: "):
            current["inputs"] = json.loads(stripped[len("inputs: "):])
        elif stripped.startswith("args: "):
            current["args"] = json.loads(stripped[len("args: "):])
            modules[current["name"]] = current
            current = None
        elif not line.startswith("    "):
            current = None
    return modules


def typecheck_arguments(args: list[str]) -> list[str]:
    """A module's build arguments without its inputs and outputs."""
    kept: list[str] = []
    skip = False
    for argument in args[1:]:
        if skip:
            skip = False
            continue
        if argument in DROP_WITH_VALUE:
            skip = True
            continue
        if argument in DROP or argument.startswith("@") or argument.startswith("-j"):
            continue
        kept.append(argument)
    return kept


APPLE = {"macos", "ios", "tvos", "watchos", "visionos", "maccatalyst"}


def linux_only_modules() -> dict[str, set[str]]:
    """Per target of Package.swift, the modules it depends on only on other platforms than
    Apple's (`condition: .when(platforms: [.linux])`): `canImport` of one is false in its
    Apple view."""
    result = run(["swift", "package", "dump-package"])
    if result.returncode != 0:
        sys.exit("check-darwin: swift package dump-package failed:\n" + result.stderr)
    modules: dict[str, set[str]] = {}
    for target in json.loads(result.stdout)["targets"]:
        for dependency in target.get("dependencies", []):
            (kind, value), = dependency.items()
            name = value[0]
            condition = value[-1] if isinstance(value[-1], dict) else None
            platforms = set((condition or {}).get("platformNames") or [])
            if platforms and not platforms & APPLE:
                modules.setdefault(target["name"], set()).add(name)
    return modules


def run(command: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, text=True, capture_output=True, **kwargs)


def build_tool() -> Path:
    """darwin-view, compiled against the swift-syntax libraries the toolchain ships for its
    compiler plugins (seconds) where it has them, else built as a package (a checkout and a
    build of swift-syntax: minutes)."""
    host = Path(os.path.realpath(shutil.which("swiftc") or "swiftc")).parent.parent / "lib" / "swift" / "host"
    sources = sorted((TOOL_PACKAGE / "Sources" / "darwin-view").glob("*.swift"))
    if all((host / f"{module}.swiftmodule").exists() for module in ("SwiftSyntax", "SwiftParser", "SwiftIfConfig")):
        tool = TOOL_SCRATCH / "darwin-view"
        if tool.exists() and all(tool.stat().st_mtime > source.stat().st_mtime for source in sources):
            return tool
        TOOL_SCRATCH.mkdir(parents=True, exist_ok=True)
        result = run(["swiftc", "-swift-version", "6", "-I", str(host), "-L", str(host), "-lSwiftSyntax",
                      "-lSwiftParser", "-lSwiftIfConfig", "-Xlinker", "-rpath", "-Xlinker", str(host),
                      *map(str, sources), "-o", str(tool)])
    else:
        result = run(["swift", "build", "--package-path", str(TOOL_PACKAGE), "--scratch-path", str(TOOL_SCRATCH)])
        tool = TOOL_SCRATCH / "debug" / "darwin-view"
    if result.returncode != 0:
        sys.exit("check-darwin: darwin-view did not build:\n" + result.stdout + result.stderr)
    return tool


def build_stand_ins(base_args: list[str]) -> Path:
    """Compiles the stand-in modules with the search paths of a module that sees every package."""
    out = WORK / "stand-ins"
    out.mkdir(parents=True, exist_ok=True)
    flags = [a for a in typecheck_arguments(base_args) if a not in ("-enable-testing",)]
    # Swift 5 mode, as the SDK's C declarations are imported: its global constants are not
    # `Sendable` checked.
    flags = strip_flag_with_value(strip_flag_with_value(flags, "-module-name"), "-swift-version") + ["-swift-version", "5"]
    for name in STAND_IN_MODULES:
        result = run(["swiftc", "-emit-module", "-parse-as-library", "-module-name", name,
                      "-emit-module-path", str(out / f"{name}.swiftmodule"), "-I", str(out), *flags,
                      str(STAND_INS / f"{name}.swift")])
        if result.returncode != 0:
            sys.exit(f"check-darwin: the stand-in {name} did not compile:\n{result.stdout}{result.stderr}")
    return out


def strip_flag_with_value(flags: list[str], flag: str) -> list[str]:
    kept, skip = [], False
    for argument in flags:
        if skip:
            skip = False
        elif argument == flag:
            skip = True
        else:
            kept.append(argument)
    return kept


# A module whose Apple-only branches each hold a type error, on known lines, and whose Linux
# branch holds one that no Apple view may see.
SELF_TEST_SOURCE = """\
#if canImport(Security) && !canImport(FoundationNetworking)
    let security: Int = "every Apple platform"
#endif
#if os(watchOS)
    let watch: Int = "watchOS only"
#elseif os(iOS) || os(tvOS)
    let phone: Int = "iOS and tvOS"
#endif
#if os(Linux)
    let linux: Int = "never in an Apple view"
#else
    let fine = 1
#endif
"""
# The lines with an error, per platform.
SELF_TEST_EXPECTED = {"macOS": {2}, "iOS": {2, 7}, "tvOS": {2, 7}, "watchOS": {2, 5}, "visionOS": {2}}


def self_test(tool: Path) -> int:
    """The check fails on exactly the Apple-only lines with a type error, on each platform."""
    directory = WORK / "self-test"
    directory.mkdir(parents=True, exist_ok=True)
    source = directory / "Branches.swift"
    source.write_text(SELF_TEST_SOURCE)
    result = run([str(tool), "--out", str(directory / "views"), str(source)])
    assert result.returncode == 0, result.stderr
    for line in result.stdout.splitlines():
        platform, status, *_ = line.split()
        assert status == "differs", line
        view = directory / "views" / platform / "Branches.swift"
        check = run(["swiftc", "-typecheck", "-parse-as-library", str(view)])
        lines = {int(m.group(1)) for m in re.finditer(r"Branches\.swift:(\d+):\d+: error:", check.stdout + check.stderr)}
        if check.returncode == 0 or lines != SELF_TEST_EXPECTED[platform]:
            print(f"check-darwin: self-test failed on {platform}: errors on lines {sorted(lines)}, "
                  f"expected {sorted(SELF_TEST_EXPECTED[platform])}\n{check.stdout}{check.stderr}")
            return 1
    print("check-darwin: self-test passed (a type error in an Apple-only branch fails, on its line)")
    return 0


def main() -> int:
    if sys.argv[1:] == ["--self-test"]:
        return self_test(build_tool())
    only = set(sys.argv[1:])
    modules = modules_from_build_manifest()
    ours = {}
    for name, module in modules.items():
        sources = [s for s in module.get("inputs", []) if s.endswith(".swift")]
        if sources and all(Path(s).is_relative_to(ROOT / "Sources") or Path(s).is_relative_to(ROOT / "Tests")
                           for s in sources) and (not only or name in only):
            ours[name] = (module, sources)
    if not ours:
        sys.exit("check-darwin: no module of Sources/ or Tests/ in .build/debug.yaml")
    tool = build_tool()
    stand_ins = build_stand_ins(modules["StrataAsyncHTTPClient"]["args"])
    linux_only = linux_only_modules()

    # The views to check: (module, platform, compiler arguments, view files, real sources).
    jobs: list[tuple[str, str, list[str], list[str], list[str]]] = []
    for name in sorted(ours):
        module, sources = ours[name]
        args = typecheck_arguments(module["args"])
        defines = [a[2:] for a in args if a.startswith("-D")]
        views = WORK / "views" / name
        command = [str(tool), "--out", str(views)]
        for define in defines:
            command += ["--define", define]
        for module_name, overlay in OVERLAYS.items():
            command += ["--overlay", f"{module_name}={overlay}"]
        for module_name in sorted(linux_only.get(name, ())):
            command += ["--linux-only", module_name]
        result = run(command + sources)
        if result.returncode != 0:
            sys.exit(f"check-darwin: darwin-view failed on {name}:\n{result.stdout}{result.stderr}")
        seen: dict[str, str] = {}
        for line in result.stdout.splitlines():
            platform, status, *digest = line.split()
            if status == "same":
                continue
            if digest[0] in seen:
                print(f"check-darwin: {name} on {platform}: the same view as on {seen[digest[0]]}")
                continue
            seen[digest[0]] = platform
            jobs.append((name, platform, args, [str(views / platform / Path(s).name) for s in sources], sources))

    def typecheck(job: tuple[str, str, list[str], list[str], list[str]]) -> tuple[bool, str]:
        """Whether a view compiles cleanly, and what to print about it."""
        name, platform, args, files, sources = job
        # Whole-module: one frontend type-checks every file (a type-check alone, without -wmo,
        # runs a frontend per file, each parsing the whole module again: several times slower).
        check = run(["swiftc", "-typecheck", "-wmo", *args, "-I", str(stand_ins), *files])
        output = check.stdout + check.stderr
        # The view keeps every line where it was: point at the real file.
        for view, source in zip(files, sources):
            output = output.replace(view, str(Path(source).relative_to(ROOT)))
        # Strata's targets have no warnings on Linux; the Apple view may not add one.
        if check.returncode != 0 or re.search(r"^\S+\.swift:\d+:\d+: warning:", output, re.MULTILINE):
            lines = "\n".join(l for l in output.splitlines() if l.strip())
            return False, f"check-darwin: {name} does not compile cleanly for {platform}:\n{lines}"
        return True, f"check-darwin: {name} type-checks for {platform}"

    # Each type-check is one process on one core: as many at once as there are cores.
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        outcomes = list(pool.map(typecheck, jobs))
    for _, report in outcomes:
        print(report)
    checked = len(jobs)
    failures = sum(1 for clean, _ in outcomes if not clean)
    if failures:
        print(f"check-darwin: {failures} Apple view(s) of {checked} do not compile", file=sys.stderr)
        return 1
    print(f"check-darwin: {checked} Apple view(s) type-check (modules whose Apple view is Linux's are not repeated)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Finds products Strata's targets use whose packages need a newer Apple OS than Strata.

SwiftPM's minimum platform versions are per package, and on Apple platforms SwiftPM refuses
to plan a build in which a target uses a product whose package declares a higher minimum
than the target's own package: "the executable 'strata-demo' requires macos 13.0, but
depends on the product 'HummingbirdWebSocket' which requires macos 14.0". Linux builds never
check this, so such a dependency passes every Linux build and test and stops every Apple
build of Strata itself: `swift build` and `swift test` plan every target, the demo, the
bench and the tests included. (An app depending on Strata loads only the targets of the
products it uses, so it meets the error only through those.)

This check applies SwiftPM's rule to the manifests. The rule, as SwiftPM 6.3 writes it
(swift-package-manager, tag swift-6.3.1-RELEASE):

- Which dependencies: `BuildPlan.init` in Sources/Build/BuildPlan/BuildPlan.swift visits
  every module of the graph (`computeDestinations`: every module of every package; a root
  package's test modules through its test products) and, on a Darwin triple, calls
  `validateDeploymentVersionOfProductDependency` for each of the module's *product*
  dependencies (a dependency on a target of the same package is never checked) whose
  conditions the build environment satisfies (`ResolvedModule.Dependency.satisfies`). A
  platform condition (`.when(platforms: [.linux])`) that leaves out the platform being
  built skips the dependency (`PlatformsCondition.satisfies` in
  Sources/PackageModel/Manifest/PackageConditionDescription.swift). A trait condition is
  settled earlier: a dependency none of whose traits is on is dropped when the package is
  loaded (`Manifest.isTargetDependencyEnabled`, Sources/PackageModel/Manifest/
  Manifest+Traits.swift), and `TraitCondition.satisfies` is always true. Strata's own
  build turns every trait on, so here every trait-conditioned dependency counts.
- Which versions: the target's minimum is its package's, the product's is its package's
  (`ResolvedProduct.computePlatforms` merges its modules', which all come from its
  package), both through `PlatformVersionProvider.getDerived` in
  Sources/PackageGraph/Resolution/PlatformVersionProvider.swift: the declared version,
  raised to the platform's oldest supported version (`Platform.oldestSupportedVersion`
  in Sources/PackageModel/Platform.swift, OLDEST below) if lower; a platform the package
  does not declare gets that oldest version, except Mac Catalyst, which gets the higher
  of its oldest version and the package's derived iOS version. The product is rejected
  when its version is higher than the target's.
- Which platforms: the platform of the triple being built (`BuildParameters.
  currentPlatform`): macOS, Mac Catalyst, iOS, tvOS, watchOS. SwiftPM 6.3's native build
  system plans a visionOS triple as macOS; Xcode builds for visionOS as such, so visionOS
  is checked here too.

Not modelled: a test target's minimum is raised to the minimum of the Xcode SDK's XCTest
(`MinimumDeploymentTarget.computeXCTestMinimumDeploymentTarget`, known only on a Mac); this
check uses the package's version for test targets too, which can only report more. And
only Strata's targets are checked: the dependencies' own targets are their packages' to
keep consistent.

It reads Strata's manifest and the manifests of the packages its targets take products
from (`swift package dump-package`, each once, in parallel), so it needs the dependencies
resolved (`swift package resolve`, or any build) first.

    python3 scripts/check-platform-floors.py              # check the tree
    python3 scripts/check-platform-floors.py --self-test  # shows a violation fails, a fit passes

Python 3 standard library only.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# SwiftPM 6.3's `Platform.oldestSupportedVersion` of each Apple platform, as the manifests
# name them. An undeclared platform gets this version, and a declared one at least this.
OLDEST: dict[str, tuple[int, ...]] = {
    "macos": (10, 13),
    "maccatalyst": (13, 0),
    "ios": (12, 0),
    "tvos": (12, 0),
    "watchos": (4, 0),
    "visionos": (1, 0),
}
DISPLAY = {
    "macos": "macOS",
    "maccatalyst": "Mac Catalyst",
    "ios": "iOS",
    "tvos": "tvOS",
    "watchos": "watchOS",
    "visionos": "visionOS",
}
# How SwiftPM names a target's kind in its diagnostic (`Target.Kind.rawValue`).
KIND = {"regular": "library", "executable": "executable", "test": "test", "macro": "macro", "plugin": "plugin"}


@dataclass(frozen=True)
class Violation:
    target: str
    kind: str
    product: str
    package: str
    platform: str
    target_version: tuple[int, ...]
    product_version: tuple[int, ...]

    def __str__(self) -> str:
        name = DISPLAY[self.platform]
        return (
            f"the {self.kind} '{self.target}' requires {name} {show(self.target_version)}, but depends on the "
            f"product '{self.product}' of {self.package}, which requires {name} {show(self.product_version)}"
        )


def parse_version(text: str) -> tuple[int, ...]:
    parts = [int(p) for p in text.split(".")]
    while len(parts) < 3:
        parts.append(0)
    return tuple(parts)


def show(version: tuple[int, ...]) -> str:
    """As SwiftPM prints a platform version: "14.0", "10.15.4"."""
    parts = list(version)
    while len(parts) > 2 and parts[-1] == 0:
        parts.pop()
    return ".".join(str(p) for p in parts)


def derived(platforms: list[dict], platform: str) -> tuple[int, ...]:
    """A package's minimum for `platform`, as `PlatformVersionProvider.getDerived` computes it."""
    oldest = parse_version(".".join(str(p) for p in OLDEST[platform]))
    for declared in platforms:
        if declared["platformName"] == platform:
            return max(parse_version(declared["version"]), oldest)
    if platform == "maccatalyst":
        return max(oldest, derived(platforms, "ios"))
    return oldest


def applies(condition: dict | None, platform: str) -> bool:
    """Whether a target dependency with `condition` is part of a build for `platform`, with
    every trait on (trait conditions hold; a configuration condition holds in its own
    configuration, which SwiftPM checks too)."""
    if not condition:
        return True
    names = condition.get("platformNames") or []
    return not names or platform in names


def product_dependencies(target: dict) -> list[tuple[str, str | None, dict | None]]:
    """A target's dependencies that may be products: (name, package or None, condition)."""
    found = []
    for dependency in target.get("dependencies", []):
        if "product" in dependency:
            name, package, _aliases, condition = dependency["product"]
            found.append((name, package, condition))
        elif "byName" in dependency:
            name, condition = dependency["byName"]
            found.append((name, None, condition))
    return found


def dependency_key(dependency: dict) -> tuple[str, dict]:
    """A package dependency's identity and its details, whatever its kind."""
    ((_kind, [details]),) = dependency.items()
    return details["identity"], details


def check(root: dict, packages: dict[str, dict]) -> list[Violation]:
    """The product dependencies of `root`'s targets whose packages need more than `root`.

    `packages` maps the identity of each of `root`'s package dependencies that a target
    takes a product from to its `dump-package` JSON."""
    own_targets = {t["name"] for t in root["targets"]}
    # A target names a package by its identity (the last path component of its URL,
    # lowercased), or by the name the dependency gives itself with `.package(name:…)`.
    by_reference: dict[str, str] = {}
    for dependency in root.get("dependencies", []):
        identity, details = dependency_key(dependency)
        by_reference[identity.lower()] = identity
        if details.get("nameForTargetDependencyResolutionOnly"):
            by_reference[details["nameForTargetDependencyResolutionOnly"].lower()] = identity

    def package_of(product: str, reference: str | None) -> str:
        if reference is not None:
            identity = by_reference.get(reference.lower())
            if identity is None:
                raise LookupError(f"no package dependency '{reference}' (for the product '{product}')")
            return identity
        owners = [i for i, dump in packages.items() if any(p["name"] == product for p in dump.get("products", []))]
        if len(owners) != 1:
            raise LookupError(f"the product '{product}' is in {len(owners)} dependencies, not one")
        return owners[0]

    violations = []
    for target in root["targets"]:
        kind = KIND.get(target["type"], target["type"])
        for product, reference, condition in product_dependencies(target):
            if reference is None and product in own_targets:
                continue  # a target of Strata's, by name: never checked
            identity = package_of(product, reference)
            dump = packages[identity]
            if not any(p["name"] == product for p in dump.get("products", [])):
                raise LookupError(f"{identity} has no product '{product}' (used by '{target['name']}')")
            for platform in OLDEST:
                if not applies(condition, platform):
                    continue
                ours = derived(root.get("platforms") or [], platform)
                theirs = derived(dump.get("platforms") or [], platform)
                if theirs > ours:
                    violations.append(Violation(target["name"], kind, product, identity, platform, ours, theirs))
    return violations


def run(command: list[str], cwd: Path) -> dict:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} in {cwd} failed:\n{result.stdout}{result.stderr}")
    return json.loads(result.stdout)


def dump(package_path: Path, scratch: Path) -> dict:
    """`swift package dump-package` of the package at `package_path`. Its scratch folder is
    a temporary one: nothing is written into the checkouts, and a build running in .build
    (which holds its lock) does not make this wait."""
    return run(["swift", "package", "--package-path", str(package_path), "--scratch-path", str(scratch),
                "dump-package"], cwd=ROOT)


def checkout_paths() -> dict[str, Path]:
    """Where each resolved dependency is, by identity (.build/workspace-state.json)."""
    state_file = ROOT / ".build" / "workspace-state.json"
    if not state_file.exists():
        sys.exit("check-platform-floors: no .build/workspace-state.json: run `swift package resolve` first")
    paths = {}
    for dependency in json.loads(state_file.read_text())["object"]["dependencies"]:
        identity = dependency["packageRef"]["identity"]
        state = dependency["state"]
        if state["name"] == "edited":
            paths[identity] = Path(state.get("path") or ROOT / "Packages" / dependency["subpath"])
        elif dependency["packageRef"]["kind"] == "fileSystem":
            paths[identity] = Path(dependency["packageRef"]["location"])
        else:
            paths[identity] = ROOT / ".build" / "checkouts" / dependency["subpath"]
    return paths


def main() -> int:
    if "--self-test" in sys.argv:
        return self_test()
    with tempfile.TemporaryDirectory(prefix="check-platform-floors.") as scratch:
        root = dump(ROOT, Path(scratch) / "root")
        identities = {dependency_key(d)[0]: d for d in root.get("dependencies", [])}
        # The packages a target names; all direct dependencies if a product is named alone.
        named = {package.lower() for t in root["targets"] for _, package, _ in product_dependencies(t) if package}
        own_targets = {t["name"] for t in root["targets"]}
        alone = any(package is None and name not in own_targets
                    for t in root["targets"] for name, package, _ in product_dependencies(t))
        wanted = sorted(
            i for i, d in identities.items()
            if alone or i.lower() in named
            or (dependency_key(d)[1].get("nameForTargetDependencyResolutionOnly") or "").lower() in named - {""})
        paths = checkout_paths()
        missing = [i for i in wanted if i not in paths or not (paths[i] / "Package.swift").exists()]
        if missing:
            sys.exit(f"check-platform-floors: not resolved: {', '.join(missing)}: run `swift package resolve` first")
        with ThreadPoolExecutor(max_workers=4) as pool:
            dumps = dict(zip(wanted, pool.map(lambda i: dump(paths[i], Path(scratch) / i), wanted)))
    try:
        violations = check(root, dumps)
    except LookupError as error:
        sys.exit(f"check-platform-floors: {error}")
    for violation in violations:
        print(f"check-platform-floors: {violation}")
    floors = ", ".join(f"{DISPLAY[p]} {show(derived(root.get('platforms') or [], p))}" for p in OLDEST)
    if violations:
        print(
            f"check-platform-floors: FAIL: {len({(v.target, v.product) for v in violations})} product dependencies "
            f"need more than Strata's floor ({floors}) on {len(violations)} target-platform pairs; SwiftPM refuses "
            "to plan an Apple build with any of them. Raise no floor: leave the "
            "platform out of the dependency's condition (Integration.linuxProduct in Package.swift) and guard "
            "the code that uses it with `#if canImport(…)`.",
            file=sys.stderr,
        )
        return 1
    own_targets = {t["name"] for t in root["targets"]}
    uses = sum(1 for t in root["targets"] for name, package, _ in product_dependencies(t)
               if package is not None or name not in own_targets)
    print(
        f"check-platform-floors: OK: {len(root['targets'])} targets, {uses} product dependencies from "
        f"{len(dumps)} packages, none needs more than Strata's floor ({floors})"
    )
    return 0


def _root(platforms: list[tuple[str, str]], targets: list[dict], dependencies: list[str]) -> dict:
    """A synthetic `dump-package` of a root package, in the shape SwiftPM writes."""
    return {
        "name": "Root",
        "platforms": [{"platformName": p, "version": v, "options": []} for p, v in platforms],
        "dependencies": [
            {"sourceControl": [{"identity": d.lower(), "location": {"remote": [{"urlString": f"https://x/{d}"}]}}]}
            for d in dependencies
        ],
        "targets": targets,
    }


def _package(platforms: list[tuple[str, str]], products: list[str]) -> dict:
    return {
        "name": "P",
        "platforms": [{"platformName": p, "version": v, "options": []} for p, v in platforms],
        "products": [{"name": p} for p in products],
    }


def self_test() -> int:
    newer = _package([("macos", "14.0"), ("ios", "17.0"), ("tvos", "17.0")], ["Server"])
    watch = _package([("watchos", "10.0")], ["Watch"])
    silent = _package([], ["Anything"])
    packages = {"server-kit": newer, "watch-kit": watch, "silent": silent}
    deps = ["server-kit", "Watch-Kit", "silent"]
    on_linux = {"platformNames": ["linux"], "traits": ["WebSocket"]}
    on_trait = {"platformNames": [], "traits": ["WebSocket"]}
    cases: list[tuple[str, dict, set[tuple[str, str, str]]]] = [
        (
            "a product needing macOS 14 / iOS 17 / tvOS 17 under a trait only: every platform it raises fails, "
            "Mac Catalyst too (derived from iOS on both sides)",
            _root([("macos", "13.0"), ("ios", "16.0"), ("tvos", "16.0"), ("watchos", "9.0")],
                  [{"name": "demo", "type": "executable",
                    "dependencies": [{"byName": ["Core", None]},
                                     {"product": ["Server", "server-kit", None, on_trait]}]},
                   {"name": "Core", "type": "regular", "dependencies": []}], deps),
            {("demo", "Server", p) for p in ("macos", "maccatalyst", "ios", "tvos")},
        ),
        (
            "the same product conditioned on Linux (and the trait): never part of an Apple build, passes",
            _root([("macos", "13.0"), ("ios", "16.0"), ("tvos", "16.0"), ("watchos", "9.0")],
                  [{"name": "Tests", "type": "test",
                    "dependencies": [{"product": ["Server", "server-kit", None, on_linux]}]}], deps),
            set(),
        ),
        (
            "conditioned on macOS only: checked on macOS alone",
            _root([("macos", "13.0"), ("ios", "16.0"), ("tvos", "16.0")],
                  [{"name": "Lib", "type": "regular",
                    "dependencies": [{"product": ["Server", "server-kit", None, {"platformNames": ["macos"]}]}]}],
                  deps),
            {("Lib", "Server", "macos")},
        ),
        (
            "watchOS undeclared by the root (4.0), 10.0 declared by the product's package: fails, and the "
            "package is named by another spelling of its identity",
            _root([("macos", "13.0"), ("ios", "16.0")],
                  [{"name": "Lib", "type": "regular", "dependencies": [{"product": ["Watch", "Watch-Kit", None, None]}]}],
                  deps),
            {("Lib", "Watch", "watchos")},
        ),
        (
            "a package that declares no platform, a root that declares iOS 11 (raised to 12, as the package's "
            "undeclared iOS is), and a product named without its package: passes",
            _root([("macos", "10.10"), ("ios", "11.0")],
                  [{"name": "Lib", "type": "regular", "dependencies": [{"byName": ["Anything", None]}]}], deps),
            set(),
        ),
        (
            "Mac Catalyst declared by the root below the package's iOS-derived Catalyst version: fails there",
            _root([("macos", "14.0"), ("ios", "17.0"), ("tvos", "17.0"), ("maccatalyst", "15.0")],
                  [{"name": "Lib", "type": "regular",
                    "dependencies": [{"product": ["Server", "server-kit", None, None]}]}], deps),
            {("Lib", "Server", "maccatalyst")},
        ),
    ]
    failures = 0
    for number, (what, root, expected) in enumerate(cases):
        found = {(v.target, v.product, v.platform) for v in check(root, packages)}
        if found != expected:
            print(f"check-platform-floors: self-test {number} ({what}): expected {sorted(expected)}, found {sorted(found)}")
            failures += 1
    try:
        check(_root([], [{"name": "Lib", "type": "regular",
                          "dependencies": [{"product": ["Missing", "server-kit", None, None]}]}], deps), packages)
        print("check-platform-floors: self-test: a product its package does not have was not reported")
        failures += 1
    except LookupError:
        pass
    if failures:
        return 1
    print(f"check-platform-floors: self-test passed ({len(cases) + 1} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

// A stand-in of Apple's Network framework for scripts/check-darwin.sh: `canImport(Network)`
// is true on Apple platforms; Strata names none of its declarations directly.

// A stand-in of Apple's CryptoKit for scripts/check-darwin.sh: swift-crypto's Crypto module
// has CryptoKit's API.
@_exported import Crypto

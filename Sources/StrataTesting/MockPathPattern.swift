import Foundation

/// A stub's path: literal segments, `:name` parameters and wildcards.
///
/// - `/users/1` matches that path only;
/// - `/users/:id` matches `/users/42` and captures `id = "42"`;
/// - `/files/*` matches exactly one segment (`/files/a`, not `/files/a/b`);
/// - `/files/**` matches any number of segments, none included.
///
/// Segments are compared percent-decoded, a `%` that starts no `%XX` escape read as
/// itself (so `/files/100%` matches `/files/100%25`), and empty segments are ignored,
/// so `/users/1/` matches `/users/1`.
struct MockPathPattern: Sendable, CustomStringConvertible {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case anySegment
        case anySegments
    }

    /// The pattern as it was written.
    let description: String
    let segments: [Segment]

    init(_ pattern: String) {
        self.description = pattern
        self.segments = Self.split(pattern).map { segment in
            if segment == "*" { return .anySegment }
            if segment == "**" { return .anySegments }
            if segment.hasPrefix(":"), segment.count > 1 { return .parameter(String(segment.dropFirst())) }
            return .literal(segment)
        }
    }

    /// The captured parameters when `path` matches, `nil` when it does not.
    func match(_ path: String) -> [String: String]? {
        var parameters: [String: String] = [:]
        guard Self.match(segments[...], Self.split(path)[...], into: &parameters) else { return nil }
        return parameters
    }

    private static func match(
        _ pattern: ArraySlice<Segment>,
        _ path: ArraySlice<String>,
        into parameters: inout [String: String]
    ) -> Bool {
        guard let head = pattern.first else { return path.isEmpty }
        let rest = pattern.dropFirst()
        if head == .anySegments {
            // Try every split point, shortest first.
            for skipped in 0...path.count {
                var attempt = parameters
                if match(rest, path.dropFirst(skipped), into: &attempt) {
                    parameters = attempt
                    return true
                }
            }
            return false
        }
        guard let segment = path.first else { return false }
        switch head {
        case .literal(let literal) where literal != segment: return false
        case .parameter(let name): parameters[name] = segment
        default: break
        }
        return match(rest, path.dropFirst(), into: &parameters)
    }

    /// The non-empty segments of `path`, percent-decoded (see ``MockPercentDecoding``).
    /// Split on the `/` scalar, even when a combining mark follows it.
    private static func split(_ path: String) -> [String] {
        path.unicodeScalars.split(separator: "/", omittingEmptySubsequences: true).map { segment in
            MockPercentDecoding.decode(Substring(segment))
        }
    }
}

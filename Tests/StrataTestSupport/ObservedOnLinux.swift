import Testing

/// What Strata's tests have run on. Every run so far was on Linux, where `URLSession` is
/// FoundationNetworking over libcurl: what a test expects of that `URLSession` (how it
/// fails on a reply that breaks HTTP, the messages it gives) or of Linux itself was read
/// there, and Apple's `URLSession` is another implementation.
package enum Platform {
    /// Whether `URLSession` is FoundationNetworking over libcurl here, as on Linux.
    package static let isLinuxFoundation: Bool = {
        #if canImport(FoundationNetworking)
            true
        #else
            false
        #endif
    }()
}

/// Runs `body`, whose expectations were observed only on Linux (FoundationNetworking over
/// libcurl, or Linux itself): plainly on Linux, where they are as strict as any, and
/// elsewhere inside an intermittent `withKnownIssue` that says `why`, so that a run on an
/// Apple platform reports each one that does not hold there without failing, until a run
/// there confirms or corrects it.
package func expectOnLinux(
    _ why: Comment, sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void
) rethrows {
    if Platform.isLinuxFoundation {
        try body()
    } else {
        withKnownIssue(why, isIntermittent: true, sourceLocation: sourceLocation, body)
    }
}

/// `expectOnLinux` for a `body` that waits.
package func expectOnLinux(
    _ why: Comment, isolation: isolated (any Actor)? = #isolation, sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> Void
) async rethrows {
    if Platform.isLinuxFoundation {
        try await body()
    } else {
        await withKnownIssue(why, isIntermittent: true, isolation: isolation, sourceLocation: sourceLocation, body)
    }
}

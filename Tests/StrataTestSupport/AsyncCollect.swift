/// Every element of `sequence`.
public func collect<S: AsyncSequence>(_ sequence: S) async throws -> [S.Element] {
    var elements: [S.Element] = []
    for try await element in sequence { elements.append(element) }
    return elements
}

/// The elements before the sequence failed, and the error it failed with (`nil` when it
/// ended).
public func collectUntilError<S: AsyncSequence>(_ sequence: S) async -> ([S.Element], (any Error)?) {
    var elements: [S.Element] = []
    do {
        for try await element in sequence { elements.append(element) }
        return (elements, nil)
    } catch {
        return (elements, error)
    }
}

import Foundation

/// Turns a body's chunks into records (events, lines, decoded models) as they arrive.
protocol RecordParser<Record>: Sendable {
    /// What the parser produces.
    associatedtype Record
    /// Parses `chunk`, adding the records it completes to `records`.
    mutating func feed(_ chunk: Data, into records: inout [Record]) throws
    /// The end of the body: adds what the last bytes complete, or throws when they are
    /// a record cut off.
    mutating func finish(into records: inout [Record]) throws
}

extension MessageBody {
    /// The records of a body read as it arrives: its server-sent events, its lines, or
    /// the models of its JSON lines or JSON text sequence.
    ///
    /// Memory stays bounded: one record larger than its limit ends the sequence with
    /// ``StreamFormatError/tooLarge(limit:)``. A failure ends the sequence, after the
    /// records completed before it: the next call returns `nil`. A streamed body is read once; a replayable one is read anew
    /// by every iterator.
    public struct Records<Element: Sendable>: AsyncSequence, Sendable {
        let body: MessageBody
        let makeParser: @Sendable () -> any RecordParser<Element>

        /// Reads the records of a body.
        public struct AsyncIterator: AsyncIteratorProtocol {
            private var chunks: MessageBody.AsyncIterator
            private var parser: any RecordParser<Element>
            private var ready: [Element] = []
            private var readyIndex = 0
            private var isFinished = false
            /// The error to throw once the records completed before it are handed out.
            private var failure: (any Error)?

            init(chunks: MessageBody.AsyncIterator, parser: any RecordParser<Element>) {
                self.chunks = chunks
                self.parser = parser
            }

            /// The next record, or `nil` at the end of the body.
            /// - Throws: ``StreamFormatError`` when the body is not what the records need,
            ///   or the body's own error.
            public mutating func next() async throws -> Element? {
                while true {
                    if readyIndex < ready.count {
                        defer { readyIndex += 1 }
                        return ready[readyIndex]
                    }
                    ready.removeAll(keepingCapacity: true)
                    readyIndex = 0
                    if let failure {
                        self.failure = nil
                        throw failure
                    }
                    if isFinished { return nil }
                    do {
                        if let chunk = try await chunks.next() {
                            try parser.feed(chunk, into: &ready)
                        } else {
                            isFinished = true
                            try parser.finish(into: &ready)
                        }
                    } catch {
                        isFinished = true
                        failure = error
                    }
                }
            }
        }

        /// Starts reading the body.
        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(chunks: body.makeAsyncIterator(), parser: makeParser())
        }
    }

    /// The body's records, read with parsers `makeParser` makes.
    func records<Element>(_ makeParser: @escaping @Sendable () -> any RecordParser<Element>) -> Records<Element> {
        Records(body: self, makeParser: makeParser)
    }
}

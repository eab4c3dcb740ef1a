import Foundation
import Strata

/// A fault cell's result as it crosses from the child process that ran it to the test
/// that checks it (see ``FaultCellProcess``): the observation, the time and the peak
/// growth of the child's resident set, as JSON.
struct FaultCellReport: Codable {
    let observation: FaultObservation
    /// How long the call took.
    let elapsedNanoseconds: Int64
    /// The peak growth of the child's resident set during the call, in bytes.
    let growth: Int

    /// The report of a call.
    init(_ observation: FaultObservation, elapsed: Duration, growth: Int) {
        self.observation = observation
        let parts = elapsed.components
        elapsedNanoseconds = parts.seconds * 1_000_000_000 + parts.attoseconds / 1_000_000_000
        self.growth = growth
    }

    /// The time the call took.
    var elapsed: Duration { .nanoseconds(elapsedNanoseconds) }
}

/// A value that is encoded as its description and decoded by finding the one of
/// ``known`` with that description: the kinds and phases in a ``FaultCellReport``.
protocol CodableByDescription: Codable, CustomStringConvertible {
    /// Every value there is to decode.
    static var known: [Self] { get }
}

// Public because the kinds and phases are public types; the protocol keeps them internal.
extension CodableByDescription {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let value = Self.known.first(where: { $0.description == name }) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "no \(Self.self) is \"\(name)\"")
        }
        self = value
    }
}

extension StrataError.Kind: CodableByDescription {
    static let known: [Self] = [
        .invalidURL, .encoding, .transport, .cancelled, .unacceptableStatus, .unacceptableContentType,
        .bodyTooLarge, .decoding, .mapping, .middleware, .redirect,
    ]
}

extension StrataError.Phase: CodableByDescription {
    static let known: [Self] = [.awaitingHead, .readingBody]
}

extension TransportError.Kind: CodableByDescription {
    static let known: [Self] = [
        .connectionRefused, .hostNotFound, .timedOut, .connectionLost, .malformedResponse, .tls,
        .bodyTooLarge, .invalidRequest, .other,
    ]
}

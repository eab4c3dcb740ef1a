import Strata

/// A step did something other than what it expected.
struct TourCheckFailure: Error, CustomStringConvertible {
    /// What was wrong.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Throws ``TourCheckFailure`` with `message` unless `condition` holds.
func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw TourCheckFailure(message()) }
}

extension StrataError {
    /// The status of an ``StrataError/Kind/unacceptableStatus`` failure, else `nil`.
    var unacceptableStatusCode: Int? {
        kind == .unacceptableStatus ? status?.code : nil
    }

    /// Whether the body could not be decoded.
    var isDecodingFailure: Bool { kind == .decoding }

    /// The kind in a few words: `StrataError.unacceptableStatus(404)`,
    /// `StrataError.decoding(UserEntry: The given data was not valid JSON.)`.
    var kindSummary: String { "StrataError." + kindName }

    private var kindName: String {
        switch kind {
        case .unacceptableStatus: "unacceptableStatus(\(status?.code ?? 0))"
        case .decoding, .mapping: "\(kind)(\(mappingError.map(Self.short) ?? ""))"
        case .transport: "transport(\(transportError?.kind.description ?? ""))"
        case .unacceptableContentType:
            "unacceptableContentType(\(response?.headerFields[.contentType] ?? "none"))"
        default: kind.description
        }
    }

    /// `UserEntry: The given data was not valid JSON.`: the type without its module,
    /// the reason cut to a line.
    private static func short(_ error: MappingError) -> String {
        let type = error.typeName.split(separator: ".").last.map(String.init) ?? error.typeName
        let reason = error.reason.count > 40 ? String(error.reason.prefix(39)) + "…" : error.reason
        return "\(type): \(reason)"
    }
}

extension TourSession {
    /// Sends `endpoint` expecting it to fail with a ``StrataError`` that `matches`.
    /// - Returns: the error.
    /// - Throws: ``TourCheckFailure`` when the request succeeds or fails differently.
    func expectFailure<Response>(
        _ endpoint: Endpoint<Response>,
        _ expectation: String,
        matches: (StrataError) -> Bool
    ) async throws -> StrataError {
        do throws(StrataError) {
            _ = try await networker.send(endpoint)
        } catch {
            guard matches(error) else {
                throw TourCheckFailure("expected \(expectation), got \(error)")
            }
            return error
        }
        throw TourCheckFailure("expected \(expectation), but the request succeeded")
    }
}

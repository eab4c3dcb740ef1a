#if GRPC
    import Foundation
    import GRPCCore
    import HTTPTypes
    import Strata
    import SwiftProtobuf

    /// The content type a gRPC request body (one protobuf message) is described with.
    let grpcProtobufContentType = "application/grpc+proto"

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension RequestDescription where Route == GRPCRoute {
        /// Creates the description of a gRPC call: its route, its request message (kept as the
        /// message's binary form in `RequestDescription.body`) and its metadata, the
        /// description's header fields (a `-bin` field carries base64, as on the wire).
        ///
        /// <!-- doc-examples: skip (StrataGRPC needs macOS 15 / iOS 18, which DocTests does not; StrataGRPCTests makes these calls) -->
        /// ```swift
        /// let request = try RequestDescription(
        ///     route: GRPCRoute(Strata_Demo_V1_UserService.Method.GetUser.descriptor),
        ///     message: Strata_Demo_V1_GetUserRequest.with { $0.id = 1 },
        ///     headers: [HTTPField.Name("x-trace")!: "abc"])
        /// ```
        /// - Throws: `MappingError` when the message cannot be serialised.
        public init<Message: SwiftProtobuf.Message>(route: GRPCRoute, message: Message, headers: HTTPFields = [:])
            throws
        {
            self.init(
                route: route, method: .post, headers: headers,
                body: .data(try ProtobufBytes.bytes(of: message), contentType: grpcProtobufContentType))
        }

        /// Creates the description of a gRPC call whose request is a raw-layer model whose
        /// `Raw` is a protobuf message.
        /// - Throws: `MappingError` when the model cannot produce its message.
        public init<Model: RawEncodable>(route: GRPCRoute, raw model: Model, headers: HTTPFields = [:]) throws
        where Model.Raw: SwiftProtobuf.Message {
            try self.init(route: route, message: try model.toRaw(), headers: headers)
        }

        /// Creates the description of a gRPC call whose request is a raw-layer model with a
        /// protobuf form (``ProtobufRawEncodable``).
        /// - Throws: `MappingError` when the model cannot produce its message.
        public init<Model: ProtobufRawEncodable>(route: GRPCRoute, raw model: Model, headers: HTTPFields = [:]) throws {
            try self.init(route: route, message: try model.toMessage(), headers: headers)
        }

        /// Creates the description of a gRPC call whose request is an application model, sent
        /// as its DTO's protobuf form.
        /// - Throws: `MappingError` when the model cannot produce its DTO or message.
        public init<Model: DTOEncodable>(route: GRPCRoute, model: Model, headers: HTTPFields = [:]) throws
        where Model.DTO: ProtobufRawEncodable {
            try self.init(route: route, message: try model.toDTO().toMessage(), headers: headers)
        }
    }

    /// A header field of a gRPC call's description could not become metadata.
    public struct GRPCMetadataError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The field's name.
        public let name: String

        /// A one-line description for logs.
        public var description: String {
            "metadata \(name.debugDescription): a -bin field's value must be base64"
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    extension RequestDescription where Route == GRPCRoute {
        /// The call's metadata: each header field under its lowercased name; a name ending in
        /// `-bin` is binary metadata, its value base64 (padded or not), as gRPC sends it.
        /// - Throws: ``GRPCMetadataError`` for a `-bin` value that is not base64.
        public func metadata() throws(GRPCMetadataError) -> Metadata {
            var metadata = Metadata()
            for field in headers {
                let key = field.name.canonicalName
                if key.hasSuffix("-bin") {
                    guard let bytes = Self.base64(field.value) else { throw GRPCMetadataError(name: key) }
                    metadata.addBinary(bytes, forKey: key)
                } else {
                    metadata.addString(field.value, forKey: key)
                }
            }
            return metadata
        }

        /// The request message's bytes: the body given as data, empty when there is none;
        /// `nil` for a body that is not one message (multipart, a file, a stream).
        var messageBytes: [UInt8]? {
            switch body {
            case .none: return []
            case .data(let data, _): return [UInt8](data)
            default: return nil
            }
        }

        /// The call's head as an HTTP/2 request, for errors and logs: `POST /service/method`.
        var head: HTTPRequest {
            HTTPRequest(method: .post, scheme: nil, authority: nil, path: route.path, headerFields: headers)
        }

        private static func base64(_ value: String) -> [UInt8]? {
            var text = value.trimmingCharacters(in: .whitespaces)
            let remainder = text.count % 4
            if remainder != 0 { text += String(repeating: "=", count: 4 - remainder) }
            return Data(base64Encoded: text).map { [UInt8]($0) }
        }
    }
#endif

import Strata
import StrataDemo
import StrataGRPC

// The demo's raw layer read from and written as protobuf: the same `UserEntry` and
// `PhotoEntry` DTOs the HTTP demo reads from JSON, given their second raw representation.
// The app layer (`User.from(dto:)`, `Photo.from(dto:)`) is the HTTP demo's, unchanged.

extension PhotoEntry: ProtobufRawMappable {
    /// The protobuf form: `strata.demo.v1.PhotoMessage`.
    public typealias Message = Strata_Demo_V1_PhotoMessage

    /// Maps the message's `id` and `ref`.
    public static func from(message: Strata_Demo_V1_PhotoMessage) throws -> PhotoEntry {
        PhotoEntry(id: message.id, ref: message.ref)
    }

    /// Maps back to the message.
    public func toMessage() throws -> Strata_Demo_V1_PhotoMessage {
        .with {
            $0.id = id
            $0.ref = ref
        }
    }
}

extension UserEntry: ProtobufRawMappable {
    /// The protobuf form: `strata.demo.v1.UserMessage`.
    public typealias Message = Strata_Demo_V1_UserMessage

    /// Maps the message; an age that does not fit `Int` or a `type` this version does not
    /// know is a ``StrataCore/MappingError``, as a bad JSON value is.
    public static func from(message: Strata_Demo_V1_UserMessage) throws -> UserEntry {
        guard let age = Int(exactly: message.age) else {
            throw MappingError(type: UserEntry.self, codingPath: "age", description: "\(message.age) does not fit Int")
        }
        guard let type = UserType(rawValue: message.type.rawValue) else {
            throw MappingError(
                type: UserEntry.self, codingPath: "type", description: "unknown user type \(message.type.rawValue)")
        }
        var photos: [PhotoEntry] = []
        for (index, photo) in message.photos.enumerated() {
            do {
                photos.append(try PhotoEntry.from(message: photo))
            } catch {
                throw MappingError(type: UserEntry.self, codingPath: "photos[\(index)]", description: "\(error)")
            }
        }
        return UserEntry(name: message.name, age: age, type: type, photos: photos)
    }

    /// Maps back to the message.
    public func toMessage() throws -> Strata_Demo_V1_UserMessage {
        let photos = try self.photos.map { try $0.toMessage() }
        return .with {
            $0.name = name
            $0.age = Int64(age)
            $0.type = Strata_Demo_V1_UserType(rawValue: type.rawValue) ?? .UNRECOGNIZED(type.rawValue)
            $0.photos = photos
        }
    }
}

import Strata
import StrataDemo
import StrataGRPC

// The app models of the demo's streaming calls. Their raw layer is the generated message
// itself (`Raw == Self`): no DTO of their own, unlike `UserEntry`, which serves HTTP's
// JSON too. The app layer maps as for any DTO.

extension Strata_Demo_V1_UploadPhotoRequest: RawEncodable, ProtobufRawEncodable {
    /// The message is its own raw value.
    public typealias Raw = Self
    /// It is sent as itself.
    public typealias Message = Self
}

extension Strata_Demo_V1_UploadSummary: RawDecodable {
    /// The message is its own raw value.
    public typealias Raw = Self
}

extension Strata_Demo_V1_ChatLine: RawEncodable, RawDecodable, ProtobufRawEncodable {
    /// The message is its own raw value.
    public typealias Raw = Self
    /// It is sent as itself.
    public typealias Message = Self
}

/// A photo to add to a user's album: one message of an `UploadPhotos` call.
public struct PhotoUpload: DTOEncodable, Sendable, Equatable {
    /// Whose album it goes to.
    public let userID: Int
    /// The photo.
    public let photo: Photo

    /// Creates an upload of `photo` to `userID`'s album.
    public init(userID: Int, photo: Photo) {
        self.userID = userID
        self.photo = photo
    }

    /// The message: the photo as the HTTP demo's `PhotoEntry` maps it.
    public func toDTO() throws -> Strata_Demo_V1_UploadPhotoRequest {
        let photo = try PhotoEntry(id: photo.id, ref: photo.image).toMessage()
        return .with {
            $0.userID = Int64(userID)
            $0.photo = photo
        }
    }
}

/// What an `UploadPhotos` call added.
public struct UploadReport: DTODecodable, Sendable, Equatable {
    /// How many photos were added.
    public let added: Int
    /// How many users they went to.
    public let users: Int
    /// The ids of the photos refused, in the order they were sent.
    public let refusedIDs: [String]

    /// Creates a report.
    public init(added: Int, users: Int, refusedIDs: [String]) {
        self.added = added
        self.users = users
        self.refusedIDs = refusedIDs
    }

    /// Maps the summary; a count that does not fit `Int` is a `MappingError`.
    public static func from(dto: Strata_Demo_V1_UploadSummary) throws -> UploadReport {
        guard let added = Int(exactly: dto.added), let users = Int(exactly: dto.users) else {
            throw MappingError(type: UploadReport.self, description: "counts \(dto.added), \(dto.users) do not fit Int")
        }
        return UploadReport(added: added, users: users, refusedIDs: dto.refusedIds)
    }
}

/// A line in the demo's chat room, sent and received over the `Chat` call.
public struct ChatLine: DTOEncodable, DTODecodable, Sendable, Equatable, CustomStringConvertible {
    /// Who wrote it.
    public let author: String
    /// What it says.
    public let text: String

    /// Creates a line.
    public init(author: String, text: String) {
        self.author = author
        self.text = text
    }

    /// Reads the message.
    public static func from(dto: Strata_Demo_V1_ChatLine) throws -> ChatLine {
        ChatLine(author: dto.author, text: dto.text)
    }

    /// The message.
    public func toDTO() throws -> Strata_Demo_V1_ChatLine {
        .with {
            $0.author = author
            $0.text = text
        }
    }

    /// `author: text`
    public var description: String { "\(author): \(text)" }
}

import Foundation
import Strata

/// The parameter encodings: URL query, JSON body from a model's DTO, multipart.
enum EncodingSteps {
    /// The user the JSON step registers.
    static let newUser = User(
        name: "Zoe", age: 27, type: .member,
        photos: [
            Photo(id: "zoe-1", image: "https://img.example/zoe/1.jpg")
        ])

    /// The avatar the multipart step uploads: 2 KiB of bytes.
    static let avatarBytes = Data((0..<2048).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    static let all: [TourStep] = [
        TourStep(id: .queryEncoding, section: .encodings, feature: ".urlQuery") { session in
            let page = try await session.networker.send(session.api.searchUsers(UserSearch(search: "an", page: 1)))
            try check(page.page == 1, "asked for page 1, got \(page.page)")
            try check(
                page.users.allSatisfy { $0.name.localizedCaseInsensitiveContains("an") },
                "a user does not match the search: \(page.users.map(\.name))")
            return StepOutcome(summary: page.summary, value: page)
        },
        TourStep(id: .jsonEncoding, section: .encodings, feature: ".json, the model's toDTO()") { session in
            let response = try await session.networker.response(for: session.api.register(newUser))
            try check(response.head.status == .created, "expected 201 Created, got \(response.head.status.code)")
            try check(response.value == newUser, "the server returned \(response.value.summary)")
            return StepOutcome(summary: response.value.summary, value: response.value)
        },
        TourStep(id: .multipartUpload, section: .encodings, feature: ".multipart") { session in
            var form = MultipartFormData()
            form.append("A new avatar", name: "caption")
            form.append(avatarBytes, name: "avatar", fileName: "zoe.png")
            let upload = try await session.networker.send(session.api.uploadAvatar(userID: 1, form: form))
            try check(
                upload.field == "avatar" && upload.filename == "zoe.png",
                "the server saw field \(upload.field), file \(upload.filename ?? "none")")
            try check(
                upload.bytes == avatarBytes.count, "sent \(avatarBytes.count) bytes, the server saw \(upload.bytes)")
            return StepOutcome(summary: upload.summary, value: upload)
        },
    ]
}

/// The two model layers: the same resource read as a DTO, then as an app model.
enum ModelSteps {
    static let all: [TourStep] = [
        TourStep(id: .rawLayer, section: .models, feature: "raw layer: Endpoint(_:raw:)") { session in
            let entry = try await session.networker.send(session.api.userEntry(id: 1))
            try check(!entry.name.isEmpty, "the user has no name")
            return StepOutcome(summary: entry.summary, value: entry)
        },
        TourStep(id: .appLayer, section: .models, feature: "app layer: .from(dto: dto.photos)") { session in
            let response = try await session.networker.response(for: session.api.user(id: 1))
            let user = response.value
            try check(response.head.status == .ok, "expected 200, got \(response.head.status.code)")
            try check(user.photos.allSatisfy { !$0.image.isEmpty }, "a photo has no image")
            return StepOutcome(summary: user.summary, value: user)
        },
    ]
}

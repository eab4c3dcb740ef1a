import Strata

/// The Endpoint + Networker + Result pattern: an endpoint that parses JSON by hand, loaded with a `Result` callback.
enum CallbackSteps {
    static let all: [TourStep] = [
        TourStep(id: .photoCallback, section: .callbacks, feature: "load(endpoint) { result in … }") { session in
            let endpoint = session.api.photo(id: 5)
            let result: Result<AlbumPhoto, StrataError> = await withCheckedContinuation { continuation in
                session.networker.load(endpoint) { result in
                    continuation.resume(returning: result)
                }
            }
            let photo = try result.get()
            try check(photo.id == 5, "asked for photo 5, got \(photo.id)")
            return StepOutcome(summary: photo.summary, value: photo)
        }
    ]
}

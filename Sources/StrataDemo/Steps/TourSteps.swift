/// The tour's steps, in order.
enum TourSteps {
    static let all: [TourStep] =
        ModelSteps.all + CallbackSteps.all + EncodingSteps.all + AuthSteps.all + ErrorSteps.all
        + ResilienceSteps.all + CachingSteps.all + OfflineWriteSteps.all + StreamSteps.all + TransferSteps.all
        + OpenAPISteps.all
}

import Hummingbird

/// `GET /headers`, `GET /flaky`, `PUT` and `GET /flaky/:name` and `GET /broken`.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
enum DiagnosticRoutes {
    /// How many calls to `/flaky` fail before it recovers.
    static let flakyFailures = 2

    static func register(on router: Router<BasicRequestContext>, store: DemoStore) {
        router.get("headers") { request, _ in
            var headers: [String: String] = [:]
            for field in request.headers {
                let name = field.name.canonicalName
                headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
            }
            return Responses.json(HeadersPayload(headers: headers))
        }
        router.get("flaky") { _, _ in
            let call = await store.nextFlakyCall()
            guard call > flakyFailures else {
                return Responses.error(
                    "temporarily unavailable (call \(call) of \(flakyFailures) that fail)",
                    status: .serviceUnavailable, headers: [.retryAfter: "0"])
            }
            return Responses.json(FlakyPayload(attempt: call, status: "ok"))
        }
        router.put("flaky/:name") { request, context in
            var request = request
            let name = context.parameters.get("name") ?? ""
            let bytes = try await request.bodyBytes().count
            let call = await store.nextFlakyUpload(name)
            guard call > flakyFailures else {
                return Responses.error(
                    "temporarily unavailable (call \(call) of \(flakyFailures) that fail)",
                    status: .serviceUnavailable, headers: [.retryAfter: "0"])
            }
            return Responses.json(FlakyUploadPayload(attempt: call, bytes: bytes))
        }
        router.get("flaky/:name") { _, context in
            Responses.json(FlakyCallsPayload(calls: await store.flakyUploads(context.parameters.get("name") ?? "")))
        }
        router.get("broken") { _, _ in
            Responses.raw(#"{"name": "Ann", "age": 30, "photos": [{"id": "1-1", "#)
        }
    }
}

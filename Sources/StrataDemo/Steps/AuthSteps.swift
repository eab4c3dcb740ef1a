import HTTPTypes
import Strata

/// Request metadata and authentication: client-wide and per-request header fields,
/// a form-encoded login, and the token sent back by `HeadersMiddleware.bearerToken`.
enum AuthSteps {
    static let all: [TourStep] = [
        TourStep(id: .headers, section: .headersAndAuth, feature: "HeadersMiddleware + request headers") { session in
            let echoed = try await session.networker.send(session.api.echoHeaders([.acceptLanguage: "en"]))
            for field in DemoTour.clientHeaders {
                let seen = echoed.headers[field.name.canonicalName]
                try check(seen == field.value, "\(field.name) arrived as \(seen ?? "nothing"), not \(field.value)")
            }
            try check(echoed.headers["accept-language"] == "en", "the request's own Accept-Language did not arrive")
            try check(echoed.headers["authorization"] == nil, "a token was sent before signing in")
            return StepOutcome(summary: echoed.summary, value: echoed)
        },
        TourStep(id: .formLogin, section: .headersAndAuth, feature: ".formURL") { session in
            let token = try await session.networker.send(session.api.login(.demo))
            try check(!token.token.isEmpty, "the token is empty")
            await session.tokens.store(token.token)
            return StepOutcome(summary: token.summary, value: token)
        },
        TourStep(id: .bearerAuth, section: .headersAndAuth, feature: ".bearerToken { token }") { session in
            let token = await session.tokens.token
            try check(token != nil, "no token: the login step failed")
            let user = try await session.networker.send(session.api.me())
            return StepOutcome(summary: user.summary, value: user)
        },
        TourStep(id: .wrongPassword, section: .headersAndAuth, feature: "wrong password") { session in
            let wrong = Credentials(login: Credentials.demo.login, password: "not the password")
            let error = try await session.expectFailure(session.api.login(wrong), "a 401") {
                $0.unacceptableStatusCode == 401
            }
            return StepOutcome(summary: "expected failure: \(error.kindSummary)", value: error)
        },
    ]
}

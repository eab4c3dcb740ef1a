import Foundation
import Strata

/// The streaming steps: a chat completion printed token by token, and a notification
/// feed that survives dropped connections.
enum StreamSteps {
    /// What `/chat` streams.
    static let chatReply = "Strata streams every token the moment it arrives."

    static let all: [TourStep] = [
        TourStep(id: .chatStream, section: .streams, feature: "Networker.events + decoding(_:until:)") { session in
            var text = ""
            var tokens = 0
            session.progress("    ")
            for try await chunk in session.networker.events(session.api.chat()).decoding(
                ChatChunk.self, until: "[DONE]")
            {
                session.progress(chunk.text)
                text += chunk.text
                tokens += 1
            }
            session.progress("\n")
            try check(text == chatReply, "the tokens made \"\(text)\"")
            return StepOutcome(summary: "\(tokens) tokens as they arrived, up to [DONE]: \"\(text)\"", value: text)
        },
        TourStep(id: .notificationsResume, section: .streams, feature: "reconnection with Last-Event-ID") { session in
            var notices: [Notice] = []
            do {
                for try await notice in session.networker.events(session.api.notifications()).decoding(Notice.self) {
                    notices.append(notice)
                }
            } catch let error as StrataError where error.kind == .eventStream {
                // The server's 204 once every notification was sent: the end of the stream.
            }
            let ids = notices.map(\.id)
            try check(ids == Array(1...12), "received ids \(ids)")
            let connections = Set(notices.map(\.connection)).count
            try check(connections == 3, "\(connections) connections, not 3")
            return StepOutcome(
                summary:
                    "\(notices.count) notifications, ids 1…12 without a gap, over \(connections) dropped connections (resumed with Last-Event-ID), then 204",
                value: notices)
        },
    ]
}

import Strata

extension DemoAPI {
    /// `GET /chat`, read with ``Networker/events(_:maximumEventSize:idleTimeout:reconnection:)``
    /// and decoded into ``ChatChunk``s until `[DONE]`.
    public func chat() -> RequestDescription<DemoRoute<StreamsRoute>> {
        RequestDescription(route: route(StreamsRoute.chat))
    }

    /// `GET /notifications`, read with
    /// ``Networker/events(_:maximumEventSize:idleTimeout:reconnection:)``, which resumes
    /// after each dropped connection.
    public func notifications() -> RequestDescription<DemoRoute<StreamsRoute>> {
        RequestDescription(route: route(StreamsRoute.notifications))
    }
}

import Foundation
import GRPCCore
import GRPCNIOTransportHTTP2
import Strata
import StrataGRPC
import StrataTestSupport
import Testing

/// Server streams at loopback speed (125 MiB and more): they run apart from the suites
/// that time things.
@Suite("A server stream is read at its reader's pace", .runsAlone)
struct GRPCStreamFlowTests {
    /// 200 messages of 64 KiB (12.5 MiB) through a reader that stops after the first:
    /// Strata parses nothing ahead of it, however much the transport has read ahead (with
    /// grpc-swift-nio-transport's default 8 MiB HTTP/2 window that can be the whole stream;
    /// when Strata buffered what the reader had not read, it parsed all 200 here; when it
    /// handed messages over between tasks, one waited parsed). Once the reader goes on,
    /// every message arrives, in order.
    @Test("A server stream is read at the reader's pace: no message is parsed ahead of it")
    func serverStreamingBackPressure() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        try await withDemo { networker, faults in
            let count = 200
            let size = 64 * 1024
            let parsed = CallCounter()
            let stream = networker.stream(
                GRPCEndpoint(try fault("firehose:\(count):\(size)")) { bytes in
                    parsed.increment()
                    return bytes
                })
            var iterator = stream.makeAsyncIterator()
            #expect(try await iterator.next() == Data(repeating: 0, count: size))
            // Give the call time to run ahead: until nothing changes for 0.5 s (at most 10 s).
            var seen = (parsed.value, faults.calls.value(for: "firehose"))
            var unchanged = 0
            for _ in 0..<100 where unchanged < 5 {
                try await Deadline.sleep(for: .milliseconds(100))
                let now = (parsed.value, faults.calls.value(for: "firehose"))
                unchanged = now == seen ? unchanged + 1 : 0
                seen = now
            }
            #expect(parsed.value == 1, "the server had sent \(seen.1) of \(count)")
            var index = 1
            while let message = try await iterator.next() {
                #expect(message == Data(repeating: UInt8(index % 256), count: size))
                index += 1
            }
            #expect(index == count)
            #expect(parsed.value == count)
            #expect(faults.calls.value(for: "firehose") == count)
        }
    }

    /// Over a transport with a 64 KiB HTTP/2 window, so that the server is held back by the
    /// call and not by how far the transport reads ahead (with its default 8 MiB window it
    /// can take in the whole 100 MiB stream before the reader has its third message).
    @Test("Leaving a server stream unfinished cancels the call: the server stops sending")
    func serverStreamingAbandoned() async throws {
        guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else { return }
        var transportConfig = HTTP2ClientTransport.Posix.Config.defaults
        transportConfig.http2.targetWindowSize = 65_535
        try await withDemo(transportConfig: transportConfig) { networker, faults in
            var read = 0
            for try await _ in networker.stream(GRPCEndpoint(try fault("firehose:100000:1024"), parse: { $0 })) {
                read += 1
                if read == 3 { break }
            }
            #expect(read == 3)
            // The call is cancelled: its stream is reset, and the server's next write fails
            // (a call left open would keep it waiting for the window instead).
            try await waitUntil { faults.calls.value(for: "firehose-stopped") > 0 }
            #expect(faults.calls.value(for: "firehose-stopped") == 1)
            #expect(faults.calls.value(for: "firehose") < 100_000)
        }
    }
}

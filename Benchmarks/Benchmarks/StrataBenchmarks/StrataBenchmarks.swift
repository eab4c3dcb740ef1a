import Benchmark
import Foundation
import Strata
import StrataTesting

// Each benchmark measures one operation per iteration, with the package's default
// metrics (wall clock, CPU, throughput, allocations through the malloc interposer...).

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration.maxDuration = .seconds(2)

    // Encoding: the whole request encoding step (URL, parameters, headers) of a 20-key
    // nested object in each form.
    for (name, method, encoding) in [
        ("form body", HTTPRequest.Method.post, ParametersEncoding.formURL),
        ("URL query", .get, .urlQuery),
        ("JSON body", .post, .json),
    ] {
        let endpoint = Endpoint(
            RequestDescription(
                route: Fixtures.url, method: method,
                parameters: SignUpForm(), encoding: encoding))
        Benchmark("Encode 20-key object: \(name)") { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(try endpoint.encoded())
            }
        }
    }
    Benchmark("Encode 20-key object: URLEncodedFormEncoder alone") { benchmark in
        let encoder = URLEncodedFormEncoder()
        let form = SignUpForm()
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(form))
        }
    }

    // Decoding the 1 MB photo list: plain JSONDecoder into the DTO against Strata's
    // parse (bytes → [PhotoEntry] → [Photo]) of the same bytes.
    let photos = Fixtures.photosJSON
    Benchmark("Decode 1 MB photos: plain JSONDecoder") { benchmark in
        let decoder = JSONDecoder()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try decoder.decode([PhotoEntry].self, from: photos))
        }
    }
    Benchmark("Decode 1 MB photos: Strata two-layer parse") { benchmark in
        let endpoint = Endpoint(RequestDescription(route: Fixtures.url), model: [Photo].self)
        let response = RawResponse(head: HTTPResponse(status: .ok), body: photos)
        let decoder = JSONDecoder.strataDefault()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try endpoint.parse(response, decoder))
        }
    }

    // One request through 5 pass-through middleware to the mock transport, the 193-byte
    // user decoded into the model, with the default configuration (60 s deadline).
    Benchmark("Request: 5 middleware, mock transport, decode user") { benchmark in
        let mock = MockTransport()
        mock.stub(.get, "/v1/users/1", with: .data(Fixtures.userJSON, contentType: "application/json"))
        let networker = Networker(
            transport: mock,
            middleware: Array(repeating: PassThroughMiddleware(), count: 5))
        let endpoint = Endpoint(RequestDescription(route: Fixtures.url), model: User.self)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try await networker.send(endpoint))
        }
    }
}

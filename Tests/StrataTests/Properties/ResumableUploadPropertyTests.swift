import Foundation
import HTTPTypes
import PropertyBased
import StrataTestSupport
import Testing

@testable import Strata
@testable import StrataCore

/// The resumable upload protocol's fields are server data: any `Location`, `Upload-Offset`
/// or `Upload-Limit` gives a usable value or none, never a crash.
@Suite(.runsAlone) struct ResumableUploadPropertyTests {
    static let base = URL(string: "https://api.example.com/uploads/clip.bin")!

    static func response(_ name: HTTPField.Name, _ value: String) -> HTTPResponse {
        var fields = HTTPFields()
        fields[name] = value
        return HTTPResponse(status: .created, headerFields: fields)
    }

    @Test func anyLocationIsAnHTTPResourceOrNone() async {
        await propertyCheck(count: 2000, input: PropertyGen.unicodeString(length: 0...60)) { location in
            let response = Self.response(.location, location)
            guard let resource = ResumableUploadFields.resource(in: response, relativeTo: Self.base) else { return }
            let request = ResumableUploadFields.request(.patch, resource)
            #expect(["http", "https"].contains(request.scheme?.lowercased()), "\(location.debugDescription)")
            #expect(request.authority?.isEmpty == false, "\(location.debugDescription)")
            #expect(request.headerFields[ResumableUploadFields.interopVersion] == "6")
        }
    }

    @Test func anyOffsetOrLimitIsANonNegativeNumberOrNone() async {
        await propertyCheck(count: 2000, input: PropertyGen.unicodeString(length: 0...30)) { text in
            let offset = ResumableUploadFields.offset(in: Self.response(ResumableUploadFields.offset, text))
            #expect(offset.map { $0 >= 0 } ?? true, "\(text.debugDescription)")
            let limit = ResumableUploadFields.maxSize(in: Self.response(ResumableUploadFields.limit, text))
            #expect(limit.map { $0 >= 0 } ?? true, "\(text.debugDescription)")
        }
    }

    @Test func exactValues() {
        #expect(ResumableUploadFields.offset(in: Self.response(ResumableUploadFields.offset, " 42 ")) == 42)
        #expect(ResumableUploadFields.offset(in: Self.response(ResumableUploadFields.offset, "-1")) == nil)
        #expect(
            ResumableUploadFields.maxSize(in: Self.response(ResumableUploadFields.limit, "min-size=0, max-size=65536"))
                == 65536)
        #expect(ResumableUploadFields.maxSize(in: Self.response(ResumableUploadFields.limit, "max-age=3600")) == nil)
        #expect(
            ResumableUploadFields.resource(in: Self.response(.location, "/resumable_upload/7"), relativeTo: Self.base)
                == URL(string: "https://api.example.com/resumable_upload/7"))
        #expect(
            ResumableUploadFields.resource(in: Self.response(.location, "ftp://example.com/x"), relativeTo: Self.base)
                == nil)
    }
}

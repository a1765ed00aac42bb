import PSCore
import Testing
@testable import PSNet

/// libcurl is opened by the first request (dlopen), not linked: what a missing one says.
@Suite struct CurlLibraryTests {
    @Test func theSystemsLibcurlHasEveryFunctionUsed() {
        #expect(CurlLibrary.probe(CurlLibrary.soname) == nil)
    }

    @Test func aMissingLibcurlIsOneClearErrorWithExitStatusOne() throws {
        let error = try #require(CurlLibrary.probe("libcurl-ps-tools-missing.so.4"))
        #expect(error.status == .failure)
        #expect(error.message.hasPrefix("libcurl-ps-tools-missing.so.4 is needed to reach a server and could not be loaded ("))
        #expect(error.message.contains("cannot open shared object file"))
        #expect(!error.message.contains("\n"))
    }

    @Test func aLibraryThatIsNotLibcurlNamesTheFunctionItLacks() throws {
        let error = try #require(CurlLibrary.probe("libjansson.so.4"))
        #expect(error.message.contains("libjansson.so.4: no curl_global_init"))
    }
}

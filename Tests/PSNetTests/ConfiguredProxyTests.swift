@testable import PSNet
import Testing

/// The environment's proxy for a URL, looked up as libcurl looks it up (lib/url.c detect_proxy).
@Suite struct ConfiguredProxyTests {
    func proxy(_ url: String, _ environment: [String: String]) -> ConfiguredProxy? {
        ConfiguredProxy.forURL(url) { environment[$0] }
    }

    @Test func theSchemesVariableInLowerCaseFirst() {
        let env = ["http_proxy": "http://u:p@proxy:3128", "https_proxy": "secure:8443", "HTTPS_PROXY": "upper:1"]
        #expect(proxy("http://server/x", env) == ConfiguredProxy(variable: "http_proxy", host: "proxy", port: 3128, hasCredentials: true))
        #expect(proxy("https://server/x", env)?.address == "secure:8443")
        #expect(proxy("https://server/x", ["HTTPS_PROXY": "upper:1"])?.variable == "HTTPS_PROXY")
        // HTTP_PROXY in upper case is not read (a CGI request header could set it).
        #expect(proxy("http://server/x", ["HTTP_PROXY": "evil:1"]) == nil)
        #expect(proxy("http://server/x", ["ALL_PROXY": "all:2"])?.variable == "ALL_PROXY")
    }

    @Test func theAddressNeverHoldsThePassword() {
        #expect(ConfiguredProxy.parse("http://user:pa@ss@host:81/path", variable: "v")?.address == "host:81")
        #expect(ConfiguredProxy.parse("host", variable: "v")?.port == 1080)
        #expect(ConfiguredProxy.parse("https://host", variable: "v")?.port == 443)
        #expect(ConfiguredProxy.parse("http://[::1]:8080", variable: "v")?.address == "[::1]:8080")
        #expect(ConfiguredProxy.parse("http://user@host:8", variable: "v")?.hasCredentials == true)
    }
}

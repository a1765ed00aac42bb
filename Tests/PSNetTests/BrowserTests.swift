import Testing
@testable import PSNet

/// Where the device login may open a browser: a graphical session, xdg-open on PATH, not SSH.
@Suite struct BrowserTests {
    static let found: (String) -> Bool = { $0 == "/usr/local/bin/xdg-open" }
    static let desktop = ["PATH": "/nowhere:/usr/local/bin:/usr/bin", "DISPLAY": ":0"]

    @Test func aDesktopWithXdgOpenOpensIt() {
        #expect(Browser.opener(environment: Self.desktop, isExecutable: Self.found) == "/usr/local/bin/xdg-open")
        var wayland = Self.desktop
        wayland["DISPLAY"] = nil
        wayland["WAYLAND_DISPLAY"] = "wayland-0"
        #expect(Browser.opener(environment: wayland, isExecutable: Self.found) != nil)
    }

    @Test func noDisplayOrSSHOrNoXdgOpenOpensNothing() {
        var headless = Self.desktop
        headless["DISPLAY"] = ""
        #expect(Browser.opener(environment: headless, isExecutable: Self.found) == nil)
        for key in ["SSH_CONNECTION", "SSH_TTY"] {
            var ssh = Self.desktop
            ssh[key] = key == "SSH_TTY" ? "/dev/pts/1" : "10.0.0.1 50000 10.0.0.2 22"
            #expect(Browser.opener(environment: ssh, isExecutable: Self.found) == nil, "\(key)")
        }
        #expect(Browser.opener(environment: Self.desktop, isExecutable: { _ in false }) == nil)
        // A relative PATH entry is never searched.
        #expect(Browser.opener(environment: ["PATH": "bin", "DISPLAY": ":0"], isExecutable: { _ in true }) == nil)
    }

    @Test func onlyPlainWebAddressesAreOpened() {
        #expect(Browser.isOpenable("https://pagespace.ai/activate?user_code=ABCD-1234"))
        #expect(!Browser.isOpenable("file:///etc/passwd"))
        #expect(!Browser.isOpenable("-https://x"))
        #expect(!Browser.isOpenable("https://x/a b"))
        #expect(!Browser.isOpenable("https://x/\u{1B}]8;;"))
    }
}

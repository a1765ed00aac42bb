import Testing
@testable import PSRender

@Suite struct LinkStyleTests {
    @Test(arguments: [
        ["TERM_PROGRAM": "iTerm.app"], ["TERM_PROGRAM": "WezTerm"], ["TERM_PROGRAM": "vscode"], ["TERM_PROGRAM": "ghostty"],
        ["TERM_PROGRAM": "Hyper"], ["VTE_VERSION": "5000"], ["VTE_VERSION": "7600"], ["KITTY_WINDOW_ID": "1"],
        ["WT_SESSION": "0d5c"], ["TERM": "xterm-kitty"], ["TERM": "foot-extra"], ["TERM": "alacritty"],
    ])
    func knownTerminalsGetHyperlinks(_ environment: [String: String]) {
        #expect(LinkStyle.forTerminal(environment: environment) == .osc8)
    }

    @Test(arguments: [
        [:], ["TERM": "xterm-256color"], ["TERM": "linux"], ["TERM": "dumb"], ["VTE_VERSION": "4600"],
        ["VTE_VERSION": "new"], ["TERM_PROGRAM": "Apple_Terminal"], ["KITTY_WINDOW_ID": ""],
    ])
    func unknownTerminalsGetInlineURLs(_ environment: [String: String]) {
        #expect(LinkStyle.forTerminal(environment: environment) == .inline)
    }

    /// tmux and screen drop OSC 8, whatever the terminal around them shows.
    @Test(arguments: [
        ["TMUX": "/tmp/tmux-0/default,1,0", "TERM_PROGRAM": "iTerm.app"], ["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"],
        ["TERM": "screen.xterm-256color", "VTE_VERSION": "7600"], ["TERM": "screen", "WT_SESSION": "x"],
    ])
    func multiplexersGetInlineURLs(_ environment: [String: String]) {
        #expect(LinkStyle.forTerminal(environment: environment) == .inline)
    }
}

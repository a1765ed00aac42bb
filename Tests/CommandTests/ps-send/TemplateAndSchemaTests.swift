import Foundation
import Testing
import TestSupport

/// ps-send --template/--var/--print and --schema/--repair against the local server: a message
/// made from a template and piped text, its placeholder errors before anything is sent, and an
/// answer checked against a JSON Schema (natively on the OpenAI dialect, in words elsewhere),
/// repaired once, or still wrong (exit 3), then read by `ps-render --format text | jq`.
@Suite struct TemplateAndSchemaTests {
    static let schema = #"{"type":"object","required":["city","days"],"properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":2}}}"#

    static func openAISandbox(_ server: LocalServer) throws -> NetworkSandbox {
        try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
    }

    /// A template saved by name in the sandbox's $XDG_CONFIG_HOME/ps-tools/templates.
    static func saveTemplate(_ sandbox: NetworkSandbox, _ name: String, _ text: String) throws {
        let folder = sandbox.directory + "/config/ps-tools/templates"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/" + name + ".md", atomically: true, encoding: .utf8)
    }

    static func chatSends(_ server: LocalServer) throws -> [[String: Any]] {
        try server.requestLog().filter { $0["path"] as? String == "/v1/chat/completions" }.compactMap { $0["body"] as? [String: Any] }
    }

    static func lastUserContent(_ body: [String: Any]) -> String? {
        (body["messages"] as? [[String: Any]])?.last { $0["role"] as? String == "user" }?["content"] as? String
    }

    @Test func aTemplateIsFilledFromVarsAndStdinPrintedAndSent() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.openAISandbox(server)
        try Self.saveTemplate(sandbox, "review", """
            ---
            system: You review changes briefly.
            model: ps-demo
            ---
            Review this change to {{project}} for {{ who }}, and keep \\{{braces}} as they are:
            {{stdin}}
            Thanks, {{who}}.

            """)
        let filled = "Review this change to ps-archive for Ann, and keep {{braces}} as they are:\n+ one line\nThanks, Ann."
        let printed = try sandbox.run("ps-send", ["--template", "review", "--var", "project=ps-archive", "--var", "who=Ann", "--print"],
                                      stdin: "+ one line\n")
        #expect(printed.status == 0, "\(printed.stderrText)")
        #expect(printed.stdoutText == filled + "\n")
        #expect(try Self.chatSends(server).isEmpty, "--print sent something")

        let sent = try sandbox.run("ps-send", ["--template", "review", "--var", "project=ps-archive", "--var", "who=Ann"],
                                   stdin: "+ one line\n")
        #expect(sent.status == 0, "\(sent.stderrText)")
        let body = try #require(try Self.chatSends(server).last)
        #expect(Self.lastUserContent(body) == filled)
        #expect(body["model"] as? String == "ps-demo")  // the front matter's model
        let system = (body["messages"] as? [[String: Any]])?.first
        #expect(system?["role"] as? String == "system" && system?["content"] as? String == "You review changes briefly.")

        // Without {{stdin}}, piped text follows the message after a blank line, as without a template.
        let file = sandbox.directory + "/plain.md"
        try "Summarise for {{who}}\n".write(toFile: file, atomically: true, encoding: .utf8)
        let appended = try sandbox.run("ps-send", ["--template", file, "--var", "who=Bo", "--print"], stdin: "the text\n")
        #expect(appended.stdoutText == "Summarise for Bo\n\nthe text\n", "\(appended.stderrText)")
    }

    @Test func placeholderErrorsAreExit2NamingThemBeforeAnythingIsSent() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.openAISandbox(server)
        try Self.saveTemplate(sandbox, "greet", "Hello {{name}}, about {{topic}}\n")
        let cases: [([String], String)] = [
            (["--var", "name=Ann"], "ps-send: --template greet: {{topic}} has no value (give --var topic=VALUE)\n"),
            (["--var", "name=Ann", "--var", "topic=x", "--var", "extra=1"], "ps-send: --var extra: --template greet has no {{extra}}\n"),
            (["--var", "name=Ann", "--var", "name=Bo", "--var", "topic=x"], "ps-send: --var name is given twice\n"),
        ]
        for (vars, stderr) in cases {
            let run = try sandbox.run("ps-send", ["--model", "ps-demo", "--template", "greet"] + vars)
            #expect(run.status == 2 && run.stderrText == stderr, "\(vars): \(run.status) \(run.stderrText)")
        }
        try Self.saveTemplate(sandbox, "piped", "Review:\n{{stdin}}\n")
        let nothingPiped = try sandbox.run("ps-send", ["--model", "ps-demo", "--template", "piped"])
        #expect(nothingPiped.status == 2 && nothingPiped.stderrText == "ps-send: --template piped: {{stdin}} has no value (pipe the text in)\n")
        try Self.saveTemplate(sandbox, "stray", "one\nGo's {{.Name}} here\n")
        let stray = try sandbox.run("ps-send", ["--model", "ps-demo", "--template", "stray"])
        #expect(stray.status == 2 && stray.stderrText.hasPrefix("ps-send: --template stray, line 2: {{ starts no placeholder"), "\(stray.stderrText)")
        let missing = try sandbox.run("ps-send", ["--model", "ps-demo", "--template", "nosuch"])
        #expect(missing.status == 2 && missing.stderrText.hasPrefix("ps-send: --template nosuch: no template "), "\(missing.stderrText)")
        // The secret check applies to the filled text.
        let secret = "ghp" + "_" + String(repeating: "aB3dE", count: 7) + "x"
        let leaked = try sandbox.run("ps-send", ["--model", "ps-demo", "--template", "greet", "--var", "name=Ann", "--var", "topic=\(secret)"])
        #expect(leaked.status == 2 && leaked.stderrText.hasPrefix("ps-send: the filled template line 1 holds what looks like a secret"))
        #expect(!leaked.stderrText.contains(secret))
        #expect(try Self.chatSends(server).isEmpty, "something was sent")
    }

    @Test func aSchemaGoesNativelyToAnOpenAIServerAndItsValueReachesJq() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.openAISandbox(server)
        try Self.schema.write(toFile: sandbox.directory + "/trip.json", atomically: true, encoding: .utf8)
        let run = try sandbox.shell("cd '\(sandbox.directory)'\n"
            + "ps-send --model ps-demo --schema trip.json 'Plan a trip, fenced json' | ps-sse | ps-parts | ps-render --format text | jq -r .city")
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stdoutText == "example\n")
        let body = try #require(try Self.chatSends(server).last)
        let format = try #require(body["response_format"] as? [String: Any])
        #expect(format["type"] as? String == "json_schema")
        #expect((format["json_schema"] as? [String: Any])?["name"] as? String == "answer")
        #expect(((format["json_schema"] as? [String: Any])?["schema"] as? [String: Any])?["required"] as? [String] == ["city", "days"])
        #expect(Self.lastUserContent(body) == "Plan a trip, fenced json")  // no instruction in words: the server has the schema
    }

    @Test func aWrongAnswerIsRepairedInTheSameConversation() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        #expect(try sandbox.login(server).status == 0)
        let run = try sandbox.shell("ps-send --new-conversation --schema '\(Self.schema)' 'Plan a trip, wrong json' | ps-sse | ps-parts --final")
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stderrText.hasPrefix("ps-send: the answer does not match the schema (at .: is not JSON"), "\(run.stderrText)")
        let reply = try #require(try Records.parse(run.stdoutText).last)
        #expect(Records.text(of: reply) == #"{"city":"example","days":2}"#)
        let check = (reply["metadata"] as? [String: Any])?["schema"] as? [String: Any]
        #expect(check?["valid"] as? Bool == true && check?["repairs"] as? Int == 1)
        // PageSpace takes no schema natively: it went in words, and the repair in the same conversation.
        let history = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        #expect(history.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
        #expect(Records.text(of: history[0]).contains("matches this JSON Schema:\n" + Self.schema))
        #expect(Records.text(of: history[2]).hasPrefix("Your answer does not match the JSON Schema:\n- at .: is not JSON"))
    }

    @Test func anAnswerStillWrongAfterItsRepairsIsExit3WithItsTextKept() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.openAISandbox(server)
        let schema = #"{"description":"always wrong","type":"object"}"#
        let run = try sandbox.shell("ps-send --model ps-demo --repair 2 --schema '\(schema)' 'Plan a trip' | ps-sse | ps-parts --final")
        #expect(run.status == 3, "\(run.stderrText)")
        #expect(run.stderrText.hasSuffix("ps-send: the answer does not match the schema after 2 repairs: at .: is not JSON (invalid token near 'Sure' at line 1, column 4)\n"),
                "\(run.stderrText)")
        let reply = try #require(try Records.parse(run.stdoutText).last)
        #expect(Records.text(of: reply) == "Sure! The answer is forty-two, give or take.")
        let check = (reply["metadata"] as? [String: Any])?["schema"] as? [String: Any]
        #expect(check?["valid"] as? Bool == false && check?["repairs"] as? Int == 2)
        #expect(try Self.chatSends(server).count == 3)

        // --repair 0: no second send.
        let once = try sandbox.run("ps-send", ["--model", "ps-demo", "--repair", "0", "--schema", Self.schema, "wrong json please"])
        #expect(once.status == 3 && once.stderrText.hasPrefix("ps-send: the answer does not match the schema: at ."), "\(once.stderrText)")
        #expect(try Self.chatSends(server).count == 4)
    }

    @Test func aSchemaWithAKeywordTheValidatorDoesNotKnowIsRefusedBeforeSending() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try Self.openAISandbox(server)
        let run = try sandbox.run("ps-send", ["--model", "ps-demo", "--schema", #"{"type":"string","format":"date"}"#, "When?"])
        #expect(run.status == 2)
        #expect(run.stderrText.hasPrefix(#"ps-send: --schema: unsupported keyword "format" (this validator knows type, "#), "\(run.stderrText)")
        #expect(run.stderrText.hasSuffix(" at #/format\n"))
        let notJSON = try sandbox.run("ps-send", ["--model", "ps-demo", "--schema", "{nope", "When?"])
        #expect(notJSON.status == 2 && notJSON.stderrText.hasPrefix("ps-send: --schema: the schema is not JSON: "))
        #expect(try Self.chatSends(server).isEmpty)
    }

    /// The same schema pipeline on every backend (EveryBackendTests' profiles): natively on the
    /// OpenAI dialect, in words on the others, the reply rebuilt from each one's stream format.
    @Test(arguments: EveryBackendTests.backends)
    func theSchemaPipelineRunsOnEveryBackend(_ backend: EveryBackendTests.Backend) throws {
        let (server, sandbox) = try backend.startLoggedIn()
        defer { server.stop() }
        let run = try sandbox.shell("ps-send --new-conversation --schema '\(Self.schema)' 'Plan a trip, wrong json' "
            + "| ps-sse | ps-parts | ps-render --format text | jq -c .", env: ["PS_PROFILE": backend.kind])
        #expect(run.status == 0, "\(backend): \(run.stderrText)")
        #expect(run.stdoutText == #"{"city":"example","days":2}"# + "\n", "\(backend)")
    }

    /// PageSpace's OpenAI-compatible API reads no response_format: the schema goes in words
    /// there too, and the repair in the conversation the server keeps.
    @Test func pageSpacesOpenAIVariantGetsTheSchemaInWords() throws {
        let server = try LocalServer.start(dialect: "pagespace", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try PageSpaceOpenAIVariantTests.loggedIn(server, model: PageSpaceOpenAIVariantTests.agentModel)
        let run = try sandbox.shell("ps-send --new-conversation --schema '\(Self.schema)' 'Plan a trip, wrong json' "
            + "| ps-sse | ps-parts | ps-render --format text | jq -r .city")
        #expect(run.status == 0, "\(run.stderrText)")
        #expect(run.stdoutText == "example\n")
        let sends = try PageSpaceOpenAIVariantTests.sends(server, path: "/api/v1/chat/completions")
        #expect(sends.count == 2)
        #expect(sends.allSatisfy { $0["response_format"] == nil })
        let first = (sends.first?["messages"] as? [[String: Any]])?.last?["content"] as? String
        #expect(first?.hasSuffix("matches this JSON Schema:\n" + Self.schema) == true, "\(first ?? "")")
    }
}

import Foundation
import Testing
import TestSupport

/// ps-batch --template and --schema: each job's message made from the template and its vars,
/// each answer checked here, a wrong one sent back in its own conversation, one still wrong
/// after its repairs reported as invalid (exit 3) with its text kept.
@Suite struct BatchTemplateSchemaTests {
    static let schema = #"{"type":"object","required":["city","days"],"properties":{"city":{"type":"string"},"days":{"type":"integer","minimum":2}}}"#

    static func template(in sandbox: NetworkSandbox) throws -> String {
        let path = sandbox.directory + "/trip.md"
        try """
            ---
            schema: \(schema)
            ---
            Plan a trip to {{city}} for {{who}}.

            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func jobsFilledFromVarsAreCheckedAndRepairedInTheirConversation() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let template = try Self.template(in: sandbox)
        let jobs = """
            {"id":"lyon","vars":{"city":"Lyon","who":"Ann"}}
            {"id":"paris","vars":{"city":"Paris (wrong json first)","who":"Bo"}}

            """
        let result = try sandbox.run("ps-batch", ["--template", template], stdin: jobs)
        #expect(result.status == 0, "\(result.stderrText)")
        let records = try Records.parse(result.stdoutText)
        #expect(records.map { $0["status"] as? String } == ["ok", "ok"])
        for record in records {
            let json = try #require(record["json"] as? [String: Any], "\(record)")
            #expect(json["city"] as? String == "example" && json["days"] as? Int == 2)
        }
        #expect(records.map { $0["repairs"] as? Int } == [0, 1])
        #expect(records.map { $0["attempts"] as? Int } == [1, 2])
        // The repair went to the job's own conversation: its question, the prose, the repair, the JSON.
        let paris = try #require(records.last?["conversation"] as? String)
        let history = try Records.parse(try sandbox.run("ps-history", ["--conversation", paris]).stdoutText)
        #expect(history.map { $0["role"] as? String } == ["user", "assistant", "user", "assistant"])
        #expect(Records.text(of: history[0]).hasPrefix("Plan a trip to Paris (wrong json first) for Bo.\n\nAnswer with only a JSON value"))
        #expect(Records.text(of: history[2]).hasPrefix("Your answer does not match the JSON Schema:"))
    }

    @Test func anAnswerStillWrongIsInvalidWithItsTextKeptAndExit3() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
        let wrong = #"{"type":"object","description":"always wrong","required":["city"]}"#
        let result = try sandbox.run("ps-batch", ["--model", "ps-demo", "--schema", wrong, "--repair", "2"],
                                     stdin: "{\"id\":\"a\",\"message\":\"Where to?\"}\n")
        #expect(result.status == 3, "\(result.stderrText)")
        let record = try #require(try Records.parse(result.stdoutText).first)
        #expect(record["status"] as? String == "invalid")
        #expect(record["exit"] as? Int == 3 && record["repairs"] as? Int == 2)
        #expect((record["errors"] as? [String])?.first?.contains("is not JSON") == true, "\(record)")
        #expect((record["text"] as? String)?.contains("forty-two") == true)
        #expect(record["json"] == nil)
        #expect(result.stderrText.contains("0 ok, 0 failed, 1 invalid"), "\(result.stderrText)")
        // Natively, as response_format, every time; the repairs in the same (client-kept) conversation.
        let sends = try server.requestLog().filter { $0["path"] as? String == "/v1/chat/completions" }.compactMap { $0["body"] as? [String: Any] }
        #expect(sends.count == 3)
        #expect(sends.allSatisfy { ($0["response_format"] as? [String: Any])?["type"] as? String == "json_schema" })
        #expect((sends.last?["messages"] as? [[String: Any]])?.count == 5)
    }

    @Test func aJobWithoutAValueIsExit2NamingItBeforeAnythingIsSent() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let template = try Self.template(in: sandbox)
        let jobs = """
            {"id":"ok","vars":{"city":"Lyon","who":"Ann"}}
            {"id":"short","vars":{"city":"Rome"}}

            """
        let result = try sandbox.run("ps-batch", ["--template", template], stdin: jobs)
        #expect(result.status == 2)
        #expect(result.stderrText.contains("stdin line 2 (job \"short\")") && result.stderrText.contains("{{who}} has no value"),
                "\(result.stderrText)")
        let message = try sandbox.run("ps-batch", ["--template", template], stdin: "{\"id\":\"m\",\"message\":\"hi\"}\n")
        #expect(message.status == 3 && message.stderrText.contains("gives vars, not a message"), "\(message.stderrText)")
        #expect(try server.requestLog().filter { $0["method"] as? String == "POST" }.isEmpty)
    }
}

import Foundation
import Testing
import TestSupport

/// History kept on request: ps-send --archive, or "archive": true in config.json, stores each
/// finished exchange in the archive ps-archive keeps ($XDG_DATA_HOME/ps-tools/archive.sqlite, a
/// real SQLite file in the sandbox), where ps-search --archive finds it as if it had been piped
/// into ps-archive. Off by default; --no-archive wins over the config; a send that fails keeps
/// nothing; an archive that cannot take it loses no answer (exit 12, one line).
@Suite struct SendArchiveTests {
    static func archivePath(_ sandbox: NetworkSandbox) -> String {
        sandbox.directory + "/.local/share/ps-tools/archive.sqlite"
    }

    static func writeConfig(_ sandbox: NetworkSandbox, _ json: String) throws {
        try FileManager.default.createDirectory(atPath: sandbox.directory + "/config/ps-tools", withIntermediateDirectories: true)
        try json.write(toFile: sandbox.configPath, atomically: true, encoding: .utf8)
    }

    /// The records the archive holds, as ps-archive --export writes them back.
    static func archived(_ sandbox: NetworkSandbox, db: String? = nil) throws -> [[String: Any]] {
        let export = try sandbox.run("ps-archive", ["--export"] + (db.map { ["--db", $0] } ?? []))
        try #require(export.status == 0, "\(export.stderrText)")
        return try Records.parse(export.stdoutText)
    }

    static func searchIDs(_ sandbox: NetworkSandbox, _ query: String, db: String? = nil) throws -> [String] {
        let search = try sandbox.run("ps-search", (db.map { ["--db", $0] } ?? ["--archive"]) + [query])
        try #require(search.status == 0, "\(search.stderrText)")
        return Records.ids(try Records.parse(search.stdoutText))
    }

    @Test func configOnKeepsTheExchangeAsAPipeIntoPsArchiveWould() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try Self.writeConfig(sandbox, #"{"archive":true}"#)
        let send = try sandbox.run("ps-send", ["--print-ids", "--new-conversation", "Which ferry goes to Zanzibar?"])
        #expect(send.status == 0, "\(send.stderrText)")
        #expect(send.stdoutText.hasSuffix("data: [DONE]\n\n"), "the raw stream is written as ever")
        let conversation = try #require(Records.value("conversation", in: send.stderrText))
        let messageID = try #require(Records.value("message", in: send.stderrText))

        let records = try Self.archived(sandbox)
        #expect(records.map { $0["role"] as? String } == ["user", "assistant"], "\(records)")
        let origin = "http://default@" + server.baseURL.dropFirst("http://".count)
        #expect(records.allSatisfy { $0["origin"] as? String == origin && $0["conversationId"] as? String == conversation })
        #expect(records.allSatisfy { ($0["createdAt"] as? String)?.hasSuffix("Z") == true })
        #expect(records[0]["id"] as? String == messageID)
        #expect(Records.text(of: records[0]) == "Which ferry goes to Zanzibar?")
        #expect(Records.text(of: records[1]).contains("Zanzibar"))

        // The same conversation exported and piped into another archive: the same messages,
        // under the same keys, found by the same search.
        let piped = sandbox.directory + "/piped.sqlite"
        let pipe = try sandbox.shell("ps-history --conversation \(conversation) | ps-archive --db '\(piped)'")
        try #require(pipe.status == 0, "\(pipe.stderrText)")
        let found = try Self.searchIDs(sandbox, "zanzibar")
        #expect(found.count == 2)
        #expect(found.sorted() == (try Self.searchIDs(sandbox, "zanzibar", db: piped)).sorted())
        #expect(try Self.archived(sandbox, db: piped).map { $0["id"] as? String } == records.map { $0["id"] as? String })
        // Archiving that export into the same archive replaces the two messages, adds none.
        let again = try sandbox.shell("ps-history --conversation \(conversation) | ps-archive")
        try #require(again.status == 0, "\(again.stderrText)")
        #expect(try Self.archived(sandbox).count == 2)
    }

    @Test func theFlagKeepsAnOpenAICompatibleExchangeWithItsModel() throws {
        let server = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": server.baseURL, "PAGESPACE_API_KIND": "openai"])
        let send = try sandbox.run("ps-send", ["--archive", "--model", "ps-demo", "Tell me about quokkas"])
        #expect(send.status == 0, "\(send.stderrText)")
        #expect(send.stderrText.isEmpty, "\(send.stderrText)")
        let records = try Self.archived(sandbox)
        #expect(records.map { $0["role"] as? String } == ["user", "assistant"], "\(records)")
        #expect((records[1]["metadata"] as? [String: Any])?["model"] as? String == "ps-demo")
        let conversation = try #require(records[0]["conversationId"] as? String)
        #expect(records[1]["conversationId"] as? String == conversation)
        // The same ids as the conversation ps-send keeps for this server.
        let kept = try Records.parse(try sandbox.run("ps-history", ["--conversation", conversation]).stdoutText)
        #expect(Records.ids(kept) == Records.ids(records))
        #expect(try Self.searchIDs(sandbox, "quokkas").contains(try #require(records[0]["id"] as? String)))
    }

    @Test func lucidsWholeAnswersAndGeminisStreamsAreKeptWithTheirConversation() throws {
        let lucid = try LucidWorld.start()
        defer { lucid.server.stop() }
        let lucidConversation = try lucid.send("Remember the pelican", ["--archive", "--new-conversation"])
        let lucidRecords = try Self.archived(lucid.sandbox)
        #expect(lucidRecords.map { $0["role"] as? String } == ["user", "assistant"], "\(lucidRecords)")
        #expect(lucidRecords.allSatisfy { $0["conversationId"] as? String == lucidConversation }, "\(lucidRecords)")
        #expect(try Self.searchIDs(lucid.sandbox, "pelican").contains(try #require(lucidRecords[0]["id"] as? String)))

        let gemini = try GeminiBackendTests.start()
        defer { gemini.stop() }
        let sandbox = try GeminiBackendTests.sandbox(gemini)
        let send = try sandbox.run("ps-send", ["--archive", "--print-ids", "--new-conversation", "Remember the pelican"])
        #expect(send.status == 0, "\(send.stderrText)")
        let conversation = try #require(Records.value("conversation", in: send.stderrText))
        let records = try Self.archived(sandbox)
        #expect(records.map { $0["role"] as? String } == ["user", "assistant"], "\(records)")
        #expect(records.allSatisfy { $0["conversationId"] as? String == conversation }, "\(records)")
        #expect(try Self.searchIDs(sandbox, "pelican").contains(try #require(records[0]["id"] as? String)))
    }

    @Test func offByDefaultAndNoArchiveWinsOverTheConfig() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let plain = try sandbox.run("ps-send", ["nothing kept by default"])
        #expect(plain.status == 0, "\(plain.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: Self.archivePath(sandbox)))

        try Self.writeConfig(sandbox, #"{"archive":true}"#)
        let off = try sandbox.run("ps-send", ["--no-archive", "nothing kept with no-archive"])
        #expect(off.status == 0, "\(off.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: Self.archivePath(sandbox)))

        // A profile's own "archive" wins over the top level's.
        try Self.writeConfig(sandbox, #"{"archive":true,"defaultProfile":"work","profiles":{"work":{"server":"\#(server.baseURL)","archive":false}}}"#)
        let profileOff = try sandbox.run("ps-send", ["nothing kept for this profile"])
        #expect(profileOff.status == 0, "\(profileOff.stderrText)")
        #expect(!FileManager.default.fileExists(atPath: Self.archivePath(sandbox)))
        let flagOn = try sandbox.run("ps-send", ["--archive", "kept when asked"])
        #expect(flagOn.status == 0, "\(flagOn.stderrText)")
        #expect(try Self.archived(sandbox).count == 2)

        // Anything but true or false is said, naming where.
        try Self.writeConfig(sandbox, #"{"archive":"yes"}"#)
        let odd = try sandbox.run("ps-send", ["hi"])
        #expect(odd.status == 1)
        #expect(odd.stderrText.hasPrefix("ps-send: ") && odd.stderrText.contains("archive must be true or false"), "\(odd.stderrText)")
    }

    @Test func aLoginKeepsTheProfilesArchiveSetting() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox()
        try Self.writeConfig(sandbox, #"{"archive":true,"profiles":{"default":{"server":"\#(server.baseURL)","archive":false}}}"#)
        #expect(try sandbox.login(server).status == 0)
        let config = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sandbox.configPath))) as? [String: Any])
        #expect(config["archive"] as? Bool == true)
        #expect(((config["profiles"] as? [String: Any])?["default"] as? [String: Any])?["archive"] as? Bool == false, "\(config)")
    }

    @Test func aSendThatFailsKeepsNothing() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        try server.armFault(#"{"stop":true,"afterEvents":15}"#)
        let stopped = try sandbox.run("ps-send", ["--archive", "plain words please"])
        #expect(stopped.status == 10, "\(stopped.stderrText)")
        #expect(!stopped.stdoutText.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: Self.archivePath(sandbox)), "nothing partial is archived")
    }

    @Test func aReplyThatAsksAQuestionIsKeptAsThePipelineKeepsIt() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let asked = try sandbox.run("ps-send", ["--archive", "--new-conversation", "ask me before you look"])
        #expect(asked.status == 11, "\(asked.stderrText)")
        #expect(asked.stderrText.split(separator: "\n").count == 1, "only the question's line: \(asked.stderrText)")
        let records = try Self.archived(sandbox)
        #expect(records.map { $0["role"] as? String } == ["user", "assistant"], "\(records)")
        // The reply as ps-parts --final rebuilds the same stream.
        let stream = sandbox.directory + "/asked.sse"
        try asked.stdout.write(to: URL(fileURLWithPath: stream))
        let final = try sandbox.shell("ps-sse '\(stream)' | ps-parts --final")
        let rebuilt = try #require(try Records.parse(final.stdoutText).last)
        #expect(records[1]["id"] as? String == rebuilt["id"] as? String)
        #expect(records[1]["parts"] as? NSArray == rebuilt["parts"] as? NSArray)
        #expect(records[1]["incomplete"] as? NSDictionary == rebuilt["incomplete"] as? NSDictionary)
    }

    @Test func anArchiveThatCannotTakeItLosesNoAnswer() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        // Where the archive would be, a file that is not one.
        let path = Self.archivePath(sandbox)
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try "not an archive\n".write(toFile: path, atomically: true, encoding: .utf8)
        let send = try sandbox.run("ps-send", ["--archive", "Which ferry goes to Zanzibar?"])
        #expect(send.status == 12, "\(send.stderrText)")
        #expect(send.stdoutText.hasSuffix("data: [DONE]\n\n"), "the whole answer is written")
        #expect(Records.streamedText(send.stdoutText).contains("Zanzibar"))
        let lines = send.stderrText.split(separator: "\n")
        #expect(lines.count == 1, "\(send.stderrText)")
        #expect(lines.first?.hasPrefix("ps-send: the exchange was not archived: ") == true, "\(send.stderrText)")
        #expect(lines.first?.contains(path) == true, "it names the file: \(send.stderrText)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "not an archive\n", "left unchanged")

        // Rendered (--render into a pipe): the answer first, then the line.
        let rendered = try sandbox.run("ps-send", ["--archive", "--render", "Which ferry goes to Zanzibar?"])
        #expect(rendered.status == 12, "\(rendered.stderrText)")
        #expect(rendered.stdoutText.contains("Zanzibar"))
        #expect(rendered.stderrText.split(separator: "\n").count == 1, "\(rendered.stderrText)")

        // No folder can be made for it (a file is in the way): the same.
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.removeItem(atPath: folder)
        try "in the way\n".write(toFile: folder, atomically: true, encoding: .utf8)
        let blocked = try sandbox.run("ps-send", ["--archive", "Which ferry goes to Zanzibar?"])
        #expect(blocked.status == 12, "\(blocked.stderrText)")
        #expect(blocked.stdoutText.hasSuffix("data: [DONE]\n\n"))
        #expect(blocked.stderrText.split(separator: "\n").count == 1, "\(blocked.stderrText)")
        #expect(blocked.stderrText.hasPrefix("ps-send: the exchange was not archived: "), "\(blocked.stderrText)")
    }
}

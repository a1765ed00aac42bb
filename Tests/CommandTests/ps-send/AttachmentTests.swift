import Foundation
import Testing
import TestSupport

/// `ps-send --attach FILE`: images go as UIMessage file parts, checked before sending the way
/// the server checks them; text files go into the message; the local server checks file parts
/// as PageSpace does (400 `{error}` in its words).
@Suite struct AttachmentTests {
    /// A 1×1 PNG, whole (signature, IHDR, IDAT, IEND).
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
        0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4,
        0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0xF8, 0xCF, 0xC0, 0xF0,
        0x1F, 0x00, 0x05, 0x00, 0x01, 0xFF, 0x89, 0x99, 0x3D, 0x1D, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45,
        0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// The largest PNG whose data URL fits the server's 4 MiB (4194304 characters):
    /// "data:image/png;base64," is 22 of them, 4194282 / 4 * 3 bytes the rest.
    static let largestPNG = 3_145_710

    static func write(_ bytes: [UInt8], _ name: String, in sandbox: NetworkSandbox) throws -> String {
        let path = sandbox.directory + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func sends(_ server: LocalServer) throws -> [[String: Any]] {
        try server.requestLog().filter { ($0["method"] as? String) == "POST" && ($0["path"] as? String)?.hasSuffix("/messages") == true }
    }

    static func sentParts(_ server: LocalServer) throws -> [[String: Any]] {
        let body = try #require(try sends(server).last?["body"] as? [String: Any])
        return try #require((body["messages"] as? [[String: Any]])?.last?["parts"] as? [[String: Any]])
    }

    @Test func aPNGGoesAsAFilePartAndTheHistoryKeepsIt() throws {
        let server = try LocalServer.start()
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let path = try Self.write(Self.png, "dot.png", in: sandbox)
        let sent = try sandbox.run("ps-send", ["--attach", path, "What is in this picture?"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        let url = "data:image/png;base64," + Data(Self.png).base64EncodedString()
        let parts = try Self.sentParts(server)
        #expect(parts.count == 2)
        #expect(parts.first?["type"] as? String == "text")
        #expect(parts.first?["text"] as? String == "What is in this picture?")
        #expect(parts.last?["type"] as? String == "file")
        #expect(parts.last?["mediaType"] as? String == "image/png")
        #expect(parts.last?["filename"] as? String == "dot.png")
        #expect(parts.last?["url"] as? String == url)

        let history = try Records.parse(try sandbox.run("ps-history", []).stdoutText)
        let question = try #require(history.last { $0["role"] as? String == "user" })
        let file = try #require((question["parts"] as? [[String: Any]])?.first { $0["type"] as? String == "file" })
        #expect(file["url"] as? String == url)
    }

    @Test func theLargestImageTheServerTakesGoesAndOneByteMoreIsRefused() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        var bytes = Self.png
        bytes += [UInt8](repeating: 0, count: Self.largestPNG - bytes.count)
        let fits = try Self.write(bytes, "big.png", in: sandbox)
        let sent = try sandbox.run("ps-send", ["--attach", fits, "big"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        #expect((try Self.sentParts(server).last?["url"] as? String)?.utf8.count == 4_194_302)

        try server.request("DELETE", "/_test/requests")
        let over = try Self.write(bytes + [0], "over.png", in: sandbox)
        let refused = try sandbox.run("ps-send", ["--attach", over, "too big"])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("over.png"))
        #expect(refused.stderrText.contains("4 MiB"))
        #expect(refused.stderrText.split(separator: "\n").count == 1, "\(refused.stderrText)")
        #expect(try Self.sends(server).isEmpty)
    }

    @Test func aTextFileBecomesPartOfTheMessage() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let path = try Self.write(Array("first line\n```swift\nlet x = 1\n```\n".utf8), "notes.md", in: sandbox)
        let sent = try sandbox.run("ps-send", ["--attach", path, "Summarise"])
        #expect(sent.status == 0, "\(sent.stderrText)")
        let parts = try Self.sentParts(server)
        #expect(parts.count == 1)
        // A fence longer than the file's own.
        #expect(parts.first?["text"] as? String == "Summarise\n\nnotes.md:\n````\nfirst line\n```swift\nlet x = 1\n```\n````")
    }

    /// Six bytes, `GIF89a`, named .png: its first bytes say GIF, but there is no header and no
    /// size, so it is no image (it was sent as image/gif).
    @Test func aFileThatOnlyStartsLikeAnImageIsRefusedAndNothingIsSent() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        for (bytes, name) in [(Array("GIF89a".utf8), "six.png"), (Array(Self.png.prefix(20)), "cut.png")] {
            let path = try Self.write(bytes, name, in: sandbox)
            let refused = try sandbox.run("ps-send", ["--attach", path, "look"])
            #expect(refused.status == 2, "\(refused.stderrText)")
            #expect(refused.stderrText.hasPrefix("ps-send: --attach ") && refused.stderrText.contains(name))
            #expect(refused.stderrText.contains("is not one"), "\(refused.stderrText)")
            #expect(refused.stderrText.split(separator: "\n").count == 1, "\(refused.stderrText)")
        }
        #expect(try Self.sends(server).isEmpty)
    }

    @Test func aFileNamedPNGThatIsTextIsRefusedAndNothingIsSent() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let path = try Self.write(Array("not a picture\n".utf8), "photo.png", in: sandbox)
        let refused = try sandbox.run("ps-send", ["--attach", path, "look"])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("photo.png"))
        #expect(refused.stderrText.contains("not a PNG image"))
        #expect(refused.stderrText.split(separator: "\n").count == 1, "\(refused.stderrText)")
        // Binary that is no image: refused as neither.
        let binary = try Self.write([0x00, 0x01, 0x02, 0xFF], "blob.bin", in: sandbox)
        let neither = try sandbox.run("ps-send", ["--attach", binary, "look"])
        #expect(neither.status == 2)
        #expect(neither.stderrText.contains("blob.bin"))
        #expect(neither.stderrText.contains("nor UTF-8 text"))
        // More images than the server takes in one message (5).
        let image = try Self.write(Self.png, "dot.png", in: sandbox)
        let six = try sandbox.run("ps-send", Array(repeating: ["--attach", image], count: 6).flatMap { $0 } + ["look"])
        #expect(six.status == 2)
        #expect(six.stderrText.contains("6 images") && six.stderrText.contains("at most 5"), "\(six.stderrText)")
        #expect(try server.requestLog().isEmpty)
    }

    @Test func anUnreadablePathIsRefusedNamingIt() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        for path in [sandbox.directory + "/missing.png", sandbox.directory] {
            let refused = try sandbox.run("ps-send", ["--attach", path, "look"])
            #expect(refused.status == 2)
            #expect(refused.stderrText.contains(path) && refused.stderrText.contains("cannot read it"), "\(refused.stderrText)")
        }
        #expect(try server.requestLog().isEmpty)
    }

    @Test func anAPIThatCannotTakeImagesRefusesThem() throws {
        let openai = try LocalServer.start(dialect: "openai", extraArguments: ["--quiet"])
        defer { openai.stop() }
        let sandbox = try NetworkSandbox(extra: ["PAGESPACE_API_URL": openai.baseURL, "PAGESPACE_API_KIND": "openai"])
        let image = try Self.write(Self.png, "dot.png", in: sandbox)
        let refused = try sandbox.run("ps-send", ["--model", "ps-demo", "--attach", image, "look"])
        #expect(refused.status == 2)
        #expect(refused.stderrText.contains("cannot take images"), "\(refused.stderrText)")
        #expect(!(try openai.requestLog().contains { ($0["path"] as? String)?.hasSuffix("/chat/completions") == true }))
        // A text file is fine there.
        let text = try Self.write(Array("hello\n".utf8), "a.txt", in: sandbox)
        #expect(try sandbox.run("ps-send", ["--model", "ps-demo", "--attach", text, "read"]).status == 0)

        let legacy = try LocalServer.start(dialect: "pagespace-legacy", extraArguments: ["--quiet"])
        defer { legacy.stop() }
        let legacySandbox = try NetworkSandbox()
        #expect(try legacySandbox.login(legacy).status == 0)
        let legacyImage = try Self.write(Self.png, "dot.png", in: legacySandbox)
        let legacyRefused = try legacySandbox.run("ps-send", ["--attach", legacyImage, "look"])
        #expect(legacyRefused.status == 2)
        #expect(legacyRefused.stderrText.contains("pagespace-legacy API cannot take images"), "\(legacyRefused.stderrText)")
        #expect(try Self.sends(legacy).isEmpty)
    }

    /// PageSpace refuses images for a model without vision: 400 in its words, exit 2 here,
    /// nothing stored. The Global assistant judges the model the send names (none: no check),
    /// Page AI that one or else the agent's own (here set to z-ai/glm-4.6, which has none).
    @Test func aModelWithoutVisionIsRefusedInTheServersWords() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let sandbox = try NetworkSandbox(server: server)
        let configured = try sandbox.run("ps-agents", ["set", "page_agent_demo", "--provider", "zai", "--model", "z-ai/glm-4.6"])
        #expect(configured.status == 0, "\(configured.stderrText)")
        let image = try Self.write(Self.png, "dot.png", in: sandbox)
        let global = try sandbox.run("ps-send", ["--model", "glm-4.6", "--attach", image, "look"])
        #expect(global.status == 2)
        #expect(global.stdoutText.isEmpty)
        #expect(global.stderrText.split(separator: "\n").count == 1, "\(global.stderrText)")
        #expect(global.stderrText.contains(
            #"the server refused the images: The selected model "glm-4.6" does not support image attachments. Please choose a vision-capable model."#),
            "\(global.stderrText)")
        let agent = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--attach", image, "look"])
        #expect(agent.status == 2)
        #expect(agent.stderrText.contains(#"The selected model "z-ai/glm-4.6" does not support image attachments"#), "\(agent.stderrText)")
        let history = try sandbox.run("ps-history", ["--conversation", LocalServer.globalConversationID])
        #expect(history.status == 0 && !history.stdoutText.contains("data:image/png"))

        // A model that sees images is let through, and so is a Global send naming none.
        let seeing = try sandbox.run("ps-send", ["--page", "page_agent_demo", "--provider", "google", "--model", "google/gemini-2.5-flash", "--attach", image, "look"])
        #expect(seeing.status == 0, "\(seeing.stderrText)")
        #expect(try sandbox.run("ps-send", ["--attach", image, "look"]).status == 0)

        // hasVisionCapability: its table (with or without a provider prefix), then guesses by name.
        let path = "/api/ai/global/\(LocalServer.globalConversationID)/messages"
        let headers = ["Authorization": "Bearer \(LocalServer.sessionToken)", "Content-Type": "application/json",
                       "X-Browser-Session-Id": "ps-tools-vision-test"]
        let file = #"{"type":"file","mediaType":"image/png","filename":"dot.png","url":"data:image/png;base64,\#(Data(Self.png).base64EncodedString())"}"#
        for (model, sees) in [("o3", false), ("openai/o4-mini", false), ("glm-4.6", false), ("openai/gpt-4o", true),
                              ("claude-sonnet-4-5", true), ("my-vision-model", true), ("llama3.2:latest", false)] {
            let body = #"{"selectedModel":"\#(model)","messages":[{"id":"msg_vision","role":"user","parts":[{"type":"text","text":"hi"},\#(file)]}]}"#
            let reply = try server.request("POST", path, headers: headers, body: body)
            #expect(reply.status == (sees ? 200 : 400), "\(model): \(reply.status)")
            if !sees {
                #expect((try reply.jsonObject()["error"] as? String)?.hasPrefix("The selected model \"\(model)\" does not") == true)
            }
        }
    }

    /// The twin answers a bad file part as PageSpace does: 400 `{error}` in its words, and
    /// stores nothing.
    @Test func theLocalServerChecksFilePartsAsPageSpaceDoes() throws {
        let server = try LocalServer.start(extraArguments: ["--quiet"])
        defer { server.stop() }
        let path = "/api/ai/global/\(LocalServer.globalConversationID)/messages"
        let headers = ["Authorization": "Bearer \(LocalServer.sessionToken)", "Content-Type": "application/json",
                       "X-Browser-Session-Id": "ps-tools-attachment-test"]
        let text = "data:image/png;base64," + Data("hello".utf8).base64EncodedString()
        let cases: [(part: String, error: String)] = [
            (#"{"type":"file","mediaType":"image/png","filename":"x.png","url":"\#(text)"}"#,
             #"Invalid magic bytes for "x.png": content does not match declared type "image/png""#),
            (#"{"type":"file","mediaType":"image/bmp","url":"data:image/bmp;base64,Qk0="}"#,
             #"File type "image/bmp" is not allowed for "image-1""#),
            (#"{"type":"file","filename":"y.png","url":"https://example.com/y.png"}"#,
             #"Image "y.png" is not a valid data URL"#),
            (#"{"type":"file","filename":"z.png","url":"data:image/png,abc"}"#,
             #"Invalid data URL format for "z.png""#),
            (#"{"type":"file","filename":"n.png"}"#, #"Image "n.png" is missing a valid url"#),
        ]
        for (part, error) in cases {
            let body = #"{"messages":[{"id":"msg_attach_1","role":"user","parts":[{"type":"text","text":"hi"},\#(part)]}]}"#
            let reply = try server.request("POST", path, headers: headers, body: body)
            #expect(reply.status == 400)
            #expect((try reply.json() as? [String: Any])?["error"] as? String == error, "\(reply.text)")
        }
        let history = try server.request("GET", path + "?limit=100", headers: headers)
        #expect(history.status == 200)
        #expect(history.text.contains("\"messages\""))
        #expect(!history.text.contains("msg_attach_1"))
    }
}

import PSCore
import PSNet
import Testing

@Suite struct FollowedMessagesTests {
    static func message(_ id: String, _ text: String, role: String = "assistant", status: String? = nil,
                        createdAt: String? = nil) -> JSON {
        var object = JSONObject()
        object["id"] = .string(id)
        object["role"] = .string(role)
        object["parts"] = [["type": "text", "text": .string(text)]]
        object["status"] = status.map(JSON.string)
        object["createdAt"] = createdAt.map(JSON.string)
        return .object(object)
    }

    @Test func aReplyIsHeldWhileStreamingThenWrittenOnce() {
        var followed = FollowedMessages()
        #expect(followed.live(Self.message("a1", "", status: "streaming")) == nil)
        #expect(!followed.isWritten("a1"))
        #expect(followed.live(Self.message("a1", "Done.", status: "complete")) != nil)
        // The same message again, from the history or a repeated event: nothing.
        #expect(followed.stored(Self.message("a1", "Done.", createdAt: "2026-01-01T00:00:01.000Z")) == nil)
        #expect(followed.live(Self.message("a1", "Done.", status: "complete")) == nil)
    }

    @Test func aChangeIsWrittenAgainMarkedUpdatedWithTheFirstRole() throws {
        var followed = FollowedMessages()
        #expect(followed.stored(Self.message("u1", "Hello", role: "user", createdAt: "t1")) != nil)
        // The server announces a Global edit as an assistant message.
        let written = followed.live(Self.message("u1", "Hello again", role: "assistant", status: "complete"))
        let edited = try #require(written)
        #expect(edited["updated"] == true)
        #expect(edited["role"] == "user")
        #expect(followed.live(Self.message("u1", "Hello again", status: "complete")) == nil)
    }

    @Test func reconcilingNeverWritesAMessageNotWrittenBefore() {
        var followed = FollowedMessages()
        #expect(followed.reconcile(Self.message("old", "from before --state", createdAt: "t0")) == nil)
        #expect(followed.stored(Self.message("m1", "x", createdAt: "t1")) != nil)
        #expect(followed.reconcile(Self.message("m1", "y", createdAt: "t1"))?["updated"] == true)
    }

    @Test func deletionsOfHeldRepliesAreSilent() {
        var followed = FollowedMessages()
        _ = followed.live(Self.message("a1", "", status: "streaming"))
        #expect(followed.delete("a1") == false)
        _ = followed.stored(Self.message("m1", "x", createdAt: "t1"))
        #expect(followed.delete("m1") == true)
        #expect(!followed.isWritten("m1"))
    }

    @Test func theNewestPageShowsWhatWasDeletedDuringAGap() {
        var followed = FollowedMessages()
        for (id, at) in [("m1", "2026-01-01T00:00:01Z"), ("m2", "2026-01-01T00:00:02Z"), ("m3", "2026-01-01T00:00:03Z")] {
            _ = followed.stored(Self.message(id, id, createdAt: at))
        }
        _ = followed.live(Self.message("m4", "live, not yet read back", status: "complete"))
        // The newest page starts at m2 and has lost m3 and m4; m1 is older than the page.
        let page = [Self.message("m2", "m2", createdAt: "2026-01-01T00:00:02Z")]
        #expect(followed.missing(fromNewestPage: page) == ["m3", "m4"])
        #expect(followed.missing(fromNewestPage: []).sorted() == ["m1", "m2", "m3", "m4"])
    }
}

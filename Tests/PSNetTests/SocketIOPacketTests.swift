import PSCore
import PSNet
import Testing

@Suite struct SocketIOPacketTests {
    @Test func aPollingPayloadSplitsAtTheRecordSeparator() {
        let payload = SocketIOPacket.payload(["2", #"42["a",1]"#, "6"])
        #expect(payload == "2\u{1E}42[\"a\",1]\u{1E}6")
        #expect(SocketIOPacket.packets(in: payload) == ["2", #"42["a",1]"#, "6"])
        #expect(SocketIOPacket.packets(in: "") == [])
    }

    @Test func eventsAreReadWithTheirFirstArgument() throws {
        let decoded = try #require(SocketIOPacket.decode(#"2["conversation:message_deleted",{"messageId":"m1","rev":4}]"#))
        #expect(decoded.type == "2")
        #expect(decoded.namespace == "/")
        let event = try #require(decoded.event)
        #expect(event.name == "conversation:message_deleted")
        #expect(event.payload["messageId"] == "m1")
        // An event without arguments has a null payload; an ack id before the array is skipped.
        #expect(SocketIOPacket.decode(#"2["ping"]"#)?.event?.payload == .null)
        #expect(SocketIOPacket.decode(#"212["join",{"x":1}]"#)?.event?.name == "join")
    }

    @Test func namespacesAndConnectErrorsAreRecognised() throws {
        let refusal = try #require(SocketIOPacket.decode(#"4/admin,{"message":"Invalid namespace"}"#))
        #expect(refusal.type == "4")
        #expect(refusal.namespace == "/admin")
        #expect(refusal.data?["message"] == "Invalid namespace")
        #expect(SocketIOPacket.connectError("Invalid namespace", namespace: "/admin") == #"44/admin,{"message":"Invalid namespace"}"#)
        #expect(SocketIOPacket.decode("1")?.data == nil)
        #expect(SocketIOPacket.connect(auth: ["token": "t"]) == #"40{"token":"t"}"#)
        #expect(SocketIOPacket.event("join_conversation", "c1") == #"42["join_conversation","c1"]"#)
    }

    @Test func binaryPrefixesAreSkippedAndGarbageRefused() {
        #expect(SocketIOPacket.decode(#"51-["upload",{"_placeholder":true,"num":0}]"#)?.event?.name == "upload")
        #expect(SocketIOPacket.decode("2[not json") == nil)
        #expect(SocketIOPacket.decode("x") == nil)
        #expect(SocketIOPacket.decode("") == nil)
    }
}

import PSCore

/// Where incremental exports stopped: the newest exported message id of each conversation.
/// Written atomically (temp + rename) and only after the records it covers were written, so
/// a run that dies anywhere is resumed without losing or repeating a message.
public struct ExportState {
    public let path: String
    private var conversations: JSONObject

    public static func load(_ path: String) throws -> ExportState {
        guard let bytes = try SecureFile.read(path) else { return ExportState(path: path, conversations: JSONObject()) }
        guard let json = try? JSON.parse(bytes: bytes), let conversations = json["conversations"]?.objectValue else {
            throw ToolError(.malformedInput, "\(path) is not a ps-history state file; move it away to start a full export")
        }
        return ExportState(path: path, conversations: conversations)
    }

    public func lastMessageID(for key: String) -> String? {
        conversations[key]?["lastMessageId"]?.stringValue
    }

    public mutating func record(lastMessageID id: String, for key: String) throws {
        conversations[key] = ["lastMessageId": .string(id)]
        var bytes: [UInt8] = []
        let file: JSON = ["version": 1, "conversations": .object(conversations)]
        file.write(to: &bytes)
        bytes.append(0x0A)
        try SecureFile.write(bytes, to: path, mode: 0o644)
    }
}

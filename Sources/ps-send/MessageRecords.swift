import PSCore
import PSNet

/// Message records (UIMessages, one a line, as ps-history and ps-parts --final write them)
/// read from a file or stdin, for `--history`: each line a JSON object with a `role` of user,
/// assistant or system and its `parts` (or a plain `content`). Other records are skipped; a
/// line that is not JSON stops with exit 3 naming it.
enum MessageRecords {
    static let limit = 64 << 20

    static func read(_ path: String) throws -> [JSON] {
        let name = path == "-" ? "stdin" : path
        var bytes: [UInt8] = []
        if path == "-" {
            bytes = Array(try StandardInputText.readPiped(limit: limit, tooLong: "the history on stdin is over 64 MiB").utf8)
        } else {
            guard let read = try? SecureFile.read(path) else { throw ToolError(.failure, "cannot read \(path)") }
            guard read.count <= limit else { throw ToolError(.usage, "\(path) is over 64 MiB") }
            bytes = read
        }
        var messages: [JSON] = []
        for (number, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            guard line.contains(where: { $0 != 0x20 && $0 != 0x0D && $0 != 0x09 }) else { continue }
            guard let record = try? JSON.parse(bytes: Array(line)), record.objectValue != nil else {
                throw ToolError(.malformedInput, "\(name) line \(number + 1) is not a JSON object")
            }
            guard let role = record["role"]?.stringValue, ["user", "assistant", "system"].contains(role) else { continue }
            var message = JSONObject()
            message["id"] = record["id"] ?? .string(RandomID.messageID())
            message["role"] = .string(role)
            if let parts = record["parts"]?.arrayValue {
                message["parts"] = .array(parts)
            } else if let content = record["content"]?.stringValue {
                message["parts"] = [["type": "text", "text": .string(content)]]
            } else {
                continue
            }
            messages.append(.object(message))
        }
        guard !messages.isEmpty else { throw ToolError(.malformedInput, "\(name) holds no message records") }
        return messages
    }
}

import PSCore

/// A message that asks for the client's tools by name, so that tests know which calls the
/// "model" makes: `call:NAME{JSON}` is a call of the tool NAME with those arguments (`{}` when
/// no object follows), several in one step when they stand together, and the word `then`
/// between two of them starts the next step, made once the results of the one before came
/// back (a chain). When every step has its results, the reply quotes them, one line each:
///
///     call:clock{"zone":"UTC"} call:echo{"text":"hi"} then call:echo{"text":"again"}
///
/// A real model calls only the tools it is given; this one calls whatever is named, so a call
/// of a tool the client did not offer can be tested too.
enum ToolScript {
    struct Call {
        let name: String
        let input: JSON
    }

    /// A tool's result as the conversation carries it back.
    struct Result {
        let name: String
        let content: String
    }

    /// The steps the message asks for, nil when it names no tool.
    static func steps(in question: String) -> [[Call]]? {
        let bytes = Array(question.utf8)
        let marker = Array("call:".utf8)
        var steps: [[Call]] = [[]]
        var index = 0
        while index < bytes.count {
            if bytes[index...].starts(with: marker) {
                var end = index + marker.count
                while end < bytes.count, isNameByte(bytes[end]) { end += 1 }
                let name = String(decoding: bytes[(index + marker.count)..<end], as: UTF8.self)
                var input = JSON.object(JSONObject())
                if end < bytes.count, bytes[end] == UInt8(ascii: "{"), let close = objectEnd(bytes, from: end),
                   let parsed = try? JSON.parse(String(decoding: bytes[end...close], as: UTF8.self)) {
                    input = parsed
                    end = close + 1
                }
                if !name.isEmpty { steps[steps.count - 1].append(Call(name: name, input: input)) }
                index = end
            } else if isWord("then", in: bytes, at: index), !steps[steps.count - 1].isEmpty {
                steps.append([])
                index += 4
            } else {
                index += 1
            }
        }
        steps.removeAll { $0.isEmpty }
        return steps.isEmpty ? nil : steps
    }

    /// What the model says after `stepsDone` steps came back with `results`: the next step's
    /// calls (open: the client runs them), or the results quoted once all are in.
    static func reply(steps: [[Call]], stepsDone: Int, results: [Result], callID: () -> String) -> [ReplySegment] {
        if stepsDone < steps.count {
            return steps[stepsDone].map { .tool(ToolCall(name: $0.name, callID: callID(), input: $0.input, output: .null)) }
        }
        var lines = ["Tool results:", ""]
        for result in results {
            var content = result.content.split(whereSeparator: \.isNewline).joined(separator: " ")
            if content.count > 300 { content = String(content.prefix(300)) + "…" }
            lines.append("- \(result.name): \(content)")
        }
        return [.text(lines.joined(separator: "\n"))]
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isWord(_ word: String, in bytes: [UInt8], at index: Int) -> Bool {
        let word = Array(word.utf8)
        guard bytes[index...].starts(with: word) else { return false }
        let before = index == 0 || bytes[index - 1] == 0x20 || bytes[index - 1] == 0x0A
        let after = index + word.count == bytes.count || bytes[index + word.count] == 0x20 || bytes[index + word.count] == 0x0A
        return before && after
    }

    /// The index of the `}` closing the object that opens at `start`, strings skipped.
    private static func objectEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var depth = 0, inString = false, escaped = false
        for index in start..<bytes.count {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return index }
            default: break
            }
        }
        return nil
    }
}

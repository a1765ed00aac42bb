import PSCore

/// JSON as people read it: compact on one line for summaries, indented for `--tools full`.
enum JSONText {
    static func compact(_ value: JSON) -> String { value.serialized() }

    /// Indented with two spaces, keys in their order.
    static func pretty(_ value: JSON) -> [String] {
        var lines: [String] = []
        write(value, indent: "", prefix: "", suffix: "", into: &lines)
        return lines
    }

    private static func write(_ value: JSON, indent: String, prefix: String, suffix: String, into lines: inout [String]) {
        switch value {
        case .array(let items) where !items.isEmpty:
            lines.append(indent + prefix + "[")
            for (index, item) in items.enumerated() {
                write(item, indent: indent + "  ", prefix: "", suffix: index < items.count - 1 ? "," : "", into: &lines)
            }
            lines.append(indent + "]" + suffix)
        case .object(let object) where !object.isEmpty:
            lines.append(indent + prefix + "{")
            var index = 0
            for (key, item) in object {
                var keyText: [UInt8] = []
                JSON.writeString(key, to: &keyText)
                let comma = index < object.count - 1 ? "," : ""
                write(item, indent: indent + "  ", prefix: String(decoding: keyText, as: UTF8.self) + ": ", suffix: comma, into: &lines)
                index += 1
            }
            lines.append(indent + "}" + suffix)
        default:
            lines.append(indent + prefix + value.serialized() + suffix)
        }
    }
}

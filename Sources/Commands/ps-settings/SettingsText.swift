import PSCore

/// `ps-settings` on a terminal: "key: value" lines for the plain values (values that are not
/// strings as JSON), then a table for each value that is an object of objects, such as
/// `providers: {openai: {isAvailable: true}, ...}`: one row per entry, one column per field.
struct SettingsText {
    let settings: JSONObject

    func render(width: Int) -> String {
        var lines = ""
        var tables: [(String, JSONObject)] = []
        for (key, value) in settings {
            if let entries = value.objectValue, !entries.isEmpty, entries.allSatisfy({ $0.value.objectValue != nil }) {
                tables.append((key, entries))
            } else {
                lines += TerminalSafeText.sanitize("\(key): \(Self.text(value))") + "\n"
            }
        }
        for (key, entries) in tables {
            var fields: [String] = []
            for (_, entry) in entries {
                for (field, _) in entry.objectValue ?? JSONObject() where !fields.contains(field) { fields.append(field) }
            }
            var table = TextTable(headers: [Self.heading(Self.singular(key))] + fields.map(Self.heading))
            table.flexible = Set(table.headers.indices)
            for (name, entry) in entries {
                table.add([TerminalSafeText.sanitize(name)] + fields.map { field in
                    entry[field].map { TerminalSafeText.sanitize(Self.text($0)) } ?? ""
                })
            }
            lines += "\n" + table.render(width: width, empty: "")
        }
        return lines
    }

    /// A string as it is, a boolean as yes or no, anything else as JSON.
    static func text(_ value: JSON) -> String {
        if let string = value.stringValue { return string }
        if let flag = value.boolValue { return flag ? "yes" : "no" }
        return value.serialized()
    }

    /// A field name as a column heading: `isAvailable` → `AVAILABLE`, `hasApiKey` → `HAS API KEY`.
    static func heading(_ name: String) -> String {
        var words: [String] = []
        var word = ""
        for character in name {
            if character.isUppercase && !word.isEmpty || character == "_" {
                words.append(word)
                word = ""
            }
            if character != "_" { word.append(character) }
        }
        words.append(word)
        if words.count > 1 && words[0] == "is" { words.removeFirst() }
        return words.filter { !$0.isEmpty }.joined(separator: " ").uppercased()
    }

    /// `providers` → `provider`.
    static func singular(_ name: String) -> String {
        name.count > 1 && name.hasSuffix("s") ? String(name.dropLast()) : name
    }
}

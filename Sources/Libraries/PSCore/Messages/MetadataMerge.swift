/// The SDK's `mergeObjects(base, overrides)` for message metadata: objects merge key by key and
/// recursively; arrays, strings, numbers and null replace. Like the JavaScript it copies, a
/// non-object on either side is first spread into an object (`{..."ab"}` is `{"0":"a","1":"b"}`,
/// a number spreads to `{}`), and the keys `__proto__`, `constructor` and `prototype` in the
/// overrides are skipped.
public enum MetadataMerge {
    public static func merge(_ base: JSON, _ overrides: JSON) -> JSON {
        var result = spread(base)
        for (key, value) in spread(overrides) {
            if key == "__proto__" || key == "constructor" || key == "prototype" { continue }
            if case .object = value, case .object? = result[key] {
                result[key] = merge(result[key]!, value)
            } else {
                result[key] = value
            }
        }
        return JSON.object(result).inJavaScriptKeyOrder()
    }

    /// `{ ...value }`.
    static func spread(_ value: JSON) -> JSONObject {
        switch value {
        case .object(let object): return object
        case .array(let items):
            var object = JSONObject()
            for (index, item) in items.enumerated() { object[String(index)] = item }
            return object
        case .string(let text):
            // One key per UTF-16 code unit in JavaScript; a character outside the BMP is kept whole
            // under its first unit's index (a lone surrogate cannot be written as UTF-8).
            var object = JSONObject()
            var offset = 0
            for scalar in text.unicodeScalars {
                object[String(offset)] = .string(String(scalar))
                offset += scalar.value > 0xFFFF ? 2 : 1
            }
            return object
        default: return JSONObject()
        }
    }
}

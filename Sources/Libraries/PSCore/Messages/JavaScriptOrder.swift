/// JavaScript objects list keys that are array indices ("0", "17") first, in numeric order, then
/// the others in insertion order; `JSON.parse` and spreading obey this too. Values that came
/// through the SDK therefore come out with such keys first, and so must ours.
public enum JavaScriptOrder {
    /// A canonical array index: "0" or digits without a leading zero, below 2^32 - 1.
    public static func isArrayIndex(_ key: String) -> Bool {
        var value: UInt64 = 0
        var count = 0
        for byte in key.utf8 {
            guard byte >= 0x30, byte <= 0x39 else { return false }
            if count == 1 && value == 0 { return false }  // leading zero
            value = value * 10 + UInt64(byte - 0x30)
            count += 1
            if count > 10 { return false }
        }
        return count > 0 && value < 4_294_967_295
    }

    static func indexValue(_ key: String) -> UInt64 {
        key.utf8.reduce(0) { $0 * 10 + UInt64($1 - 0x30) }
    }
}

extension JSON {
    /// This value with every object's keys in JavaScript's order. Returns `self` untouched (no
    /// copying) when no object in it has an integer-like key, which is nearly always.
    public func inJavaScriptKeyOrder() -> JSON {
        guard needsJavaScriptReordering else { return self }
        switch self {
        case .array(let items): return .array(items.map { $0.inJavaScriptKeyOrder() })
        case .object(let object):
            var indexKeys: [String] = []
            var otherKeys: [String] = []
            for (key, _) in object {
                if JavaScriptOrder.isArrayIndex(key) { indexKeys.append(key) } else { otherKeys.append(key) }
            }
            indexKeys.sort { JavaScriptOrder.indexValue($0) < JavaScriptOrder.indexValue($1) }
            var result = JSONObject()
            for key in indexKeys + otherKeys { result[key] = object[key]!.inJavaScriptKeyOrder() }
            return .object(result)
        default: return self
        }
    }

    private var needsJavaScriptReordering: Bool {
        switch self {
        case .array(let items): return items.contains { $0.needsJavaScriptReordering }
        case .object(let object):
            var seenOther = false
            var lastIndex: UInt64? = nil
            for (key, value) in object {
                if JavaScriptOrder.isArrayIndex(key) {
                    let index = JavaScriptOrder.indexValue(key)
                    if seenOther { return true }
                    if let last = lastIndex, index < last { return true }
                    lastIndex = index
                } else {
                    seenOther = true
                }
                if value.needsJavaScriptReordering { return true }
            }
            return false
        default: return false
        }
    }
}

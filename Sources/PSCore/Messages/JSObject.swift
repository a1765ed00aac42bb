/// An object as JavaScript holds it while the AI SDK builds a message: a key keeps the position
/// it was first given even while its value is `undefined` (nil here), and `JSON.stringify` leaves
/// undefined keys out. Mirroring this lets the reducer copy the SDK's assignments one for one and
/// still write keys in exactly the SDK's order.
public struct JSObject: Sendable, Equatable {
    /// Few keys (a part has at most a dozen): a linear array beats hashing.
    private var slots: [(key: String, value: JSON?)] = []

    public init() {}

    /// Keys in the order they were defined, as `{ key: value }` literals define them.
    public init(_ pairs: [(String, JSON?)]) {
        slots.reserveCapacity(pairs.count)
        for (key, value) in pairs { self[key] = value }
    }

    /// A plain JSON object (every key defined).
    public init(_ object: JSONObject) {
        for (key, value) in object { slots.append((key, value)) }
    }

    private func slotIndex(_ key: String) -> Int? { slots.firstIndex { $0.key == key } }

    /// Reading gives nil for absent and undefined alike. Writing nil is `obj.key = undefined`:
    /// the key stays (or is created) in its place but is not written out.
    public subscript(key: String) -> JSON? {
        get { slotIndex(key).flatMap { slots[$0].value } }
        set {
            if let index = slotIndex(key) {
                slots[index].value = newValue
            } else {
                slots.append((key, newValue))
            }
        }
    }

    /// Whether the key exists (`key in obj`), even with an undefined value.
    public func has(_ key: String) -> Bool { slotIndex(key) != nil }

    /// `delete obj.key`.
    public mutating func remove(_ key: String) { slots.removeAll { $0.key == key } }

    /// Appends to the string at `key` in place (amortised constant time, so a long streamed text
    /// costs linear time, not quadratic). Returns false when the value is not a string.
    @discardableResult
    public mutating func append(_ text: String, toStringAt key: String) -> Bool {
        guard let index = slotIndex(key), case .string(var value)? = slots[index].value else { return false }
        slots[index].value = nil  // drop our second reference so `value` is unique and grows in place
        value += text
        slots[index].value = .string(value)
        return true
    }

    /// The object as JSON: undefined keys left out, integer-like keys first (see JavaScriptOrder).
    public var json: JSON {
        var object = JSONObject()
        for slot in slots { if let value = slot.value { object[slot.key] = value } }
        return JSON.object(object).inJavaScriptKeyOrder()
    }

    /// Writes compact JSON directly (the hot path of every part record).
    public func write(to out: inout [UInt8]) {
        if slots.contains(where: { JavaScriptOrder.isArrayIndex($0.key) }) {
            json.write(to: &out)
            return
        }
        out.append(UInt8(ascii: "{"))
        var first = true
        for slot in slots {
            guard let value = slot.value else { continue }
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            JSON.writeString(slot.key, to: &out)
            out.append(UInt8(ascii: ":"))
            value.write(to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    public static func == (lhs: JSObject, rhs: JSObject) -> Bool { lhs.json == rhs.json }
}

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

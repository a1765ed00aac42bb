/// A message part as the AI SDK's reducer holds it while it builds a message: a JavaScript object,
/// where a key keeps the position it was first given even while its value is `undefined` (nil
/// here), and `JSON.stringify` leaves undefined keys out. Mirroring this lets the reducer copy the SDK's assignments one for one and
/// still write keys in exactly the SDK's order.
public struct PartObject: Sendable, Equatable {
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

    public static func == (lhs: PartObject, rhs: PartObject) -> Bool { lhs.json == rhs.json }
}

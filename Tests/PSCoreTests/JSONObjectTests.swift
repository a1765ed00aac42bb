import Testing
@testable import PSCore

/// JSONObject keeps its keys in the order they were first set, small and large (a large one has
/// an index from key to position, which removing and replacing keep right).
@Suite struct JSONObjectTests {
    @Test(arguments: [3, 15, 16, 17, 200])
    func orderLookupReplaceAndRemove(count: Int) {
        var object = JSONObject()
        for n in 0..<count { object["k\(n)"] = .integer(Int64(n)) }
        #expect(object.keys == (0..<count).map { "k\($0)" })
        for n in 0..<count { #expect(object["k\(n)"] == .integer(Int64(n))) }
        #expect(object["missing"] == nil)
        // Replacing keeps the place; removing closes the gap; a key set again goes last.
        object["k1"] = "one"
        object["k0"] = nil
        #expect(object.count == count - 1)
        #expect(object.keys.first == "k1" && object["k1"] == "one")
        object["k0"] = true
        #expect(object.keys.last == "k0")
        for n in 2..<count { #expect(object["k\(n)"] == .integer(Int64(n)), "k\(n)") }
        #expect(Array(object.map(\.key)) == object.keys)
    }

    @Test func equalityIgnoresOrder() {
        let a = JSONObject([("x", 1), ("y", "two")]), b = JSONObject([("y", "two"), ("x", 1.0)])
        #expect(a == b)
        #expect(a != JSONObject([("x", 1)]))
        #expect(a != JSONObject([("x", 1), ("z", "two")]))
        let large = JSONObject((0..<40).map { ("k\($0)", JSON.integer(Int64($0))) })
        #expect(large == JSONObject((0..<40).reversed().map { ("k\($0)", JSON.integer(Int64($0))) }))
    }
}

//===----------------------------------------------------------------------===//
//
// This source file is part of the Swift Argument Parser open source project
//
// Copyright (c) 2025 Apple Inc. and the Swift project authors
// Licensed under Apache License v2.0 with Runtime Library Exception
//
// See https://swift.org/LICENSE.txt for license information
//
//===----------------------------------------------------------------------===//

// ps-tools: this file is the library's only use of Foundation (an error's
// `LocalizedError.errorDescription`, and `JSONEncoder` for
// `--experimental-dump-help`). It is written here without it, so that a
// command links no Foundation at all: see VENDORED.md.

extension Error {
  func describe() -> String {
    // ps-tools: no `LocalizedError` without Foundation; no ps-tools error is one.
    String(describing: self)
  }
}

/// An `Encodable` value as the JSON text that Foundation's `JSONEncoder`
/// writes with `.prettyPrinted` and `.sortedKeys`: two spaces a level,
/// `"key" : value`, keys in case-insensitive order, `/` escaped as `\/`, an
/// empty array or object as two line ends between its brackets.
enum JSONEncoder {
  static func encode<T: Encodable>(_ value: T) -> String {
    let root = JSONNode()
    guard (try? value.encode(to: NodeEncoder(node: root, codingPath: []))) != nil
    else { return "" }
    var text = ""
    root.write(to: &text, indent: 0)
    return text
  }
}

/// A value being encoded: set once by the container that encodes it.
private final class JSONNode {
  enum Value {
    case literal(String)  // a number, true, false or null, as written
    case string(String)
    case array([JSONNode])
    case object([String: JSONNode])
  }
  var value: Value = .literal("null")

  func appendElement() -> JSONNode {
    let element = JSONNode()
    if case .array(var elements) = value {
      value = .literal("null")  // one reference to the array while it grows
      elements.append(element)
      value = .array(elements)
    } else {
      value = .array([element])
    }
    return element
  }

  func member(_ key: String) -> JSONNode {
    let node = JSONNode()
    var members: [String: JSONNode] = [:]
    if case .object(let existing) = value { members = existing }
    value = .literal("null")
    members[key] = node
    value = .object(members)
    return node
  }

  func write(to text: inout String, indent: Int) {
    switch value {
    case .literal(let literal):
      text += literal
    case .string(let string):
      Self.quote(string, into: &text)
    case .array(let elements):
      guard !elements.isEmpty else { return text += "[\n\n" + String(repeating: " ", count: indent) + "]" }
      text += "[\n"
      for (index, element) in elements.enumerated() {
        if index > 0 { text += ",\n" }
        text += String(repeating: " ", count: indent + 2)
        element.write(to: &text, indent: indent + 2)
      }
      text += "\n" + String(repeating: " ", count: indent) + "]"
    case .object(let members):
      guard !members.isEmpty else { return text += "{\n\n" + String(repeating: " ", count: indent) + "}" }
      text += "{\n"
      let keys = members.keys.sorted { a, b in
        let (lowerA, lowerB) = (a.lowercased(), b.lowercased())
        return lowerA != lowerB ? lowerA < lowerB : a < b
      }
      for (index, key) in keys.enumerated() {
        if index > 0 { text += ",\n" }
        text += String(repeating: " ", count: indent + 2)
        Self.quote(key, into: &text)
        text += " : "
        members[key]!.write(to: &text, indent: indent + 2)
      }
      text += "\n" + String(repeating: " ", count: indent) + "}"
    }
  }

  static func quote(_ string: String, into text: inout String) {
    text += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": text += "\\\""
      case "\\": text += "\\\\"
      case "/": text += "\\/"
      case "\n": text += "\\n"
      case "\r": text += "\\r"
      case "\t": text += "\\t"
      case "\u{08}": text += "\\b"
      case "\u{0C}": text += "\\f"
      case _ where scalar.value < 0x20:
        let hex = String(scalar.value, radix: 16)
        text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: text.unicodeScalars.append(scalar)
      }
    }
    text += "\""
  }
}

private struct NodeEncoder: Encoder {
  let node: JSONNode
  var codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    if case .object = node.value {} else { node.value = .object([:]) }
    return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    if case .array = node.value {} else { node.value = .array([]) }
    return UnkeyedNodeContainer(node: node, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleNodeContainer(node: node, codingPath: codingPath)
  }
}

/// Encodes one value into `node`: strings, booleans and integers as JSON
/// scalars, anything else through its own `encode(to:)`.
private func encodeValue<T: Encodable>(_ value: T, into node: JSONNode, codingPath: [any CodingKey]) throws {
  switch value {
  case let string as String: node.value = .string(string)
  case let bool as Bool: node.value = .literal(bool ? "true" : "false")
  case let integer as any BinaryInteger: node.value = .literal("\(integer)")
  case let number as Double: node.value = .literal("\(number)")
  case let number as Float: node.value = .literal("\(number)")
  default: try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
  }
}

private struct AnyKey: CodingKey {
  var stringValue: String
  var intValue: Int?
  init(stringValue: String) { self.stringValue = stringValue }
  init(intValue: Int) { (stringValue, self.intValue) = ("\(intValue)", intValue) }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let node: JSONNode
  var codingPath: [any CodingKey]

  mutating func encodeNil(forKey key: Key) throws { node.member(key.stringValue).value = .literal("null") }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try encodeValue(value, into: node.member(key.stringValue), codingPath: codingPath + [key])
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    NodeEncoder(node: node.member("super"), codingPath: codingPath + [AnyKey(stringValue: "super")])
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    NodeEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
  }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
  let node: JSONNode
  var codingPath: [any CodingKey]
  var count: Int {
    if case .array(let elements) = node.value { return elements.count }
    return 0
  }

  private var nextPath: [any CodingKey] { codingPath + [AnyKey(intValue: count)] }

  mutating func encodeNil() throws { node.appendElement().value = .literal("null") }

  mutating func encode<T: Encodable>(_ value: T) throws {
    let path = nextPath
    try encodeValue(value, into: node.appendElement(), codingPath: path)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
    let path = nextPath
    return NodeEncoder(node: node.appendElement(), codingPath: path).container(keyedBy: keyType)
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let path = nextPath
    return NodeEncoder(node: node.appendElement(), codingPath: path).unkeyedContainer()
  }

  mutating func superEncoder() -> any Encoder {
    let path = nextPath
    return NodeEncoder(node: node.appendElement(), codingPath: path)
  }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
  let node: JSONNode
  var codingPath: [any CodingKey]

  mutating func encodeNil() throws { node.value = .literal("null") }

  mutating func encode<T: Encodable>(_ value: T) throws {
    try encodeValue(value, into: node, codingPath: codingPath)
  }
}

/// The AI SDK's best-effort reading of a tool call's input while it is still streaming
/// (`parsePartialJson` and `fixJson` in packages/ai/src/util): parse the text as it is; if that
/// fails, close what is open (strings, objects, arrays, a half-written literal), drop a dangling
/// tail (a half key, a trailing comma, a lone minus) and parse again; if that fails too, the input
/// is undefined.
public enum PartialJSON {
    public static func parse(_ text: String) -> JSON? {
        if let value = secureParse(text) { return value }
        return secureParse(repair(text))
    }

    /// `JSON.parse` as the SDK's `secureJsonParse` does it: objects with a `__proto__` key, or a
    /// `constructor` holding a `prototype`, are refused.
    static func secureParse(_ text: String) -> JSON? {
        guard let value = try? JSON.parse(text), !value.hasForbiddenPrototypeKey else { return nil }
        return value.inJavaScriptKeyOrder()
    }

    private enum State {
        case root, finish
        case insideString, insideStringEscape, insideStringUnicodeEscape
        case insideLiteral, insideNumber
        case insideObjectStart, insideObjectKey, insideObjectAfterKey, insideObjectBeforeValue
        case insideObjectAfterValue, insideObjectAfterComma
        case insideArrayStart, insideArrayAfterValue, insideArrayAfterComma
    }

    /// `fixJson`: one linear scan, then the closing characters for whatever is still open.
    /// The SDK scans UTF-16 code units; every character it acts on is ASCII, so scanning Unicode
    /// scalars (and cutting after a whole scalar) gives the same text.
    public static func repair(_ input: String) -> String {
        let scalars = Array(input.unicodeScalars)
        var stack: [State] = [.root]
        var lastValidIndex = -1
        var literalStart = 0
        var unicodeEscapeDigits = 0

        func processValueStart(_ c: Unicode.Scalar, _ i: Int, _ swap: State) {
            switch c {
            case "\"":
                lastValidIndex = i; stack.removeLast(); stack.append(swap); stack.append(.insideString)
            case "f", "t", "n":
                lastValidIndex = i; literalStart = i
                stack.removeLast(); stack.append(swap); stack.append(.insideLiteral)
            case "-":
                stack.removeLast(); stack.append(swap); stack.append(.insideNumber)
            case "0"..."9":
                lastValidIndex = i; stack.removeLast(); stack.append(swap); stack.append(.insideNumber)
            case "{":
                lastValidIndex = i; stack.removeLast(); stack.append(swap); stack.append(.insideObjectStart)
            case "[":
                lastValidIndex = i; stack.removeLast(); stack.append(swap); stack.append(.insideArrayStart)
            default: break
            }
        }
        func processAfterObjectValue(_ c: Unicode.Scalar, _ i: Int) {
            if c == "," { stack.removeLast(); stack.append(.insideObjectAfterComma) }
            else if c == "}" { lastValidIndex = i; stack.removeLast() }
        }
        func processAfterArrayValue(_ c: Unicode.Scalar, _ i: Int) {
            if c == "," { stack.removeLast(); stack.append(.insideArrayAfterComma) }
            else if c == "]" { lastValidIndex = i; stack.removeLast() }
        }
        func literal(_ from: Int, _ through: Int) -> String {
            var s = String.UnicodeScalarView()
            s.append(contentsOf: scalars[from...through])
            return String(s)
        }
        func isLiteralPrefix(_ s: String) -> Bool {
            "false".hasPrefix(s) || "true".hasPrefix(s) || "null".hasPrefix(s)
        }

        for (i, c) in scalars.enumerated() {
            switch stack.last! {
            case .root: processValueStart(c, i, .finish)
            case .insideObjectStart:
                if c == "\"" { stack.removeLast(); stack.append(.insideObjectKey) }
                else if c == "}" { lastValidIndex = i; stack.removeLast() }
            case .insideObjectAfterComma:
                if c == "\"" { stack.removeLast(); stack.append(.insideObjectKey) }
            case .insideObjectKey:
                if c == "\"" { stack.removeLast(); stack.append(.insideObjectAfterKey) }
            case .insideObjectAfterKey:
                if c == ":" { stack.removeLast(); stack.append(.insideObjectBeforeValue) }
            case .insideObjectBeforeValue: processValueStart(c, i, .insideObjectAfterValue)
            case .insideObjectAfterValue: processAfterObjectValue(c, i)
            case .insideString:
                if c == "\"" { stack.removeLast(); lastValidIndex = i }
                else if c == "\\" { stack.append(.insideStringEscape) }
                else { lastValidIndex = i }
            case .insideArrayStart:
                if c == "]" { lastValidIndex = i; stack.removeLast() }
                else { lastValidIndex = i; processValueStart(c, i, .insideArrayAfterValue) }
            case .insideArrayAfterValue:
                if c == "," { stack.removeLast(); stack.append(.insideArrayAfterComma) }
                else if c == "]" { lastValidIndex = i; stack.removeLast() }
                else { lastValidIndex = i }
            case .insideArrayAfterComma: processValueStart(c, i, .insideArrayAfterValue)
            case .insideStringEscape:
                stack.removeLast()
                if c == "u" { unicodeEscapeDigits = 0; stack.append(.insideStringUnicodeEscape) }
                else { lastValidIndex = i }
            case .insideStringUnicodeEscape:
                if c.properties.isASCIIHexDigit {
                    unicodeEscapeDigits += 1
                    if unicodeEscapeDigits == 4 { stack.removeLast(); lastValidIndex = i }
                }
            case .insideNumber:
                switch c {
                case "0"..."9": lastValidIndex = i
                case "e", "E", "-", ".": break
                case ",":
                    stack.removeLast()
                    if stack.last == .insideArrayAfterValue { processAfterArrayValue(c, i) }
                    if stack.last == .insideObjectAfterValue { processAfterObjectValue(c, i) }
                case "}":
                    stack.removeLast()
                    if stack.last == .insideObjectAfterValue { processAfterObjectValue(c, i) }
                case "]":
                    stack.removeLast()
                    if stack.last == .insideArrayAfterValue { processAfterArrayValue(c, i) }
                default: stack.removeLast()
                }
            case .insideLiteral:
                if !isLiteralPrefix(literal(literalStart, i)) {
                    stack.removeLast()
                    if stack.last == .insideObjectAfterValue { processAfterObjectValue(c, i) }
                    else if stack.last == .insideArrayAfterValue { processAfterArrayValue(c, i) }
                } else {
                    lastValidIndex = i
                }
            case .finish: break
            }
        }

        var result = String.UnicodeScalarView()
        if lastValidIndex >= 0 { result.append(contentsOf: scalars[0...lastValidIndex]) }
        var text = String(result)
        for state in stack.reversed() {
            switch state {
            case .insideString: text += "\""
            case .insideObjectKey, .insideObjectAfterKey, .insideObjectAfterComma, .insideObjectStart,
                .insideObjectBeforeValue, .insideObjectAfterValue:
                text += "}"
            case .insideArrayStart, .insideArrayAfterComma, .insideArrayAfterValue: text += "]"
            case .insideLiteral:
                let partial = scalars.isEmpty ? "" : literal(literalStart, scalars.count - 1)
                for word in ["true", "false", "null"] where word.hasPrefix(partial) {
                    text += word.dropFirst(partial.count)
                    break
                }
            default: break
            }
        }
        return text
    }
}

extension JSON {
    /// What the SDK's secure JSON parser refuses: a `__proto__` key anywhere, or a `constructor`
    /// key whose value is an object with a `prototype` key.
    var hasForbiddenPrototypeKey: Bool {
        switch self {
        case .array(let items): return items.contains { $0.hasForbiddenPrototypeKey }
        case .object(let object):
            for (key, value) in object {
                if key == "__proto__" { return true }
                if key == "constructor", case .object(let inner) = value, inner["prototype"] != nil { return true }
                if value.hasForbiddenPrototypeKey { return true }
            }
            return false
        default: return false
        }
    }
}

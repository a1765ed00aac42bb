import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// A secret found in a text: its kind, the line it is on (from 1) and where it is (UTF-8 offsets).
public struct SecretFinding: Sendable, Equatable {
    public let kind: String
    public let line: Int
    public let range: Range<Int>
}

/// Finds secrets of the shapes in `SecretRule.all` with regcomp(3)/regexec(3) (the C library's
/// regular expressions: nothing more to load at start-up). The rules are compiled the first time
/// a text is scanned, not before: a command that sends nothing pays nothing.
public enum SecretScanner {
    /// Every secret in `text`, in order, none overlapping another.
    public static func findings(in text: String) -> [SecretFinding] {
        var bytes = Array(text.utf8)
        bytes.append(0)  // regexec reads C strings; REG_STARTEND bounds each search anyway
        return bytes.withUnsafeBufferPointer { scan($0, count: $0.count - 1) }
    }

    /// `text` with each secret replaced by `[REDACTED:kind]`, and what was replaced.
    public static func redact(_ text: String) -> (text: String, findings: [SecretFinding]) {
        let found = findings(in: text)
        guard !found.isEmpty else { return (text, []) }
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var at = 0
        for finding in found {
            out.append(contentsOf: bytes[at..<finding.range.lowerBound])
            out.append(contentsOf: Array("[REDACTED:\(finding.kind)]".utf8))
            at = finding.range.upperBound
        }
        out.append(contentsOf: bytes[at...])
        return (String(decoding: out, as: UTF8.self), found)
    }

    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>, count: Int) -> [SecretFinding] {
        guard count > 0 else { return [] }
        let lower = buffer[0..<count].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        var lineStarts = [0]
        for index in 0..<count where buffer[index] == 0x0A { lineStarts.append(index + 1) }
        var found: [SecretFinding] = []
        for rule in CompiledRule.all {
            for line in candidateLines(rule.rule.keywords, lower, lineStarts) {
                let start = lineStarts[line]
                let end = line + 1 < lineStarts.count ? lineStarts[line + 1] - 1 : count
                for var range in rule.matches(buffer, from: start, to: end) {
                    if let isPlaceholder = rule.rule.isPlaceholder,
                       isPlaceholder(String(decoding: buffer[range], as: UTF8.self)) { continue }
                    if rule.rule.kind == SecretRule.privateKeyKind {
                        range = range.lowerBound..<(CompiledRule.privateKeyEnd.firstMatchEnd(buffer, from: range.upperBound, to: count) ?? count)
                    }
                    found.append(SecretFinding(kind: rule.rule.kind, line: line + 1, range: range))
                }
            }
        }
        // In order; where two overlap (a private key's block, a token in a password line) the first and longest wins.
        found.sort { ($0.range.lowerBound, -$0.range.count) < ($1.range.lowerBound, -$1.range.count) }
        var kept: [SecretFinding] = []
        for finding in found where kept.last.map({ $0.range.upperBound <= finding.range.lowerBound }) ?? true {
            kept.append(finding)
        }
        return kept
    }

    /// The lines (from 0) holding one of `keywords` in the lower-cased text.
    private static func candidateLines(_ keywords: [String], _ lower: [UInt8], _ lineStarts: [Int]) -> [Int] {
        var lines = Set<Int>()
        lower.withUnsafeBytes { haystack in
            for keyword in keywords {
                let needle = Array(keyword.utf8)
                var at = 0
                while let offset = find(needle, in: haystack, from: at) {
                    // The last line start at or before the hit.
                    var low = 0, high = lineStarts.count - 1
                    while low < high {
                        let mid = (low + high + 1) / 2
                        if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
                    }
                    lines.insert(low)
                    at = low + 1 < lineStarts.count ? lineStarts[low + 1] : haystack.count  // the next line
                }
            }
        }
        return lines.sorted()
    }

    /// The offset of the first `needle` in `haystack` at or after `from` (memchr on its first byte).
    private static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from: Int) -> Int? {
        guard let base = haystack.baseAddress, !needle.isEmpty else { return nil }
        var at = from
        while at + needle.count <= haystack.count {
            guard let offset = ByteSearch.first(needle[0], in: haystack, from: at), offset + needle.count <= haystack.count
            else { return nil }
            if memcmp(base + offset, needle, needle.count) == 0 { return offset }
            at = offset + 1
        }
        return nil
    }
}

/// A rule compiled by regcomp(3), once, on first use.
final class CompiledRule: @unchecked Sendable {
    let rule: SecretRule
    private let regex: UnsafeMutablePointer<regex_t>

    init(_ rule: SecretRule, lineByLine: Bool = true) {
        self.rule = rule
        regex = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
        let flags = REG_EXTENDED | (lineByLine ? REG_NEWLINE : 0) | (rule.ignoresCase ? REG_ICASE : 0)
        let status = regcomp(regex, rule.pattern, flags)
        precondition(status == 0, "secret rule \(rule.kind) does not compile: \(rule.pattern)")
    }

    static let all = SecretRule.all.map { CompiledRule($0) }
    static let privateKeyEnd = CompiledRule(
        SecretRule(SecretRule.privateKeyKind, keywords: [], SecretRule.privateKeyEnd, ignoresCase: true, source: "gitleaks private-key"),
        lineByLine: false)

    /// The ranges of the rule's secret group in buffer[from..<to], one per match.
    func matches(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var at = from
        while at <= to, let match = search(buffer, from: at, to: to, notAtLineStart: at > from) {
            let (whole, secret) = match
            if !secret.isEmpty { ranges.append(secret) }
            at = max(whole.upperBound, whole.lowerBound + 1)
            if at > to || whole.upperBound == to { break }
        }
        return ranges
    }

    func firstMatchEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
        search(buffer, from: from, to: to, notAtLineStart: true)?.whole.upperBound
    }

    private func search(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int, notAtLineStart: Bool)
        -> (whole: Range<Int>, secret: Range<Int>)? {
        let groups = rule.group + 1
        var match = [regmatch_t](repeating: regmatch_t(), count: max(groups, 1))
        match[0].rm_so = regoff_t(from)
        match[0].rm_eo = regoff_t(to)
        let status = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
            regexec(regex, $0, groups, &match, REG_STARTEND | (notAtLineStart ? REG_NOTBOL : 0))
        }
        guard status == 0 else { return nil }
        let whole = Int(match[0].rm_so)..<Int(match[0].rm_eo)
        let secret = match[rule.group].rm_so < 0 ? whole : Int(match[rule.group].rm_so)..<Int(match[rule.group].rm_eo)
        return (whole, secret)
    }
}

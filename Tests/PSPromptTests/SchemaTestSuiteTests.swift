import Foundation
import PSCore
import Testing
@testable import PSPrompt

/// The validator against the official JSON-Schema-Test-Suite (Debian's json-schema-test-suite,
/// draft 7), for the keywords it supports: every case either passes or has its schema refused
/// (a keyword it does not know, or a $ref it does not follow); none is answered wrongly. The
/// files of keywords it does not support must have every schema refused.
@Suite struct SchemaTestSuiteTests {
    static let folder = "/usr/share/json-schema-test-suite/tests/draft7/"

    struct Tally: Equatable, CustomStringConvertible {
        var passed = 0, failed = 0, refused = 0
        var description: String { "\(passed) passed, \(failed) failed, \(refused) refused" }
    }

    /// Runs one file of the suite: each group's schema, then each of its cases.
    static func run(_ file: String, failures: inout [String]) throws -> Tally {
        let text = try String(contentsOfFile: folder + file + ".json", encoding: .utf8)
        var tally = Tally()
        for group in try JSON.parse(text).arrayValue ?? [] {
            let cases = group["tests"]?.arrayValue ?? []
            guard let schema = try? JSONSchema(group["schema"]!) else {
                tally.refused += cases.count
                continue
            }
            for test in cases {
                let expected = test["valid"]?.boolValue ?? false
                if schema.isValid(test["data"]!) == expected {
                    tally.passed += 1
                } else {
                    tally.failed += 1
                    failures.append("\(file): \(group["description"]?.stringValue ?? "") / \(test["description"]?.stringValue ?? "")")
                }
            }
        }
        return tally
    }

    /// Each supported keyword's file, and how its cases come out: measured, then kept here so
    /// that a change to the validator that loses a case shows.
    static let supported: [(file: String, tally: Tally)] = [
        ("type", Tally(passed: 59)),
        ("properties", Tally(passed: 10, refused: 8)),  // patternProperties
        ("required", Tally(passed: 7)),
        ("additionalProperties", Tally(passed: 6, refused: 8)),  // patternProperties
        ("items", Tally(passed: 17)),
        ("enum", Tally(passed: 9)),
        ("const", Tally(passed: 12)),
        ("minimum", Tally(passed: 4)),
        ("maximum", Tally(passed: 4)),
        ("minLength", Tally(passed: 5)),
        ("maxLength", Tally(passed: 5)),
        ("pattern", Tally(passed: 4)),
        ("anyOf", Tally(passed: 14)),
        ("oneOf", Tally(passed: 15)),
        ("ref", Tally(passed: 14, refused: 13)),  // $ref beside keywords, $id, remote refs
        ("definitions", Tally(passed: 0, refused: 2)),  // a $ref to the draft 7 meta-schema
        ("boolean_schema", Tally(passed: 18)),
    ]

    @Test func supportedKeywordsPassTheSuite() throws {
        var failures: [String] = []
        var total = Tally()
        for (file, expected) in Self.supported {
            let tally = try Self.run(file, failures: &failures)
            print("draft7/\(file).json: \(tally)")
            #expect(tally == expected, "draft7/\(file).json")
            total.passed += tally.passed
            total.failed += tally.failed
            total.refused += tally.refused
        }
        print("supported keywords, in all: \(total)")
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }

    /// Files of keywords the validator does not know: every schema using them is refused
    /// (additionalItems.json has one group without the keyword, which passes).
    @Test func unsupportedKeywordsAreRefused() throws {
        let files = ["allOf", "not", "multipleOf", "exclusiveMinimum", "exclusiveMaximum", "uniqueItems", "minItems",
                     "maxItems", "minProperties", "maxProperties", "contains", "dependencies", "if-then-else",
                     "patternProperties", "propertyNames", "additionalItems", "refRemote"]
        var failures: [String] = []
        for file in files {
            let tally = try Self.run(file, failures: &failures)
            print("draft7/\(file).json: \(tally)")
            #expect(tally.passed == (file == "additionalItems" ? 1 : 0) && tally.refused > 0, "draft7/\(file).json: \(tally)")
        }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}

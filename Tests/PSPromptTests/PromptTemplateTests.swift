import PSCore
import Testing
@testable import PSPrompt

@Suite struct PromptTemplateTests {
    @Test func fillsPlaceholdersFromVarsAndStdin() throws {
        let template = try PromptTemplate(text: "Review {{ project }} for {{who}}:\n{{stdin}}\nThanks, {{who}}.", source: "t")
        #expect(template.placeholders == ["project", "who", "stdin"])
        let text = try template.fill(["project": "ps-tools", "who": "Ann"], stdin: "diff --git")
        #expect(text == "Review ps-tools for Ann:\ndiff --git\nThanks, Ann.")
    }

    @Test func pipedTextWithoutStdinPlaceholderFollowsTheMessage() throws {
        let template = try PromptTemplate(text: "Summarise for {{who}}", source: "t")
        #expect(try template.fill(["who": "Bo"], stdin: "text") == "Summarise for Bo\n\ntext")
        #expect(try template.fill(["who": "Bo"], stdin: nil) == "Summarise for Bo")
    }

    @Test func missingAndUnusedValuesAreUsageErrorsNamingThem() throws {
        let template = try PromptTemplate(text: "Hello {{name}}", source: "--template t")
        let missing = #expect(throws: ToolError.self) { try template.fill([:], stdin: nil) }
        #expect(missing?.status == .usage)
        #expect(missing?.message == "--template t: {{name}} has no value (give --var name=VALUE)")
        let unused = #expect(throws: ToolError.self) { try template.fill(["name": "a", "extra": "b"], stdin: nil) }
        #expect(unused?.message == "--var extra: --template t has no {{extra}}")
        let stdin = #expect(throws: ToolError.self) { try PromptTemplate(text: "{{stdin}}", source: "t").fill([:], stdin: nil) }
        #expect(stdin?.message == "t: {{stdin}} has no value (pipe the text in)")
    }

    @Test func backslashWritesALiteralDoubleBraceAndAStrayOneIsRefused() throws {
        let template = try PromptTemplate(text: #"Go's \{{.Name}} and {{x}}"#, source: "t")
        #expect(try template.fill(["x": "y"], stdin: nil) == "Go's {{.Name}} and y")
        let stray = #expect(throws: ToolError.self) { try PromptTemplate(text: "one\ntwo {{ not a name }}", source: "t") }
        #expect(stray?.message == #"t, line 2: {{ starts no placeholder ({{name}}); write \{{ for a literal {{"#)
    }

    @Test func frontMatterSetsSystemModelAndSchema() throws {
        let text = """
            ---
            system: |
              You review code.
              Briefly.
            model: "gpt-5.4-mini"
            schema: review.json
            ---
            Review {{stdin}}
            """
        let template = try PromptTemplate(text: text, source: "t", folder: "/tpl/")
        #expect(template.system == "You review code.\nBriefly.")
        #expect(template.model == "gpt-5.4-mini")
        #expect(template.schema == "/tpl/review.json")
        #expect(try template.fill([:], stdin: "x") == "Review x")
        let unknown = #expect(throws: ToolError.self) { try PromptTemplate(text: "---\ntemperature: 1\n---\nhi", source: "t") }
        #expect(unknown?.message == "t, line 2: the front matter sets only system, model and schema (key: value)")
    }

    @Test func varArgumentsAreNameEqualsValue() throws {
        #expect(try PromptTemplate.variable("a=b=c") == ("a", "b=c"))
        #expect(throws: ToolError.self) { try PromptTemplate.variable("noequals") }
        #expect(throws: ToolError.self) { try PromptTemplate.variable("=x") }
    }
}

@Suite struct SchemaValidationTests {
    let schema = try! JSONSchema(JSON.parse("""
        {"type":"object","required":["name","tags"],"additionalProperties":false,
         "properties":{"name":{"type":"string","minLength":2,"pattern":"^[A-Z]"},
                       "age":{"type":"integer","minimum":0},
                       "tags":{"type":"array","items":{"$ref":"#/definitions/tag"}}},
         "definitions":{"tag":{"enum":["a","b"]}}}
        """))

    @Test func errorsNameTheirPlaceAsJqDoes() throws {
        let errors = schema.validate(try JSON.parse(#"{"name":"x","age":1.5,"tags":["a","c"],"more":1}"#))
        #expect(errors.map(\.description) == [
            #".name: is 1 characters long, shorter than minLength 2"#,
            #".name: does not match the pattern "^[A-Z]""#,
            #".age: is a number, not an integer"#,
            #".tags[1]: is not one of the values allowed: ["a","b"]"#,
            #".: has a member "more" the schema does not allow (additionalProperties)"#,
        ])
        #expect(schema.validate(try JSON.parse(#"{"name":"Ann","tags":[]}"#)).isEmpty)
    }

    @Test func unsupportedKeywordsRefuseTheSchema() throws {
        let refused = #expect(throws: ToolError.self) { try JSONSchema(JSON.parse(#"{"properties":{"d":{"format":"date"}}}"#)) }
        #expect(refused?.status == .usage)
        #expect(refused?.message.hasPrefix(#"--schema: unsupported keyword "format" (this validator knows type, "#) == true)
        #expect(refused?.message.hasSuffix("at #/properties/d/format") == true)
        #expect(throws: ToolError.self) { try JSONSchema(JSON.parse(#"{"$ref":"other.json#/a"}"#)) }
        #expect(throws: ToolError.self) { try JSONSchema(JSON.parse(#"{"pattern":"(unclosed"}"#)) }
    }

    @Test func answersAreReadFromFencesAndRepairedWithTheirErrors() throws {
        let answer = SchemaAnswer(text: "```json\n{\"name\":\"Ann\"}\n```", schema: schema)
        #expect(answer.value == ["name": "Ann"])
        #expect(answer.firstError == #"at .: has no member "tags", which is required"#)
        #expect(answer.repairMessage() == """
            Your answer does not match the JSON Schema:
            - at .: has no member "tags", which is required
            Answer again with only the corrected JSON value (no other text, no code fence) that matches this JSON Schema:
            \(schema.json.serialized())
            """)
        let prose = SchemaAnswer(text: "Sure! Here it is.", schema: schema)
        #expect(prose.value == nil && !prose.isValid)
        #expect(prose.firstError.hasPrefix("at .: is not JSON"))
    }

    @Test func aSelfReferenceThatNeverEntersTheValueEnds() throws {
        let looping = try JSONSchema(JSON.parse(##"{"anyOf":[{"$ref":"#"}]}"##))
        #expect(!looping.isValid(1))
    }
}

// Tool parts, following the SDK's updateToolPart / updateDynamicToolPart: a static tool is a
// `tool-<name>` part, a dynamic one a `dynamic-tool` part with `toolName`. A new part gets every
// key of the SDK's literal (undefined ones included, so a later value lands in the SDK's
// position); an existing part is assigned field by field in the SDK's order.

extension MessageAssembler {
    /// The options object the SDK passes to its tool-part updaters.
    struct ToolUpdate {
        var toolName: String
        var toolCallId: String
        var state: String
        var input: JSON? = nil
        var output: JSON? = nil
        var rawInput: JSON? = nil
        var errorText: String? = nil
        var providerExecuted: Bool? = nil
        var preliminary: Bool? = nil
        var providerMetadata: JSON? = nil
        var title: String? = nil
        var toolMetadata: JSON? = nil

        var isResult: Bool { state == "output-available" || state == "output-error" }
    }

    static func isStaticTool(_ part: PartObject) -> Bool {
        guard case .string(let type)? = part["type"] else { return false }
        return type.hasPrefix("tool-")
    }

    static func isTool(_ part: PartObject) -> Bool {
        isStaticTool(part) || part["type"] == "dynamic-tool"
    }

    private func currentStepIndex(where matches: (PartObject) -> Bool) -> Int? {
        let start = currentStepStart
        return parts[start...].firstIndex(where: matches)
    }

    mutating func updateToolPart(_ o: ToolUpdate, existing: Int? = nil, _ changes: inout [MessageChange]) {
        let found = existing ?? currentStepIndex { Self.isStaticTool($0) && $0["toolCallId"] == .string(o.toolCallId) }
        guard let index = found else {
            var part = PartObject([
                ("type", .string("tool-" + o.toolName)), ("toolCallId", .string(o.toolCallId)),
                ("state", .string(o.state)), ("title", o.title.map(JSON.string)),
            ])
            if let toolMetadata = o.toolMetadata { part["toolMetadata"] = toolMetadata }
            part["input"] = o.input
            part["output"] = o.output
            part["rawInput"] = o.rawInput
            part["errorText"] = o.errorText.map(JSON.string)
            part["providerExecuted"] = o.providerExecuted.map(JSON.bool)
            part["preliminary"] = o.preliminary.map(JSON.bool)
            if let metadata = o.providerMetadata {
                part[o.isResult ? "resultProviderMetadata" : "callProviderMetadata"] = metadata
            }
            append(part, &changes)
            return
        }
        var part = parts[index]
        part["state"] = .string(o.state)
        part["input"] = o.input
        part["output"] = o.output
        part["errorText"] = o.errorText.map(JSON.string)
        part["rawInput"] = o.rawInput
        part["preliminary"] = o.preliminary.map(JSON.bool)
        finishToolUpdate(o, part, at: index, &changes)
    }

    mutating func updateDynamicToolPart(_ o: ToolUpdate, existing: Int? = nil, _ changes: inout [MessageChange]) {
        let found = existing ?? currentStepIndex { $0["type"] == "dynamic-tool" && $0["toolCallId"] == .string(o.toolCallId) }
        guard let index = found else {
            var part = PartObject([
                ("type", "dynamic-tool"), ("toolName", .string(o.toolName)), ("toolCallId", .string(o.toolCallId)),
                ("state", .string(o.state)), ("input", o.input), ("output", o.output),
                ("errorText", o.errorText.map(JSON.string)), ("preliminary", o.preliminary.map(JSON.bool)),
                ("providerExecuted", o.providerExecuted.map(JSON.bool)), ("title", o.title.map(JSON.string)),
            ])
            if let toolMetadata = o.toolMetadata { part["toolMetadata"] = toolMetadata }
            if let metadata = o.providerMetadata {
                part[o.isResult ? "resultProviderMetadata" : "callProviderMetadata"] = metadata
            }
            append(part, &changes)
            return
        }
        var part = parts[index]
        part["state"] = .string(o.state)
        part["toolName"] = .string(o.toolName)
        part["input"] = o.input
        part["output"] = o.output
        part["errorText"] = o.errorText.map(JSON.string)
        part["rawInput"] = o.rawInput ?? part["rawInput"]
        part["preliminary"] = o.preliminary.map(JSON.bool)
        finishToolUpdate(o, part, at: index, &changes)
    }

    /// The fields both SDK updaters assign last, in the same order, to an existing tool part.
    private mutating func finishToolUpdate(_ o: ToolUpdate, _ part: PartObject, at index: Int, _ changes: inout [MessageChange]) {
        var part = part
        if let title = o.title { part["title"] = .string(title) }
        if let toolMetadata = o.toolMetadata { part["toolMetadata"] = toolMetadata }
        part["providerExecuted"] = o.providerExecuted.map(JSON.bool) ?? part["providerExecuted"]
        if let metadata = o.providerMetadata {
            part[o.isResult ? "resultProviderMetadata" : "callProviderMetadata"] = metadata
        }
        parts[index] = part
        changes.append(.partChanged(index))
    }

    private mutating func update(dynamic: Bool, _ o: ToolUpdate, existing: Int? = nil, _ changes: inout [MessageChange]) {
        if dynamic { updateDynamicToolPart(o, existing: existing, &changes) } else { updateToolPart(o, existing: existing, &changes) }
    }

    /// The SDK's getToolInvocation: the current step first, then the whole message from its end.
    func toolInvocation(_ toolCallId: String) throws -> Int {
        let id = JSON.string(toolCallId)
        if let index = currentStepIndex(where: { Self.isTool($0) && $0["toolCallId"] == id }) { return index }
        if let index = parts.lastIndex(where: { Self.isTool($0) && $0["toolCallId"] == id }) { return index }
        throw MalformedChunk("no tool call \"\(toolCallId)\" in the message")
    }

    /// The SDK's input values come straight from the chunk; keep JavaScript's key order.
    private func value(_ fields: ChunkFields, _ key: String) -> JSON? {
        fields.object[key].map { $0.inJavaScriptKeyOrder() }
    }

    mutating func toolInputStart(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let toolCallId = try fields.string("toolCallId")
        let toolName = try fields.string("toolName")
        let dynamic = try fields.optionalBool("dynamic")
        let title = try fields.optionalString("title")
        let toolMetadata = try fields.optionalObject("toolMetadata")
        partialToolCalls[toolCallId] = PartialToolCall(
            toolName: toolName, dynamic: dynamic, title: title, toolMetadata: toolMetadata)
        let o = ToolUpdate(
            toolName: toolName, toolCallId: toolCallId, state: "input-streaming",
            providerExecuted: try fields.optionalBool("providerExecuted"),
            providerMetadata: try fields.providerMetadata(), title: title, toolMetadata: toolMetadata)
        update(dynamic: dynamic == true, o, &changes)
    }

    mutating func toolInputDelta(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let toolCallId = try fields.string("toolCallId")
        let delta = try fields.string("inputTextDelta")
        guard var partial = partialToolCalls[toolCallId] else {
            throw MalformedChunk("tool-input-delta for tool call \"\(toolCallId)\", which was never started (no tool-input-start)")
        }
        partial.text += delta
        partialToolCalls[toolCallId] = partial
        let o = ToolUpdate(
            toolName: partial.toolName, toolCallId: toolCallId, state: "input-streaming",
            input: PartialJSON.parse(partial.text), title: partial.title, toolMetadata: partial.toolMetadata)
        update(dynamic: partial.dynamic == true, o, &changes)
    }

    mutating func toolInputAvailable(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let o = ToolUpdate(
            toolName: try fields.string("toolName"), toolCallId: try fields.string("toolCallId"),
            state: "input-available", input: value(fields, "input"),
            providerExecuted: try fields.optionalBool("providerExecuted"),
            providerMetadata: try fields.providerMetadata(), title: try fields.optionalString("title"),
            toolMetadata: try fields.optionalObject("toolMetadata"))
        update(dynamic: try fields.optionalBool("dynamic") == true, o, &changes)
    }

    mutating func toolInputError(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let toolCallId = try fields.string("toolCallId")
        var o = ToolUpdate(
            toolName: try fields.string("toolName"), toolCallId: toolCallId, state: "output-error",
            errorText: try fields.string("errorText"),
            providerExecuted: try fields.optionalBool("providerExecuted"),
            providerMetadata: try fields.providerMetadata(),
            toolMetadata: try fields.optionalObject("toolMetadata"))
        _ = try fields.optionalString("title")
        // A part already opened for this call keeps its kind (no duplicate of the other type).
        let existing = currentStepIndex { Self.isTool($0) && $0["toolCallId"] == .string(toolCallId) }
        let declaredDynamic = try fields.optionalBool("dynamic") == true
        let dynamic = existing.map { parts[$0]["type"] == "dynamic-tool" } ?? declaredDynamic
        if dynamic {
            o.input = value(fields, "input")
        } else {
            o.rawInput = value(fields, "input")
        }
        update(dynamic: dynamic, o, &changes)
    }

    mutating func toolApprovalRequest(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let approvalId = try fields.string("approvalId")
        let isAutomatic = try fields.optionalBool("isAutomatic")
        let signature = try fields.optionalString("signature")
        let index = try toolInvocation(try fields.string("toolCallId"))
        var approval = JSONObject()
        approval["id"] = .string(approvalId)
        if isAutomatic == true { approval["isAutomatic"] = true }
        if let signature { approval["signature"] = .string(signature) }
        parts[index]["state"] = "approval-requested"
        parts[index]["approval"] = .object(approval)
        changes.append(.partChanged(index))
    }

    mutating func toolApprovalResponse(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let approvalId = try fields.string("approvalId")
        let approved = try fields.bool("approved")
        let reason = try fields.optionalString("reason")
        let providerExecuted = try fields.optionalBool("providerExecuted")
        let providerMetadata = try fields.providerMetadata()
        guard let index = parts.firstIndex(where: { Self.isTool($0) && $0["approval"]?["id"] == .string(approvalId) })
        else { throw MalformedChunk("tool-approval-response for approval \"\(approvalId)\", which was never requested") }
        let previous = parts[index]["approval"]?.objectValue
        var approval = JSONObject()
        approval["id"] = .string(approvalId)
        approval["approved"] = .bool(approved)
        if let reason { approval["reason"] = .string(reason) }
        if previous?["isAutomatic"] == true { approval["isAutomatic"] = true }
        if let signature = previous?["signature"], !signature.isNull { approval["signature"] = signature }
        parts[index]["state"] = "approval-responded"
        parts[index]["approval"] = .object(approval)
        if let providerExecuted { parts[index]["providerExecuted"] = .bool(providerExecuted) }
        if let providerMetadata { parts[index]["callProviderMetadata"] = providerMetadata }
        changes.append(.partChanged(index))
    }

    mutating func toolOutputAvailable(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let output = value(fields, "output")
        let providerExecuted = try fields.optionalBool("providerExecuted")
        let providerMetadata = try fields.providerMetadata()
        let preliminary = try fields.optionalBool("preliminary")
        _ = try fields.optionalObject("toolMetadata")
        _ = try fields.optionalBool("dynamic")
        let index = try toolInvocation(try fields.string("toolCallId"))
        let part = parts[index]
        let o = ToolUpdate(
            toolName: toolName(of: part), toolCallId: try fields.string("toolCallId"), state: "output-available",
            input: part["input"], output: output, providerExecuted: providerExecuted, preliminary: preliminary,
            providerMetadata: providerMetadata, title: part["title"]?.stringValue, toolMetadata: part["toolMetadata"])
        update(dynamic: part["type"] == "dynamic-tool", o, existing: index, &changes)
    }

    mutating func toolOutputError(_ fields: ChunkFields, _ changes: inout [MessageChange]) throws {
        let errorText = try fields.string("errorText")
        let providerExecuted = try fields.optionalBool("providerExecuted")
        let providerMetadata = try fields.providerMetadata()
        _ = try fields.optionalObject("toolMetadata")
        _ = try fields.optionalBool("dynamic")
        let index = try toolInvocation(try fields.string("toolCallId"))
        let part = parts[index]
        let dynamic = part["type"] == "dynamic-tool"
        let o = ToolUpdate(
            toolName: toolName(of: part), toolCallId: try fields.string("toolCallId"), state: "output-error",
            input: part["input"], rawInput: dynamic ? nil : part["rawInput"], errorText: errorText,
            providerExecuted: providerExecuted, providerMetadata: providerMetadata,
            title: part["title"]?.stringValue, toolMetadata: part["toolMetadata"])
        update(dynamic: dynamic, o, existing: index, &changes)
    }

    /// `toolName` of a dynamic part, or the name in a static part's `tool-<name>` type.
    private func toolName(of part: PartObject) -> String {
        if part["type"] == "dynamic-tool" { return part["toolName"]?.stringValue ?? "" }
        return String((part["type"]?.stringValue ?? "tool-").dropFirst(5))
    }
}

import PSCore

/// The current server's refusals of a send's images, each a 400 `{error}` answered before
/// anything is stored: the file parts themselves (FilePartCheck), then whether the model can
/// see them (global-chat-turn.ts and page-chat-turn.ts in apps/web/src/lib/ai/chat-pipeline).
/// Only the last message counts, and only when it is the user's and has file parts.
enum ImageGate {
    static func checkFileParts(_ body: JSON) throws {
        guard let parts = fileCarryingParts(body) else { return }
        if let problem = FilePartCheck.problem(in: parts) { throw Refusal.badRequest(problem) }
    }

    /// `model` is the one the route judges by (the Global assistant: the request's
    /// selectedModel only, so none named is no check; Page AI: selectedModel, else the page's).
    static func checkVision(_ body: JSON, model: String?) throws {
        guard fileCarryingParts(body) != nil, let model, !model.isEmpty, !VisionModels.hasVision(model) else { return }
        throw Refusal.badRequest(
            "The selected model \"\(model)\" does not support image attachments. Please choose a vision-capable model.")
    }

    /// The parts of the body's last message when it is the user's and holds a file part.
    private static func fileCarryingParts(_ body: JSON) -> [JSON]? {
        guard let last = body["messages"]?.arrayValue?.last, last["role"]?.stringValue == "user",
            let parts = last["parts"]?.arrayValue?.filter({ $0.objectValue != nil }),
            parts.contains(where: { $0["type"]?.stringValue == "file" })
        else { return nil }
        return parts
    }
}

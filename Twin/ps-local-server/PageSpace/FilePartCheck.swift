import PSCore

/// The server's checks of a user message's file parts, in its order and words
/// (apps/web/src/lib/ai/core/validate-image-parts.ts, validateUserMessageFileParts, with
/// apps/web/src/lib/validation/image-validation.ts): the first problem found, or nil.
/// The routes answer it as 400 `{error}`.
enum FilePartCheck {
    static func problem(in parts: [JSON]) -> String? {
        let files = parts.filter { $0["type"]?.stringValue == "file" }
        if files.count > ImageMediaType.maxPerMessage {
            return "Too many image attachments: \(files.count) (max \(ImageMediaType.maxPerMessage))"
        }
        for (index, part) in files.enumerated() {
            let filename = part["filename"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "image-\(index + 1)"
            guard let url = part["url"]?.stringValue else { return "Image \"\(filename)\" is missing a valid url" }
            // An attachment the server stored already (a presigned URL naming its key) was
            // checked when first uploaded (apps/web/src/lib/upload/chat-attachment-storage.ts).
            if isStoredAttachment(url) { continue }
            // JavaScript's length: UTF-16 code units.
            if url.utf16.count > ImageMediaType.maxDataURLLength { return "Image \"\(filename)\" exceeds the 4MB size limit" }
            if !url.hasPrefix("data:") { return "Image \"\(filename)\" is not a valid data URL" }
            guard let (mediaType, base64) = dataURL(url) else { return "Invalid data URL format for \"\(filename)\"" }
            guard let type = ImageMediaType(rawValue: mediaType) else {
                return "File type \"\(mediaType)\" is not allowed for \"\(filename)\""
            }
            // atob: invalid base64 is a mismatch too.
            guard let bytes = Base64.decode(base64[...]), type.matches(bytes) else {
                return "Invalid magic bytes for \"\(filename)\": content does not match declared type \"\(mediaType)\""
            }
        }
        return nil
    }

    /// `/^data:([^;]+);base64,(.+)$/`: the media type and the base64 text, nil when the URL
    /// has not that shape (`.` matches no line terminator in JavaScript).
    static func dataURL(_ url: String) -> (String, String)? {
        let rest = url.dropFirst("data:".count)
        guard let semicolon = rest.firstIndex(of: ";"), semicolon != rest.startIndex else { return nil }
        let after = rest[semicolon...]
        guard after.hasPrefix(";base64,") else { return nil }
        let content = after.dropFirst(";base64,".count)
        let terminators: Set<Character> = ["\n", "\r", "\u{2028}", "\u{2029}", "\r\n"]
        guard !content.isEmpty, !content.contains(where: { terminators.contains($0) }) else { return nil }
        return (String(rest[..<semicolon]), String(content))
    }

    /// `/(chat-attachments\/[0-9a-f]{64}\/original)/` anywhere in the URL.
    static func isStoredAttachment(_ url: String) -> Bool {
        var search = url[...]
        while let range = search.range(of: "chat-attachments/") {
            let rest = search[range.upperBound...]
            let hex = rest.prefix(64)
            if hex.count == 64, hex.allSatisfy({ "0123456789abcdef".contains($0) }), rest.dropFirst(64).hasPrefix("/original") {
                return true
            }
            search = search[range.upperBound...]
        }
        return false
    }
}

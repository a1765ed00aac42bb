import PSCore
#if canImport(Glibc)
import Glibc
#endif

/// A file given with `ps-send --attach`: an image PageSpace takes, sent as a UIMessage file
/// part, or UTF-8 text, which becomes part of the message's text. Each is checked here as the
/// server checks file parts (type from the content, not the name; the data URL's size), and
/// more: an image's header must be whole and give its size (`ImageSize`), so a file that
/// only starts like an image is refused before anything is sent.
public enum Attachment: Sendable, Equatable {
    case image(ImageAttachment)
    case text(TextAttachment)

    /// The most bytes read of a file: larger ones are refused (an image's limit is lower still).
    public static let maxFileBytes = 4 * 1024 * 1024

    /// Image-like extensions of types PageSpace does not take: named, so the refusal can say so.
    static let otherImageExtensions: Set<String> = ["bmp", "tif", "tiff", "heic", "heif", "avif", "ico", "svg", "jxl"]

    /// Reads and classifies the file at `path`; every refusal is a usage error naming it.
    public static func load(_ path: String) throws -> Attachment {
        let shown = TerminalSafeText.sanitize(path)
        let bytes = try read(path, shown: shown)
        let name = fileName(of: path)
        if let type = ImageMediaType.sniff(bytes) {
            guard ImageSize.of(bytes, as: type) != nil else {
                throw ToolError(.usage, "--attach \(shown): starts like a \(type.name) image but is not one "
                    + "(its header is cut short or gives no size)")
            }
            let length = type.dataURLLength(byteCount: bytes.count)
            guard length <= ImageMediaType.maxDataURLLength else {
                let most = (ImageMediaType.maxDataURLLength - (length - Base64.encodedLength(bytes.count))) / 4 * 3
                throw ToolError(.usage, "--attach \(shown): the \(type.name) image is \(bytes.count) bytes; PageSpace takes at most "
                    + "4 MiB of data URL per image, \(most) bytes of \(type.name)")
            }
            return .image(ImageAttachment(filename: name, mediaType: type, url: type.dataURL(bytes)))
        }
        let ext = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        if let claimed = ImageMediaType.claimed(byFileName: name) {
            throw ToolError(.usage, "--attach \(shown): named .\(ext) but its content is not a \(claimed.name) image "
                + "(nor any other image PageSpace takes: JPEG, PNG, GIF, WebP)")
        }
        if otherImageExtensions.contains(ext) {
            throw ToolError(.usage, "--attach \(shown): .\(ext) images are not taken; PageSpace takes JPEG, PNG, GIF and WebP")
        }
        guard !bytes.contains(0), bytes.withUnsafeBytes({ UTF8Check.isValid($0) }) else {
            throw ToolError(.usage, "--attach \(shown): neither an image PageSpace takes (JPEG, PNG, GIF, WebP) nor UTF-8 text")
        }
        return .text(TextAttachment(filename: name, content: String(decoding: bytes, as: UTF8.self)))
    }

    /// The last component of a path.
    static func fileName(of path: String) -> String {
        let trimmed = path.reversed().drop { $0 == "/" }.reversed()
        let name = trimmed.split(separator: "/").last.map(String.init) ?? path
        return name.isEmpty ? path : name
    }

    /// The file's bytes; a path that cannot be read (missing, a directory, no permission) or
    /// a file over `maxFileBytes` is a usage error naming it.
    private static func read(_ path: String, shown: String) throws -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw ToolError(.usage, "--attach \(shown): cannot read it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw ToolError(.usage, "--attach \(shown): cannot read it: \(String(cString: strerror(errno)))")
            }
            if count == 0 { return bytes }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > maxFileBytes {
                throw ToolError(.usage, "--attach \(shown): over \(maxFileBytes) bytes, too large to attach")
            }
        }
    }
}

/// An image as a UIMessage file part: `{type:"file", mediaType, filename, url:"data:…;base64,…"}`.
public struct ImageAttachment: Sendable, Equatable {
    public let filename: String
    public let mediaType: ImageMediaType
    public let url: String

    public var filePart: JSON {
        ["type": "file", "mediaType": .string(mediaType.rawValue), "filename": .string(filename), "url": .string(url)]
    }
}

/// A text file, to be put into the message.
public struct TextAttachment: Sendable, Equatable {
    public let filename: String
    public let content: String

    /// The file as it goes into a message: its name and a colon on one line, then its content
    /// in a fenced block whose fence is longer than any run of backticks in it (at least 3).
    public var block: String {
        var longest = 0, run = 0
        for character in content {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        let body = content.isEmpty || content.hasSuffix("\n") ? content : content + "\n"
        return filename + ":\n" + fence + "\n" + body + fence
    }
}

/// The files of one message: text files go into its text, images become its file parts.
public struct AttachedFiles: Sendable {
    public private(set) var images: [ImageAttachment] = []
    public private(set) var texts: [TextAttachment] = []

    public init() {}

    /// Loads every path in order; more images than the server takes in one message is refused.
    public init(paths: [String]) throws {
        for path in paths {
            switch try Attachment.load(path) {
            case .image(let image): images.append(image)
            case .text(let text): texts.append(text)
            }
        }
        if images.count > ImageMediaType.maxPerMessage {
            throw ToolError(.usage, "--attach: \(images.count) images, but PageSpace takes at most \(ImageMediaType.maxPerMessage) in a message")
        }
    }

    /// `message`, then each text file's block, each after a blank line.
    public func text(withMessage message: String) -> String {
        ([message] + texts.map(\.block)).filter { !$0.isEmpty }.joined(separator: "\n\n")
    }

    /// Each text file with its content replaced by `transform`'s (a check that refuses or redacts).
    public mutating func mapTexts(_ transform: (TextAttachment) throws -> String) rethrows {
        texts = try texts.map { TextAttachment(filename: $0.filename, content: try transform($0)) }
    }

    public var fileParts: [JSON] { images.map(\.filePart) }
}

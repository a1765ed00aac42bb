/// The images PageSpace takes in a message's file parts, and the first bytes that each must
/// start with: the server trusts no declared type, only these
/// (apps/web/src/lib/validation/image-validation.ts, ALLOWED_IMAGE_TYPES and MAGIC_BYTES).
public enum ImageMediaType: String, CaseIterable, Sendable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case gif = "image/gif"
    case webp = "image/webp"

    /// The limits of apps/web/src/lib/ai/core/validate-image-parts.ts: file parts per
    /// message, and characters per data URL (4 MiB, the whole `data:…;base64,…` string).
    public static let maxPerMessage = 5
    public static let maxDataURLLength = 4 * 1024 * 1024

    /// The type as people name it.
    public var name: String {
        switch self {
        case .jpeg: return "JPEG"
        case .png: return "PNG"
        case .gif: return "GIF"
        case .webp: return "WebP"
        }
    }

    /// File name extensions that claim this type.
    public var extensions: [String] {
        switch self {
        case .jpeg: return ["jpg", "jpeg"]
        case .png: return ["png"]
        case .gif: return ["gif"]
        case .webp: return ["webp"]
        }
    }

    /// Whether `bytes` start as this type must: its magic bytes, and for WebP "WEBP" at
    /// offset 8 after the RIFF header.
    public func matches(_ bytes: some Collection<UInt8>) -> Bool {
        let magic: [UInt8]
        switch self {
        case .jpeg: magic = [0xFF, 0xD8, 0xFF]
        case .png: magic = [0x89, 0x50, 0x4E, 0x47]
        case .gif: magic = [0x47, 0x49, 0x46]  // "GIF"
        case .webp: magic = [0x52, 0x49, 0x46, 0x46]  // "RIFF"
        }
        guard bytes.starts(with: magic) else { return false }
        guard self == .webp else { return true }
        return bytes.count >= 12 && bytes.dropFirst(8).starts(with: [0x57, 0x45, 0x42, 0x50])  // "WEBP"
    }

    /// The type whose magic bytes `bytes` start with.
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageMediaType? {
        allCases.first { $0.matches(bytes) }
    }

    /// The type a file name's extension claims (ignoring case).
    public static func claimed(byFileName name: String) -> ImageMediaType? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = name[name.index(after: dot)...].lowercased()
        return allCases.first { $0.extensions.contains(ext) }
    }

    /// `data:<type>;base64,<bytes>`, the shape the server requires of a new image.
    public func dataURL(_ bytes: [UInt8]) -> String {
        "data:" + rawValue + ";base64," + Base64.encode(bytes)
    }

    /// The length of `dataURL(bytes)` for `count` bytes, without making it.
    public func dataURLLength(byteCount count: Int) -> Int {
        "data:".count + rawValue.count + ";base64,".count + Base64.encodedLength(count)
    }
}

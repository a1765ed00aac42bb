import PSCore

/// The size an image's header gives, read the way decoders read it: a file that only starts
/// like an image (`GIF89a` and nothing more) has no whole header and gives no size, so it is no
/// image. PNG: the signature, then the IHDR chunk first (width, height); GIF: the logical screen
/// descriptor; JPEG: the segments up to the first start-of-frame (SOF0–SOF15 but DHT, JPG, DAC);
/// WebP: the RIFF header, then a VP8 (lossy key frame), VP8L (lossless) or VP8X (extended) chunk.
public struct ImageSize: Equatable, Sendable {
    public let width: Int
    public let height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size `bytes` give as a `type` image, nil unless the header is whole and the size at
    /// least 1×1.
    public static func of(_ bytes: [UInt8], as type: ImageMediaType) -> ImageSize? {
        let size: ImageSize?
        switch type {
        case .png: size = png(bytes)
        case .gif: size = gif(bytes)
        case .jpeg: size = jpeg(bytes)
        case .webp: size = webp(bytes)
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return size
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    private static func littleEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        (at..<at + count).reversed().reduce(0) { $0 << 8 | Int(bytes[$1]) }
    }

    private static func png(_ bytes: [UInt8]) -> ImageSize? {
        // Signature (8), IHDR length 13 (4), "IHDR" (4), width (4), height (4), 5 more bytes, CRC (4).
        guard bytes.count >= 33, bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]),
              bigEndian(bytes, 8, 4) == 13, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
        return ImageSize(width: bigEndian(bytes, 16, 4), height: bigEndian(bytes, 20, 4))
    }

    private static func gif(_ bytes: [UInt8]) -> ImageSize? {
        // "GIF87a" or "GIF89a", then the logical screen descriptor (7 bytes).
        guard bytes.count >= 13, bytes[0..<6].elementsEqual("GIF87a".utf8) || bytes[0..<6].elementsEqual("GIF89a".utf8)
        else { return nil }
        return ImageSize(width: littleEndian(bytes, 6, 2), height: littleEndian(bytes, 8, 2))
    }

    private static func jpeg(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var index = 2
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF { index += 1; continue }  // fill byte
            index += 2
            // Markers without a length: TEM, RST0–7.
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { continue }
            guard marker != 0xD9, marker != 0xDA, index + 2 <= bytes.count else { return nil }  // EOI or scan before a frame
            let length = bigEndian(bytes, index, 2)
            guard length >= 2 else { return nil }
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                // Length (2), precision (1), height (2), width (2).
                guard length >= 7, index + 7 <= bytes.count else { return nil }
                return ImageSize(width: bigEndian(bytes, index + 5, 2), height: bigEndian(bytes, index + 3, 2))
            }
            index += length
        }
        return nil
    }

    private static func webp(_ bytes: [UInt8]) -> ImageSize? {
        guard bytes.count >= 20, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8)
        else { return nil }
        let chunk = String(decoding: bytes[12..<16], as: UTF8.self)
        switch chunk {
        case "VP8 ":
            // Frame tag (3), start code 9D 01 2A, then 14-bit width and height.
            guard bytes.count >= 30, bytes[23..<26].elementsEqual([0x9D, 0x01, 0x2A]) else { return nil }
            return ImageSize(width: littleEndian(bytes, 26, 2) & 0x3FFF, height: littleEndian(bytes, 28, 2) & 0x3FFF)
        case "VP8L":
            // Signature 0x2F, then width - 1 and height - 1 in 14 bits each.
            guard bytes.count >= 25, bytes[20] == 0x2F else { return nil }
            let bits = littleEndian(bytes, 21, 4)
            return ImageSize(width: (bits & 0x3FFF) + 1, height: (bits >> 14 & 0x3FFF) + 1)
        case "VP8X":
            // Flags (4), then canvas width - 1 and height - 1 in 24 bits each.
            guard bytes.count >= 30 else { return nil }
            return ImageSize(width: littleEndian(bytes, 24, 3) + 1, height: littleEndian(bytes, 27, 3) + 1)
        default:
            return nil
        }
    }
}

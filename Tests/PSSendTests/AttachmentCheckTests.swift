import Foundation
import Testing
import PSCore
@testable import PSSend

/// The base64 of data URLs and the image types PageSpace takes, known by their first bytes.
@Suite struct AttachmentCheckTests {
    @Test func base64MatchesFoundationBothWays() {
        for count in 0..<70 {
            let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
            let encoded = Base64.encode(bytes)
            #expect(encoded == Data(bytes).base64EncodedString())
            #expect(encoded.count == Base64.encodedLength(count))
            #expect(Base64.decode(encoded[...]) == bytes)
        }
    }

    @Test func base64DecodesAsAtobDoes() {
        #expect(Base64.decode("aGk"[...]) == Array("hi".utf8))  // padding optional
        #expect(Base64.decode("aG k=\n"[...]) == Array("hi".utf8))  // whitespace skipped
        #expect(Base64.decode("a"[...]) == nil)  // one symbol too many
        #expect(Base64.decode("aG*k"[...]) == nil)
        #expect(Base64.decode("a=Gk"[...]) == nil)  // padding only at the end
    }

    @Test func imagesAreKnownByTheirFirstBytes() {
        #expect(ImageMediaType.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D]) == .png)
        #expect(ImageMediaType.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageMediaType.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageMediaType.sniff(Array("RIFF\0\0\0\0WEBPVP8 ".utf8)) == .webp)
        #expect(ImageMediaType.sniff(Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == nil)
        #expect(ImageMediaType.sniff(Array("BM\0\0".utf8)) == nil)
        #expect(ImageMediaType.claimed(byFileName: "Photo.JPEG") == .jpeg)
        #expect(ImageMediaType.claimed(byFileName: ".png") == nil)
        #expect(ImageMediaType.png.dataURLLength(byteCount: 3_145_710) == 4_194_302)
    }

    @Test func aTextFileIsFencedUnderItsName() {
        #expect(TextAttachment(filename: "a.txt", content: "x").block == "a.txt:\n```\nx\n```")
        #expect(TextAttachment(filename: "b.md", content: "````\n").block == "b.md:\n`````\n````\n`````")
        #expect(AttachedFiles().text(withMessage: "hi") == "hi")
    }
}

/// An image is one only when its header is whole and gives a size: `GIF89a` alone, a PNG
/// signature without IHDR, a JPEG without a frame header, a RIFF/WEBP without a VP8 chunk
/// are not images.
@Suite struct ImageSizeTests {
    static let gif: [UInt8] = Array("GIF89a".utf8) + [0x03, 0x00, 0x02, 0x00, 0x80, 0x00, 0x00]
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 1, 0, 0, 0, 0, 0x20, 8, 6, 0, 0, 0, 0xAA, 0xBB, 0xCC, 0xDD]
    /// SOI, an APP0 (JFIF) segment, then SOF0: precision 8, height 2, width 5.
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
        + [0xFF, 0xC0, 0x00, 0x11, 0x08, 0x00, 0x02, 0x00, 0x05, 0x03]

    static func webp(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WEBP".utf8) + Array(chunk.utf8) + [0, 0, 0, 0] + payload
    }

    @Test func wholeHeadersGiveTheirSize() {
        #expect(ImageSize.of(Self.gif, as: .gif) == ImageSize(width: 3, height: 2))
        #expect(ImageSize.of(Self.png, as: .png) == ImageSize(width: 256, height: 32))
        #expect(ImageSize.of(Self.jpeg, as: .jpeg) == ImageSize(width: 5, height: 2))
        let lossy = Self.webp("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A, 0x40, 0x00, 0x30, 0x00])
        #expect(ImageSize.of(lossy, as: .webp) == ImageSize(width: 64, height: 48))
        // Lossless: 14 bits of width - 1 (99), then 14 of height - 1 (49).
        let bits = 99 | 49 << 14
        let lossless = Self.webp("VP8L", [0x2F] + (0..<4).map { UInt8(truncatingIfNeeded: bits >> ($0 * 8)) })
        #expect(ImageSize.of(lossless, as: .webp) == ImageSize(width: 100, height: 50))
        let extended = Self.webp("VP8X", [0, 0, 0, 0, 0x1F, 0x03, 0x00, 0x0F, 0x00, 0x00])
        #expect(ImageSize.of(extended, as: .webp) == ImageSize(width: 800, height: 16))
    }

    @Test func firstBytesAloneAreNoImage() {
        #expect(ImageMediaType.sniff(Array("GIF89a".utf8)) == .gif)  // what the first bytes say
        #expect(ImageSize.of(Array("GIF89a".utf8), as: .gif) == nil)  // and why that is not enough
        #expect(ImageSize.of(Array(Self.gif.prefix(12)), as: .gif) == nil)
        #expect(ImageSize.of(Array("GIF89a".utf8) + [0, 0, 0, 0, 0, 0, 0], as: .gif) == nil)  // 0×0
        #expect(ImageSize.of(Array(Self.png.prefix(8)), as: .png) == nil)
        #expect(ImageSize.of(Array(Self.png.prefix(24)), as: .png) == nil)
        var notIHDR = Self.png
        notIHDR[12] = UInt8(ascii: "X")
        #expect(ImageSize.of(notIHDR, as: .png) == nil)
        #expect(ImageSize.of([0xFF, 0xD8, 0xFF, 0xE0], as: .jpeg) == nil)
        #expect(ImageSize.of(Array(Self.jpeg.prefix(Self.jpeg.count - 3)), as: .jpeg) == nil)  // SOF cut short
        #expect(ImageSize.of([0xFF, 0xD8, 0xFF, 0xD9], as: .jpeg) == nil)  // SOI then EOI
        #expect(ImageSize.of(Self.webp("VP8 ", []), as: .webp) == nil)
        #expect(ImageSize.of(Self.webp("ABCD", Array(repeating: 1, count: 20)), as: .webp) == nil)
        #expect(ImageSize.of(Array("RIFF\0\0\0\0WEBP".utf8), as: .webp) == nil)
    }

    @Test func aFileThatOnlyStartsLikeAnImageIsRefusedNamingIt() throws {
        let path = NSTemporaryDirectory() + "ps-attach-" + UUID().uuidString + ".png"
        try Data("GIF89a".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ToolError.self) { try Attachment.load(path) }
        do {
            _ = try Attachment.load(path)
        } catch let error as ToolError {
            #expect(error.status == .usage)
            #expect(error.message.contains(path) && error.message.contains("starts like a GIF image but is not one"))
        }
    }
}

import Foundation
import Testing
@testable import PSCore

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

// The CAVP-style parser on excerpts laid out as NIST, RFC and pyca files lay them out.

import Foundation
import Testing
import VectorFormats

@Suite struct CAVPFileTests {
    @Test func sectionsBlocksAndIntermediatesWithCRLF() throws {
        let text = """
            # CAVS 11.1\r
            # AESVS GFSbox test data for CBC\r
            \r
            [ENCRYPT]\r
            \r
            COUNT = 0\r
            KEY = 00\r
            IV = 11\r
            \r
            COUNT = 1\r
            KEY = 22\r
            \tK1 = 99\r
            \r
            [DECRYPT]\r
            \r
            COUNT = 0\r
            KEY = 33\r
            SharedInfo = \r
            """
        let file = CAVPFile(text: text)
        #expect(file.headerComments == ["CAVS 11.1", "AESVS GFSbox test data for CBC"])
        #expect(file.blocks.count == 3)
        #expect(file.blocks[0].inSection("ENCRYPT") && !file.blocks[0].inSection("DECRYPT"))
        #expect(try file.blocks[1].bytes("KEY") == [0x22])
        #expect(file.blocks[1].intermediates.first?.name == "K1")
        #expect(file.blocks[2].inSection("DECRYPT") && !file.blocks[2].inSection("ENCRYPT"))
        #expect(file.blocks[2]["SharedInfo"] == "")
        #expect(try file.blocks[2].bytes("SharedInfo") == [])
        #expect(file.blocks[0].line == 6)
    }

    @Test func consecutiveBracketLinesFormOneSection() {
        let file = CAVPFile(text: "[SHA-256]\n[shared secret length = 192]\n\nCOUNT = 0\nZ = 00\n\n[SHA-1]\n\nCOUNT = 0\nZ = 01\n")
        #expect(file.blocks[0].section.map(\.name) == ["SHA-256", "shared secret length"])
        #expect(file.blocks[0].sectionValue("shared secret length") == "192")
        #expect(file.blocks[1].section.map(\.name) == ["SHA-1"])
    }

    @Test func commentsInsideABlockDoNotSplitIt() {
        let file = CAVPFile(text: "Len = 224\n# \"Jefe\"\nKey = 4a656665\nMD = 00\n")
        #expect(file.blocks.count == 1)
        #expect(file.blocks[0].fields.map(\.name) == ["Len", "Key", "MD"])
    }

    @Test func badFieldsAreTypedErrors() {
        let file = CAVPFile(text: "KEY = 0g\nLen = x\n")
        #expect(throws: VectorFormatError.badHex("KEY")) { try file.blocks[0].bytes("KEY") }
        #expect(throws: VectorFormatError.missingField("Len")) { try file.blocks[0].integer("Len") }
        #expect(throws: VectorFormatError.missingField("MD")) { try file.blocks[0].bytes("MD") }
    }

    @Test func sp80038aExamplesParseFromTheToolkitLayout() throws {
        let text = """
            Block Cipher Modes of Operation
            Counter (CTR)
            Initial Counter is
            F0F1F2F3 F4F5F6F7 F8F9FAFB FCFDFEFF
            ##############################################################
            CTR-AES192 (Decryption)
            --------------------------------------------------------------
            Key is
            8E73B0F7 DA0E6452 C810F32B 809079E5
            62F8EAD2 522C6B7B
            Block #1
            InputBlock F0F1F2F3 F4F5F6F7 F8F9FAFB FCFDFEFF
            Text-In 1ABC9324 17521CA2 4F2B0459 FE7E6E0B
            Text-Out 6BC1BEE2 2E409F96 E93D7E11 7393172A
            """
        let examples = try #require(try SP80038AExamples(text: text))
        let example = try #require(examples.examples.first)
        #expect(example.mode == "CTR" && example.keyBits == 192 && !example.encrypt)
        #expect(example.key.count == 24 && example.iv.first == 0xF0 && example.input.first == 0x1A && example.output.first == 0x6B)
        #expect(try SP80038AExamples(text: "hello") == nil)
        #expect(throws: VectorFormatError.self) {
            _ = try SP80038AExamples(text: "Block Cipher Modes of Operation\nIV is\n00\nCBC-AES128 (Encryption)\nKey is\n00\n")
        }
    }
}

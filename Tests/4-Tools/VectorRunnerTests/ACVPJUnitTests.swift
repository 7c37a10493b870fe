// `mfa vectors --junit`: the XML parses back, has the JUnit structure, its counts agree with
// its testcases, and every text is escaped.

import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TestSupport
import VectorRunner

/// The elements of a JUnit document, collected by a SAX parse.
final class JUnitCollector: NSObject, XMLParserDelegate {
    struct Suite {
        var attributes: [String: String]
        var cases: [(name: String, outcome: String?, message: String?)] = []
    }
    var root: String?
    var suites: [Suite] = []

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        switch name {
        case "testsuites" where root == nil: root = name
        case "testsuite": suites.append(Suite(attributes: attributes))
        case "testcase": suites[suites.count - 1].cases.append((attributes["name"] ?? "", nil, nil))
        case "failure", "skipped":
            let last = suites[suites.count - 1].cases.count - 1
            suites[suites.count - 1].cases[last].outcome = name
            suites[suites.count - 1].cases[last].message = attributes["message"]
        default:
            if root == nil { root = name }
        }
    }

    static func parse(_ text: String) -> JUnitCollector? {
        let collector = JUnitCollector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }
}

@Suite struct ACVPJUnitTests {
    @Test func theReportHasTheJUnitStructureAndMatchingCounts() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        let wrong = String(ACVPScratch.abc.dropLast()) + "E"
        let (prompt, expected) = ACVPScratch.shaPair(answers: [#","md":"\#(ACVPScratch.abc)""#, #","md":"\#(wrong)""#])
        try scratch.write("sha/prompt.json", prompt)
        try scratch.write("sha/expectedResults.json", expected)
        // Markup and a control character in the algorithm name reach a skip message.
        try scratch.write("odd.json", #"{"algorithm":"X<&\"'>\u0001","revision":"1.0","testGroups":[{"tgId":1,"tests":[{"tcId":1}]}]}"#)
        try scratch.write("broken.json", #"{"algorithm":"SHA2-256","revision":"1.0","testGroups":[{"tests":[]}]}"#)
        try scratch.write("notes.rsp", "nothing = here\n")
        let report = VectorRunner.run(roots: [scratch.url.path])
        let xml = report.junitXML()
        let document = try #require(JUnitCollector.parse(xml), "the XML does not parse:\n\(xml)")
        #expect(document.root == "testsuites")
        #expect(document.suites.count == report.files.count)
        for suite in document.suites {
            let tests = try #require(suite.attributes["tests"].flatMap(Int.init))
            let failures = try #require(suite.attributes["failures"].flatMap(Int.init))
            let skipped = try #require(suite.attributes["skipped"].flatMap(Int.init))
            #expect(suite.attributes["name"] != nil)
            #expect(tests == suite.cases.count)
            #expect(failures == suite.cases.filter { $0.outcome == "failure" }.count)
            #expect(skipped == suite.cases.filter { $0.outcome == "skipped" }.count)
        }
        let sha = try #require(document.suites.first { $0.attributes["name"]?.hasSuffix("/sha") == true })
        #expect(sha.cases.map(\.name) == ["#1", "#2"])
        #expect(sha.cases[1].message?.hasPrefix("tgId 1 AFT: expected ba7816bf") == true)
        let odd = try #require(document.suites.first { $0.attributes["name"]?.hasSuffix("odd.json") == true })
        #expect(odd.cases.first?.message == "ACVP X<&\"'>\u{FFFD} 1.0 is not supported by this runner")
        let broken = try #require(document.suites.first { $0.attributes["name"]?.hasSuffix("broken.json") == true })
        #expect(broken.cases.first?.name == "(file)" && broken.cases.first?.message == "missing field tgId (prompt)")
    }

    @Test func escapingCoversMarkupAndForbiddenCharacters() throws {
        let scratch = try ACVPScratch()
        defer { scratch.remove() }
        try scratch.write("a&b<c>.json", #"{"algorithm":"Q","revision":"1\n2","testGroups":[{"tgId":1,"tests":[{"tcId":1}]}]}"#)
        let xml = VectorRunner.run(roots: [scratch.url.path]).junitXML()
        #expect(xml.contains("a&amp;b&lt;c&gt;.json"))
        #expect(xml.contains("1&#10;2 is not supported"))
        #expect(JUnitCollector.parse(xml)?.suites.first?.cases.first?.message == "ACVP Q 1\n2 is not supported by this runner")
    }
}

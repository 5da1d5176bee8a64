// SPDX-License-Identifier: MIT
import CliptabCore
import Quoting
import Testing

/// Error messages quote a short prefix of a caller's text and say how long the rest was.
struct QuotationTests {
    @Test func shortTextIsQuotedWhole() {
        #expect(Quotation.quoted("abc") == "\"abc\"")
        #expect(
            Quotation.quoted(String(repeating: "é", count: 64)) == "\"\(String(repeating: "é", count: 64))\"")
    }

    @Test func longTextIsCutAtScalarsAndCountsTheRestInBytes() {
        let text = String(repeating: "é", count: 100)
        let quoted = Quotation.quoted(text)
        #expect(quoted == "\"\(String(repeating: "é", count: 64))…\" (and 72 bytes more)")
        let huge = String(repeating: "x", count: 10_000_000)
        #expect(Quotation.quoted(huge).utf8.count < 120)
        #expect(Quotation.quoted(huge[...], maxScalars: 3) == "\"xxx…\" (and 9999997 bytes more)")
    }

    @Test func refusalsOfTheServiceQuoteShortly() throws {
        let service = TableService(
            catalog: Catalog(), persistence: MemoryPersistence(), announce: { _, _ in })
        let huge = String(repeating: "x", count: 1 << 20)
        let messages = [
            Result { _ = try service.findRow(huge, rowName: "a") },
            Result { _ = try service.findSection(huge, header: "a") },
            Result { _ = try RowPredicate(operator: huge, operand: "") },
            Result { _ = try RowPredicate(operator: ">", operand: huge) },
        ].compactMap { result -> String? in
            if case .failure(let error as CliptabError) = result { return error.message }
            return nil
        }
        #expect(messages.count == 4)
        for message in messages { #expect(message.utf8.count < 200, "\(message.prefix(100))") }
    }
}

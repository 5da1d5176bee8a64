// SPDX-License-Identifier: MIT

import CliptabContract
import CliptabCore
import Testing

/// The model's words are the contract's: the CLI checks arguments against the contract's
/// lists without linking the model, so the two must never drift apart.
@Suite("Contract names")
struct ContractNamesTests {
    @Test("the model's operators, actions and formats are the contract's, in order")
    func modelWordsAreTheContracts() {
        #expect(RowPredicate.operators == ContractNames.operators)
        #expect(TableAction.allCases.map(\.rawValue) == ContractNames.actions)
        #expect(ExchangeFormat.allCases.map(\.rawValue) == ContractNames.formats)
    }
}

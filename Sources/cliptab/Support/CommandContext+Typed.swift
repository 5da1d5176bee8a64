// SPDX-License-Identifier: MIT
import CliptabClient

extension CommandContext {
    /// Runs `body` with the daemon's typed client (`CliptabClient+…` methods); its failure is
    /// thrown as the CLI says it.
    func typed<Answer>(_ body: (CliptabClient) throws(ClientFailure) -> Answer) throws -> Answer {
        let client = try daemon()
        do throws(ClientFailure) {
            return try body(client)
        } catch {
            throw CLIFailure(error)
        }
    }
}

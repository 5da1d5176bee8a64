// SPDX-License-Identifier: MIT
// cliptabd: reads its command line, then runs the daemon (`Daemon` in CliptabDaemon) and
// exits with its status. Nothing here opens the store, the bus or the display.
import CliptabDaemon
import Glibc

switch DaemonOptions.parse(Array(CommandLine.arguments.dropFirst())) {
case .failure(let problem):
    Log.line(problem.description, level: .error)
    exit(DaemonOptions.usageExitStatus)
case .success(let options):
    switch options.mode {
    case .help:
        print(DaemonOptions.usage, terminator: "")
    case .version:
        print("cliptabd \(CliptabInterface.version)")
    case .printIntrospection:
        print(CliptabInterface.introspectionXML, terminator: "")
    case .serve, .checkConfig:
        exit(Daemon(options: options).run())
    }
}

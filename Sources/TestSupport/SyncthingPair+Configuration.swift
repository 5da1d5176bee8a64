// SPDX-License-Identifier: MIT
import Foundation

/// The config.xml each instance of the pair starts with.
extension SyncthingPair {
    /// The whole config.xml of `side`.
    ///
    /// Every folder setting is written out: one left out of a folder element is zero, not
    /// Syncthing's default (a missing `maxConflicts` would turn conflict copies off).
    func configuration(of side: Side) -> String {
        let me = instance(side)
        let other = instance(side.other)
        func device(_ instance: Instance, name: Side, address: String) -> String {
            """
                <device id="\(instance.deviceID)" name="\(name)" compression="never" introducer="false" skipIntroductionRemovals="false" introducedBy="">
                    <address>\(address)</address>
                    <paused>false</paused>
                    <autoAcceptFolders>false</autoAcceptFolders>
                </device>
            """
        }
        let devices = [
            device(me, name: side, address: "dynamic"),
            device(other, name: side.other, address: "tcp://127.0.0.1:\(other.listenPort)"),
        ].joined(separator: "\n")
        return """
            <configuration version="36">
                <folder id="\(folderID)" label="\(folderID)" path="\(xmlEscaped(me.folderPath))" type="sendreceive" rescanIntervalS="3600" fsWatcherEnabled="\(watchesFolder)" fsWatcherDelayS="1" ignorePerms="false" autoNormalize="true">
                    <filesystemType>basic</filesystemType>
                    <device id="\(me.deviceID)" introducedBy=""></device>
                    <device id="\(other.deviceID)" introducedBy=""></device>
                    <minDiskFree unit="%">0</minDiskFree>
                    <versioning><cleanupIntervalS>3600</cleanupIntervalS><fsPath></fsPath><fsType>basic</fsType></versioning>
                    <copiers>0</copiers>
                    <pullerMaxPendingKiB>0</pullerMaxPendingKiB>
                    <hashers>0</hashers>
                    <order>random</order>
                    <ignoreDelete>false</ignoreDelete>
                    <scanProgressIntervalS>0</scanProgressIntervalS>
                    <pullerPauseS>0</pullerPauseS>
                    <maxConflicts>10</maxConflicts>
                    <disableSparseFiles>false</disableSparseFiles>
                    <disableTempIndexes>false</disableTempIndexes>
                    <paused>false</paused>
                    <weakHashThresholdPct>25</weakHashThresholdPct>
                    <markerName>.stfolder</markerName>
                    <copyOwnershipFromParent>false</copyOwnershipFromParent>
                    <modTimeWindowS>0</modTimeWindowS>
                    <maxConcurrentWrites>2</maxConcurrentWrites>
                    <disableFsync>false</disableFsync>
                    <blockPullOrder>standard</blockPullOrder>
                    <copyRangeMethod>standard</copyRangeMethod>
                    <caseSensitiveFS>false</caseSensitiveFS>
                    <junctionsAsDirs>false</junctionsAsDirs>
                </folder>
            \(devices)
                <gui enabled="true" tls="false" debugging="false">
                    <address>127.0.0.1:\(me.guiPort)</address>
                    <apikey>\(apiKey)</apikey>
                    <theme>default</theme>
                </gui>
                <options>
                    <listenAddress>tcp://127.0.0.1:\(me.listenPort)</listenAddress>
                    <globalAnnounceEnabled>false</globalAnnounceEnabled>
                    <localAnnounceEnabled>false</localAnnounceEnabled>
                    <relaysEnabled>false</relaysEnabled>
                    <natEnabled>false</natEnabled>
                    <stunKeepaliveStartS>0</stunKeepaliveStartS>
                    <urAccepted>-1</urAccepted>
                    <urSeen>3</urSeen>
                    <crashReportingEnabled>false</crashReportingEnabled>
                    <autoUpgradeIntervalH>0</autoUpgradeIntervalH>
                    <startBrowser>false</startBrowser>
                    <announceLANAddresses>false</announceLANAddresses>
                    <minHomeDiskFree unit="%">0</minHomeDiskFree>
                    <setLowPriority>false</setLowPriority>
                    <reconnectionIntervalS>5</reconnectionIntervalS>
                </options>
            </configuration>

            """
    }
}

/// `text` escaped for an XML attribute or element.
private func xmlEscaped(_ text: String) -> String {
    text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
}

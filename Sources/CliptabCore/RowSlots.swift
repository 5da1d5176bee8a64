// SPDX-License-Identifier: MIT

/// The rows' indexes while a plan's moves are made, one `PositionTree` per section.
///
/// Each section's slots are laid out once in its final order: between two staying rows,
/// first the rows that are there now and will leave, then the rows that will arrive, in
/// the document's order. A row that arrives is put in its slot, so it lands right before
/// the next staying row, after the rows arrived before it; once every row has moved, each
/// section holds its rows in the document's order. An index is the count of occupied slots
/// before a row's own: O(log n) per move.
struct RowSlots {
    private var trees: [PositionTree] = []
    /// Each table row's slot in its table section's tree (flat index).
    private var sourceSlot: [Int]
    /// Each moving row's slot in its document section's tree (flat index).
    private var targetSlot: [Int]
    /// The tree of each table section: its document section's, or its own if it goes.
    private var treeOfTableSection: [Int]

    init(plan: DocumentPlan) {
        let doc = plan.document.sections
        sourceSlot = [Int](repeating: 0, count: plan.rows.count)
        targetSlot = [Int](repeating: 0, count: plan.rows.count)
        treeOfTableSection = plan.tableSectionDoc.indices.map {
            plan.tableSectionDoc[$0] >= 0 ? plan.tableSectionDoc[$0] : doc.count + $0
        }
        // Whether each table row stays where it is.
        var stays = [Bool](repeating: false, count: plan.rows.count)
        for j in doc.indices {
            for (p, f) in plan.rowMatch[j].enumerated() where f >= 0 && plan.rowStays[j][p] {
                stays[f] = true
            }
        }
        for j in doc.indices {
            var present: [Bool] = []
            // The rows there now, with the number of staying rows before each.
            var here: [(f: Int, segment: Int)] = []
            let i = plan.sectionMatch[j]
            if i >= 0 {
                var staying = 0
                for f in plan.sectionStart[i]..<plan.sectionStart[i + 1] where plan.rowMatched[f] {
                    here.append((f, staying))
                    if stays[f] { staying += 1 }
                }
            }
            // The rows that arrive, with the number of staying rows before each.
            var arriving: [(f: Int, segment: Int)] = []
            var staying = 0
            for (p, f) in plan.rowMatch[j].enumerated() where f >= 0 {
                if plan.rowStays[j][p] { staying += 1 } else { arriving.append((f, staying)) }
            }
            var a = 0
            for entry in here {
                if stays[entry.f] {
                    // Before a staying row: the arrivals of the segment it closes.
                    while a < arriving.count && arriving[a].segment <= entry.segment {
                        targetSlot[arriving[a].f] = present.count
                        present.append(false)
                        a += 1
                    }
                }
                sourceSlot[entry.f] = present.count
                present.append(true)
            }
            while a < arriving.count {
                targetSlot[arriving[a].f] = present.count
                present.append(false)
                a += 1
            }
            trees.append(PositionTree(present: present))
        }
        for i in plan.table.sections.indices where plan.tableSectionDoc[i] < 0 {
            var present: [Bool] = []
            for f in plan.sectionStart[i]..<plan.sectionStart[i + 1] where plan.rowMatched[f] {
                sourceSlot[f] = present.count
                present.append(true)
            }
            while trees.count < doc.count + i { trees.append(PositionTree(present: [])) }
            trees.append(PositionTree(present: present))
        }
    }

    /// Moves the table row `f` from its section into document section `j`; its index
    /// before (in its section) and after (in `j`).
    mutating func move(_ f: Int, from tableSection: Int, to j: Int) -> (from: Int, to: Int) {
        let source = treeOfTableSection[tableSection]
        let from = trees[source].count(before: sourceSlot[f])
        trees[source].add(-1, at: sourceSlot[f])
        let to = trees[j].count(before: targetSlot[f])
        trees[j].add(1, at: targetSlot[f])
        return (from, to)
    }
}

// SPDX-License-Identifier: MIT

/// Emits the NFA program of a `RegexNode` tree.
struct RegexCompiler {
    var code: [RegexInstruction] = []

    // The number of instructions `emit` writes for `node`, saturated well above the cap so
    // that `(a{255}){255}` nested further cannot overflow.
    static func size(of node: RegexNode) -> Int {
        let ceiling = ExtendedRegex.maxProgramSize + 1
        switch node {
        case .empty: return 0
        case .scalar, .any, .set, .textStart, .textEnd: return 1
        case .concatenation(let nodes):
            return min(nodes.reduce(0) { min($0 + size(of: $1), ceiling) }, ceiling)
        case .alternation(let nodes):
            return min(nodes.reduce(2 * (nodes.count - 1)) { min($0 + size(of: $1), ceiling) }, ceiling)
        case .repetition(let body, let low, let high):
            let bodySize = size(of: body)
            let total: Int
            if let high {
                total = low * bodySize + (high - low) * (bodySize + 1)
            } else if low == 0 {
                total = bodySize + 2
            } else {
                total = low * bodySize + 1
            }
            return min(total, ceiling)
        }
    }

    mutating func emit(_ node: RegexNode) {
        switch node {
        case .empty: break
        case .scalar(let value): code.append(.scalar(value))
        case .any: code.append(.any)
        case .set(let index): code.append(.set(index))
        case .textStart: code.append(.textStart)
        case .textEnd: code.append(.textEnd)
        case .concatenation(let nodes):
            for child in nodes { emit(child) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for branch in branches.dropLast() {
                let split = code.count
                code.append(.split(split + 1, -1))
                emit(branch)
                jumps.append(code.count)
                code.append(.jump(-1))
                code[split] = .split(split + 1, code.count)
            }
            emit(branches[branches.count - 1])
            for jump in jumps { code[jump] = .jump(code.count) }
        case .repetition(let body, let low, let high):
            if let high {
                for _ in 0..<low { emit(body) }
                // `x{0,3}` as `(x(x(x)?)?)?`: every skip goes to the end.
                var splits: [Int] = []
                for _ in low..<high {
                    splits.append(code.count)
                    code.append(.split(code.count + 1, -1))
                    emit(body)
                }
                for split in splits { code[split] = .split(split + 1, code.count) }
            } else if low == 0 {
                let loop = code.count
                code.append(.split(loop + 1, -1))
                emit(body)
                code.append(.jump(loop))
                code[loop] = .split(loop + 1, code.count)
            } else {
                for _ in 0..<(low - 1) { emit(body) }
                let loop = code.count
                emit(body)
                code.append(.split(loop, code.count + 1))
            }
        }
    }
}

/// A directed graph of named parts (modules, or the folders of one module) where each arrow
/// carries the names that make it (the types one folder uses from another). Finds cycles of
/// any length (Tarjan's strongly connected components) and arrows that go up a declared
/// order, so the layering test can say exactly which arrow to remove.
struct DependencyGraph {
    /// `arrows[from][to]`: the names `from` uses from `to`.
    private(set) var arrows: [String: [String: Set<String>]] = [:]
    private(set) var nodes: Set<String> = []

    init() {}

    init(_ dependencies: [String: Set<String>]) {
        for (from, targets) in dependencies {
            add(node: from)
            for to in targets { add(from, to, because: []) }
        }
    }

    mutating func add(node: String) { nodes.insert(node) }

    mutating func add(_ from: String, _ to: String, because names: Set<String>) {
        nodes.formUnion([from, to])
        arrows[from, default: [:]][to, default: []].formUnion(names)
    }

    /// Arrows between any two of `group` (sibling folders that may not use each other), as
    /// `a → b (Types)`, sorted.
    func arrowsAmong(_ group: Set<String>) -> [String] {
        var found: [String] = []
        for from in group.sorted() {
            for (to, names) in arrows[from] ?? [:] where to != from && group.contains(to) {
                found.append("\(from) → \(to) (\(names.sorted().joined(separator: ", ")))")
            }
        }
        return found.sorted()
    }

    func uses(_ from: String, _ to: String) -> Set<String>? { arrows[from]?[to] }

    /// One cycle of each strongly connected component larger than a node (or a node with an
    /// arrow to itself), as the path `a → b → … → a`, starting at its smallest name.
    var cycles: [[String]] {
        components.compactMap(cycle(within:))
    }

    /// Strongly connected components (Tarjan, 1972), each sorted; only those that hold a cycle.
    var components: [Set<String>] {
        var index: [String: Int] = [:]
        var lowLink: [String: Int] = [:]
        var stack: [String] = []
        var onStack: Set<String> = []
        var next = 0
        var result: [Set<String>] = []
        func connect(_ node: String) {
            index[node] = next
            lowLink[node] = next
            next += 1
            stack.append(node)
            onStack.insert(node)
            for target in (arrows[node] ?? [:]).keys.sorted() {
                if index[target] == nil {
                    connect(target)
                    lowLink[node] = min(lowLink[node]!, lowLink[target]!)
                } else if onStack.contains(target) {
                    lowLink[node] = min(lowLink[node]!, index[target]!)
                }
            }
            guard lowLink[node] == index[node] else { return }
            var component: Set<String> = []
            while let top = stack.popLast() {
                onStack.remove(top)
                component.insert(top)
                if top == node { break }
            }
            if component.count > 1 || arrows[node]?[node] != nil { result.append(component) }
        }
        for node in nodes.sorted() where index[node] == nil { connect(node) }
        return result.sorted { $0.min()! < $1.min()! }
    }

    /// A shortest cycle through the component's smallest node (breadth-first inside it).
    private func cycle(within component: Set<String>) -> [String]? {
        guard let start = component.min() else { return nil }
        var previous: [String: String] = [:]
        var queue = [start]
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for target in (arrows[node] ?? [:]).keys.sorted() where component.contains(target) {
                if target == start {
                    var path = [node]
                    while let before = previous[path[0]] { path.insert(before, at: 0) }
                    return path + [start]
                }
                if previous[target] == nil && target != start {
                    previous[target] = node
                    queue.append(target)
                }
            }
        }
        return nil
    }

    /// A cycle with the names that make each of its arrows: "A → B (X, Y) → C (Z) → A (W)".
    func describe(cycle: [String]) -> String {
        guard let first = cycle.first else { return "" }
        var text = first
        for (from, to) in zip(cycle, cycle.dropFirst()) {
            let names = (uses(from, to) ?? []).sorted()
            text += " → \(to)" + (names.isEmpty ? "" : " (\(names.prefix(5).joined(separator: ", ")))")
        }
        return text
    }

    /// Arrows that point to a part declared above their source (or to an undeclared part):
    /// in a layering, every arrow goes down.
    func upwardArrows(order bottomUp: [String]) -> [String] {
        let rank = Dictionary(uniqueKeysWithValues: bottomUp.enumerated().map { ($1, $0) })
        var result: [String] = []
        for (from, targets) in arrows.sorted(by: { $0.key < $1.key }) {
            for (to, names) in targets.sorted(by: { $0.key < $1.key }) where from != to {
                guard let fromRank = rank[from], let toRank = rank[to], toRank < fromRank else {
                    result.append("\(from) → \(to) (\(names.sorted().prefix(5).joined(separator: ", "))) goes up the declared order")
                    continue
                }
            }
        }
        return result
    }
}

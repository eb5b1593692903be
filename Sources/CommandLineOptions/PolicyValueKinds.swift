import Core

extension ValueKind where Value == Policy {
    /// `--policy`: a built-in's name, fields inline, or a JSON file.
    static var policy: Self {
        ValueKind(placeholder: "<policy>", read: { name, text throws(UsageError) in
            try PolicyReader.read(text, option: name).policy
        }, show: \.shown)
    }
}

extension ValueKind where Value == [Policy] {
    /// Policies separated by `;` (inline policies hold commas), built-in names also by commas, in the order given.
    /// An empty list or item is a mistake, not a comparison of nothing. Names are unique: a derived one is numbered
    /// (`custom-2`), two given alike are refused.
    static var policyList: Self {
        ValueKind(placeholder: "<list>", read: { name, list throws(UsageError) in
            let items = pieces(of: list, at: ";")
            guard !items.contains("") else {
                throw UsageError("'\(name)' takes policies separated by ';' (built-in names also by ','), not '\(list)'")
            }
            var policies: [Policy] = []
            for item in items {
                var reads: [PolicyReader.Read] = []
                if PolicyReader.isFields(item) {
                    reads.append(try PolicyReader.read(item, option: name, list: true))
                } else {
                    for policyName in try commaSeparated(item, of: "policy names", for: name) {
                        reads.append(try PolicyReader.read(policyName, option: name, list: true))
                    }
                }
                for var read in reads {
                    let taken = Set(policies.map(\.name))
                    if taken.contains(read.policy.name) {
                        guard !read.named else {
                            throw UsageError("'\(name)': two policies are named '\(read.policy.name)'; name them apart with name=")
                        }
                        let base = read.policy.name
                        read.policy.name = (2...).lazy.map { "\(base)-\($0)" }.first { !taken.contains($0) }!
                    }
                    policies.append(read.policy)
                }
            }
            return policies
        }, show: { policies in
            policies.allSatisfy(\.isBuiltIn)
                ? policies.map(\.name).joined(separator: ",") : policies.map(\.shown).joined(separator: ";")
        })
    }
}

extension Policy {
    var isBuiltIn: Bool { Policy.named(name) == self }

    /// A built-in by its name, any other policy by its fields.
    var shown: String { isBuiltIn ? name : inlineForm }
}

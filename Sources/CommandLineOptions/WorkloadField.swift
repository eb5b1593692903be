import Scenario

/// A workload option bound to the field of `RunConfiguration` it sets, as a policy field is bound to `Policy`'s: its
/// default is that field of the base configuration, and a run's configuration takes the value given or the default.
public struct WorkloadField<Value: Sendable>: OptionHandle {
    let option: DefaultedOption<Value>
    let property: WritableKeyPath<RunConfiguration, Value> & Sendable

    public var entry: OptionEntry { option.entry }

    /// `fallback` stands in for the base configuration's value where a command has a default of its own.
    init(
        _ name: String, _ kind: ValueKind<Value>, _ property: WritableKeyPath<RunConfiguration, Value> & Sendable,
        default fallback: Value? = nil, note: String? = nil, help: String
    ) {
        option = DefaultedOption(
            name, kind, default: fallback ?? baseConfiguration[keyPath: property], note: note, help: help)
        self.property = property
    }
}

/// What every bound field of a command does to a run's configuration.
protocol WorkloadBinding: Sendable {
    func apply(_ arguments: ParsedOptions, to configuration: inout RunConfiguration)
}

extension WorkloadField: WorkloadBinding {
    func apply(_ arguments: ParsedOptions, to configuration: inout RunConfiguration) {
        configuration[keyPath: property] = arguments[option]
    }
}

extension ParsedOptions {
    public subscript<Value>(field: WorkloadField<Value>) -> Value { self[field.option] }
}

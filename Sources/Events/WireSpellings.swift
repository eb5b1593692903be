import WireProtocol

/// A closed set of the wire protocol, whose raw values are the protocol's bytes: the event log spells each member
/// by name, from this one table.
protocol WireSpelled: CaseIterable {
    var spelling: String { get }
}

extension Sandbox: WireSpelled {
    public var spelling: String {
        switch self {
        case .off: "off"
        case .installed: "installed"
        case .unavailable: "unavailable"
        }
    }
}

extension ResourceKind: WireSpelled {
    public var spelling: String {
        switch self {
        case .document: "document"
        case .image: "image"
        case .subframe: "subframe"
        }
    }
}

extension NavigationType: WireSpelled {
    /// As WebKit's `WKNavigationType` names it.
    public var spelling: String {
        switch self {
        case .linkActivated: "linkActivated"
        case .formSubmitted: "formSubmitted"
        case .backForward: "backForward"
        case .reload: "reload"
        case .formResubmitted: "formResubmitted"
        case .other: "other"
        }
    }
}

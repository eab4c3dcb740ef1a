#if compiler(>=6.2)
    /// A type whose metatype may cross concurrency domains (`SendableMetatype` on
    /// Swift 6.2 and later, no constraint on Swift 6.1). Strata's parse closures are
    /// `@Sendable` and call static members of the response type, so they need it; every
    /// type whose conformances are not isolated to a global actor satisfies it.
    public typealias StrataSendableMetatype = SendableMetatype
#else
    /// No constraint before Swift 6.2, which introduced `SendableMetatype`.
    public typealias StrataSendableMetatype = Any
#endif

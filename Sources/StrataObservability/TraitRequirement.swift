// StrataObservability is built only with the package trait Observability, which fetches its packages.
// Without the trait, this product says so instead of failing on a missing module.
#if !Observability
    #error(
        "StrataObservability needs the package trait Observability: add traits: [\"Observability\"] to the .package line of Strata (Strata's own build: --enable-all-traits)"
    )
#endif

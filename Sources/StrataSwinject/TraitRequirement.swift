// StrataSwinject is built only with the package trait Swinject, which fetches its packages.
// Without the trait, this product says so instead of failing on a missing module.
#if !Swinject
    #error(
        "StrataSwinject needs the package trait Swinject: add traits: [\"Swinject\"] to the .package line of Strata (Strata's own build: --enable-all-traits)"
    )
#endif

// StrataOpenAPI is built only with the package trait OpenAPI, which fetches its packages.
// Without the trait, this product says so instead of failing on a missing module.
#if !OpenAPI
    #error(
        "StrataOpenAPI needs the package trait OpenAPI: add traits: [\"OpenAPI\"] to the .package line of Strata (Strata's own build: --enable-all-traits)"
    )
#endif

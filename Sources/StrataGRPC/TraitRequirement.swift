// StrataGRPC is built only with the package trait GRPC, which fetches its packages.
// Without the trait, this product says so instead of failing on a missing module.
#if !GRPC
    #error(
        "StrataGRPC needs the package trait GRPC: add traits: [\"GRPC\"] to the .package line of Strata (Strata's own build: --enable-all-traits)"
    )
#endif

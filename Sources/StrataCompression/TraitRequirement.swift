// StrataCompression is built only with the package trait Compression, which fetches its
// packages (compress-nio, for zlib). Without the trait, this product says so instead of
// failing on a missing module.
#if !Compression
    #error(
        "StrataCompression needs the package trait Compression: add traits: [\"Compression\"] to the .package line of Strata (Strata's own build: --enable-all-traits)"
    )
#endif

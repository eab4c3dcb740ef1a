// StrataSQLiteCache is built only with the package trait SQLiteCache, which fetches its packages.
// Without the trait, this product says so instead of failing on a missing module.
#if !SQLiteCache
    #error(
        "StrataSQLiteCache needs the package trait SQLiteCache: add traits: [\"SQLiteCache\"] to the .package line of Strata (Strata's own build: --enable-all-traits)"
    )
#endif

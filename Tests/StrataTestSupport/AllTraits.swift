// Strata's tests cover every integration, so they are built with every package trait on.
// Without them, the test command stops here with the command to run instead.
#if !(GRPC && OpenAPI && SQLiteCache && Swinject && Observability && Compression)
    #error("Strata's tests cover every integration: swift test --enable-all-traits")
#endif

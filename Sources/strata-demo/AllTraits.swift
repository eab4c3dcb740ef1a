// The tour walks through gRPC, OpenAPI and telemetry too, so the demo is built with those
// package traits on. Without them, it stops here with the command to run instead.
#if !(GRPC && OpenAPI && Observability)
    #error("The demo tours Strata's integrations too: swift run --enable-all-traits strata-demo")
#endif

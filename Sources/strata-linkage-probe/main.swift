import Strata
import StrataAsyncHTTPClient

// A program shaped like a server that uses Strata: the core (caching included) and the
// AsyncHTTPClient transport, nothing else. scripts/check-linkage.sh checks what it links:
// no FoundationNetworking, no libcurl, no Swinject. It is built, never run in CI.
let middleware: [any Middleware] = [CacheMiddleware(store: MemoryCacheStore()), RetryMiddleware()]
print(
    "strata-linkage-probe:", String(describing: Networker.self), String(describing: AsyncHTTPClientTransport.self),
    middleware.count, "middleware")

// Strata's public API speaks swift-http-types: `HTTPField.Name` (`.userAgent`),
// `HTTPFields`, `HTTPRequest.Method` (`.post`), `HTTPResponse.Status` (`.noContent`).
// Re-exporting the module means `import Strata` is enough to name them, with no
// separate package dependency or import in the app.
@_exported import HTTPTypes

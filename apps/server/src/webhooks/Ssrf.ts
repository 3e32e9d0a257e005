/** The SSRF guard now lives in platform/Ssrf.ts, shared with OAuth's Client ID Metadata Documents. */
export * from "../platform/Ssrf.js"

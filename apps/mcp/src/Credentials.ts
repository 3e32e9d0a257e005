/**
 * Who is calling: a credential resolver turns request headers into the merchant key the SDK
 * uses. Today it reads `x-switch-key`; the sign-in based connection (OAuth per the MCP
 * authorization spec) becomes another resolver returning the key its token maps to, with no
 * change to the tools.
 */
import type { IncomingHttpHeaders } from "node:http"

export type Credential =
  | { readonly _tag: "Key"; readonly key: string }
  | { readonly _tag: "Missing"; readonly reason: string }

export type CredentialResolver = (headers: IncomingHttpHeaders) => Promise<Credential>

const KEY = /^[a-z0-9_-]{3,32}:sk_(test|live)_[0-9A-Za-z]{16,64}$/

/** The `x-switch-key` header, unchanged, exactly as the API takes it. */
export const switchKeyHeader: CredentialResolver = async (headers) => {
  const value = headers["x-switch-key"]
  const key = Array.isArray(value) ? value[0] : value
  if (key === undefined || key === "") {
    return {
      _tag: "Missing",
      reason: "Falta el encabezado x-switch-key (<comercio>:<api_key>). / Missing x-switch-key header."
    }
  }
  if (!KEY.test(key.trim())) {
    return {
      _tag: "Missing",
      reason: "x-switch-key mal formado: <comercio>:sk_test_... / Malformed x-switch-key."
    }
  }
  return { _tag: "Key", key: key.trim() }
}

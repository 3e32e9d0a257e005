/**
 * The MCP sign-in's scopes (issue 34, DESIGN §8). Which endpoint each scope opens is that
 * endpoint's grant (Permisos.ts, `alcance`): a token reaches only the endpoints whose grant names
 * one of its scopes, and none of them sends, refunds or withdraws money. Every other route
 * answers a token `403 insufficient_scope`.
 */

/** The scopes a merchant user may grant, in the order the consent screen shows them. */
export const SCOPES = [
  "links:read",
  "links:write",
  "transacciones:read",
  "liquidaciones:read",
  "bancos:read"
] as const

export type Scope = (typeof SCOPES)[number]

/** The scopes that only read: what a `lectura` user may grant. */
export const READ_SCOPES: ReadonlyArray<Scope> = SCOPES.filter((s) => s.endsWith(":read"))

/** Spanish words for each scope, as the consent screen and the grants list show them. */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  "links:read": "Ver tus links de cobro",
  "links:write": "Crear y cancelar links de cobro",
  "transacciones:read": "Consultar el estado de tus transacciones",
  "liquidaciones:read": "Ver tus liquidaciones",
  "bancos:read": "Ver la lista de bancos"
}

export const isScope = (value: string): value is Scope => (SCOPES as ReadonlyArray<string>).includes(value)

/** A `scope` parameter (space-separated) as a list of known scopes; undefined when one is unknown. */
export const parseScopes = (value: string): ReadonlyArray<Scope> | undefined => {
  const parts = value.split(" ").filter((part) => part !== "")
  if (!parts.every(isScope)) return undefined
  return SCOPES.filter((scope) => parts.includes(scope))
}

/** The header a bearer token travels in. */
export const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i

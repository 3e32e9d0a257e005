/**
 * What an OAuth access token reaches (issue 34, DESIGN §8): the MCP sign-in's scopes and, for
 * each route of the contract, the one scope that opens it. A token reaches only the routes
 * listed here, whatever its scopes; none of them sends, refunds or withdraws money. Every other
 * route answers a token `403 insufficient_scope`.
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

const ID = "[^/]+"
const ROUTES: ReadonlyArray<readonly [method: string, path: RegExp, scope: Scope]> = [
  ["GET", /^\/switch\/v1\/links$/, "links:read"],
  ["GET", new RegExp(`^/switch/v1/links/${ID}$`), "links:read"],
  ["POST", /^\/switch\/v1\/links$/, "links:write"],
  ["POST", new RegExp(`^/switch/v1/links/${ID}/cancelar$`), "links:write"],
  // Querying an operation's state: a read, though the direct API takes it as a POST.
  ["POST", /^\/switch\/v1\/consultar$/, "transacciones:read"],
  ["GET", /^\/switch\/v1\/transacciones$/, "transacciones:read"],
  ["GET", /^\/switch\/v1\/liquidaciones$/, "liquidaciones:read"]
]

/**
 * The scope a token needs for `method path` (the path without its query); undefined when no
 * token reaches the route at all.
 */
export const scopeFor = (method: string, path: string): Scope | undefined => {
  const upper = method.toUpperCase() === "HEAD" ? "GET" : method.toUpperCase()
  return ROUTES.find(([m, p]) => m === upper && p.test(path))?.[2]
}

/** Whether a token with `scopes` may call `method path`. */
export const tokenAllows = (scopes: ReadonlyArray<string>, method: string, path: string): boolean => {
  const needed = scopeFor(method, path)
  return needed !== undefined && scopes.includes(needed)
}

/** The header a bearer token travels in. */
export const BEARER = /^Bearer\s+([A-Za-z0-9._~+/-]+=*)\s*$/i

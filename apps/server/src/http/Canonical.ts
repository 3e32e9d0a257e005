/**
 * One spelling per route (issue 41, DESIGN §9). The router used to take many spellings of one
 * route: it ignored case, collapsed `//`, decoded `%6c` to `l`, cut the path at `;` and took
 * absolute-form targets (`POST http://host/switch/v1/llaves`). A rule about a path is only as good
 * as the agreement on what the path is, so a request whose target is not canonical is `404`
 * before routing or any handler sees it, and the router itself matches case and slashes exactly
 * (Http.ts). Access is checked on the endpoint routing matched (Auth.ts), so a spelling that
 * still routes (a trailing slash) gets the canonical route's answer.
 *
 * Canonical: origin-form (starts with one `/`); no empty segment (`//`); no `.` or `..` segment;
 * no `;`, `#` or `\`; every `%` starts a valid escape, and no escape stands for a character that
 * needs none (an unreserved one: letters, digits, `-`, `.`, `_`, `~`).
 */

/** Characters RFC 3986 calls unreserved: written as they are, never percent-encoded. */
const UNRESERVED = /^[A-Za-z0-9\-._~]$/
const HEX = /^[0-9A-Fa-f]{2}$/

/** Whether a request target (path and query, as `request.url` holds it) has its path in canonical form. */
export const isCanonical = (url: string): boolean => {
  const query = url.indexOf("?")
  const path = query === -1 ? url : url.slice(0, query)
  if (!path.startsWith("/")) return false
  if (/[;#\\]/.test(path)) return false
  const segments = path.split("/").slice(1)
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string
    // An empty segment is `//`, but for the root and a trailing slash.
    if (segment === "" && i < segments.length - 1) return false
    if (segment === "." || segment === "..") return false
  }
  for (let i = path.indexOf("%"); i !== -1; i = path.indexOf("%", i + 1)) {
    const hex = path.slice(i + 1, i + 3)
    if (!HEX.test(hex)) return false
    if (UNRESERVED.test(String.fromCharCode(Number.parseInt(hex, 16)))) return false
  }
  return true
}

/** The router's settings that match a path as written: case and slashes exact. */
export const ROUTER_CONFIG = { caseSensitive: true, ignoreDuplicateSlashes: false } as const

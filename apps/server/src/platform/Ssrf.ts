/**
 * Where a webhook (or an OAuth Client ID Metadata Document, oauth/) may point (DESIGN §7). A URL must be `https` on port 443 (or 80) and reach
 * only public unicast addresses. IP literals are checked here directly (WHATWG URL has already
 * turned `2130706433`, `0x7f.1` and `0177.0.0.1` into `127.0.0.1`); host names are checked at
 * creation and again at connect time by {@link guardedLookup}, so a name that later resolves
 * to an internal address (DNS rebinding) is refused before any byte is sent.
 */
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns"
import { isIP } from "node:net"

export type Refusal =
  | { readonly _tag: "Invalida"; readonly detail: string }
  | { readonly _tag: "Bloqueada"; readonly detail: string }

const v4ToInt = (address: string): number => address.split(".").reduce((n, part) => n * 256 + Number(part), 0)

const inV4 = (n: number, base: string, bits: number): boolean => {
  const size = 2 ** (32 - bits)
  const start = v4ToInt(base)
  return n >= start && n < start + size
}

/** IPv4 ranges that are not public unicast (RFC 6890 and friends). */
const BLOCKED_V4: ReadonlyArray<readonly [string, number]> = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // CGNAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4] // reserved, broadcast
]

const isPublicV4 = (address: string): boolean => {
  const n = v4ToInt(address)
  return !BLOCKED_V4.some(([base, bits]) => inV4(n, base, bits))
}

/** The eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail, if any). */
const v6Groups = (address: string): ReadonlyArray<number> => {
  let text = address.toLowerCase()
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted?.[1] !== undefined) {
    const n = v4ToInt(dotted[1])
    text = `${text.slice(0, -dotted[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const [head = "", tail] = text.split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0")
  return [...left, ...fill, ...right].map((g) => Number.parseInt(g, 16))
}

const v4FromGroups = (high: number, low: number): string =>
  [high >> 8, high & 0xff, low >> 8, low & 0xff].join(".")

const isPublicV6 = (address: string): boolean => {
  const g = v6Groups(address)
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-compatible (::a.b.c.d): judge the IPv4 inside.
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && (g5 === 0xffff || g5 === 0)) {
    if (g5 === 0 && g6 === 0) return false // ::, ::1 and the rest of ::/112
    return isPublicV4(v4FromGroups(g6, g7))
  }
  // Only global unicast (2000::/3) is public; ULA fc00::/7, link-local fe80::/10, multicast
  // ff00::/8, NAT64 64:ff9b::/96, discard 100::/64 and the rest of the space are not.
  if ((g0 & 0xe000) !== 0x2000) return false
  if (g0 === 0x2002) return false // 6to4: routes to an arbitrary (possibly internal) IPv4
  if (g0 === 0x2001 && g1 < 0x0200) return false // 2001::/23 IETF: Teredo, ORCHID, benchmarking
  if (g0 === 0x2001 && g1 === 0x0db8) return false // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false // documentation (3fff::/20)
  return true
}

/** Is this IP address (v4 or v6 text) a public unicast address? */
export const isPublicAddress = (address: string): boolean => {
  const bare = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  const family = isIP(bare)
  if (family === 4) return isPublicV4(bare)
  if (family === 6) return isPublicV6(bare)
  return false
}

export type Lookup = (hostname: string) => Promise<ReadonlyArray<string>>

/** The system resolver (getaddrinfo, as connections use it), every address of the name. */
export const systemLookup: Lookup = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address))
    )
  )

const blocked = (detail: string): Refusal => ({ _tag: "Bloqueada", detail })
const invalid = (detail: string): Refusal => ({ _tag: "Invalida", detail })

/** A DNS label: 1 to 63 letters, digits or hyphens, neither first nor last a hyphen. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/

/**
 * Whether a host that is not an IP literal is a well-formed DNS name (RFC 1123), as WHATWG URL
 * leaves it (lower case, punycode): labels as {@link LABEL}, none empty, at most 253 characters,
 * one trailing dot (the root) allowed. WHATWG URL accepts `vm..`, `.vm`, `a_b` or `a*b` as
 * hosts; none names a place a notice can go.
 */
export const isDnsName = (hostname: string): boolean => {
  const name = hostname.endsWith(".") ? hostname.slice(0, -1) : hostname
  return name.length > 0 && name.length <= 253 && name.split(".").every((label) => LABEL.test(label))
}

/**
 * The URL's shape: `https`, port 443 or 80, no credentials, a host that is an IP literal or a
 * well-formed DNS name; `allowPrivate` lifts scheme and port.
 */
export const checkShape = (raw: string, allowPrivate: boolean): URL | Refusal => {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return invalid("no es una URL válida")
  }
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:"))
    return invalid("debe usar https")
  if (url.username !== "" || url.password !== "") return invalid("no puede llevar usuario ni clave")
  if (!url.hostname.startsWith("[") && isIP(url.hostname) === 0 && !isDnsName(url.hostname))
    return invalid("el nombre del servidor no es válido")
  if (!allowPrivate && url.port !== "" && url.port !== "443" && url.port !== "80")
    return invalid("solo se admiten los puertos 443 y 80")
  return url
}

const hostOf = (url: URL): string =>
  url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname.replace(/\.$/, "")

/**
 * The full check at creation and edit: shape, IP literal, and every address the name
 * resolves to now. A name that does not resolve yet is accepted: each delivery resolves it
 * again and refuses internal answers.
 */
export const checkUrl = async (
  raw: string,
  options: { readonly allowPrivate: boolean; readonly lookup?: Lookup }
): Promise<Refusal | null> => {
  const url = checkShape(raw, options.allowPrivate)
  if (!(url instanceof URL)) return url
  if (options.allowPrivate) return null
  const host = hostOf(url)
  if (isIP(host) !== 0) return isPublicAddress(host) ? null : blocked("la dirección IP no es pública")
  if (host === "localhost" || host.endsWith(".localhost")) return blocked("apunta al propio servidor")
  let addresses: ReadonlyArray<string>
  try {
    addresses = await (options.lookup ?? systemLookup)(host)
  } catch {
    return null
  }
  return addresses.every(isPublicAddress) ? null : blocked(`${host} resuelve a una dirección interna`)
}

/** An IP-literal host at delivery time (the connect-time lookup is not called for those). */
export const literalRefusal = (url: URL): Refusal | null => {
  const host = hostOf(url)
  if (isIP(host) === 0) return null
  return isPublicAddress(host) ? null : blocked("la dirección IP no es pública")
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | ReadonlyArray<LookupAddress>,
  family?: number
) => void

/**
 * A `lookup` for sockets (undici's `connect.lookup`): resolves, refuses the connection if any
 * answer is internal, and answers in the form the caller asked for (`all` or one address).
 */
export const guardedLookup =
  (resolveAll: (hostname: string, callback: (e: Error | null, a: Array<LookupAddress>) => void) => void) =>
  (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolveAll(hostname, (error, addresses) => {
      if (error) return callback(error, "")
      const family = options.family === 4 || options.family === 6 ? options.family : 0
      const usable = addresses.filter((a) => family === 0 || a.family === family)
      const internal = usable.find((a) => !isPublicAddress(a.address))
      if (internal !== undefined || usable.length === 0) {
        const refused: NodeJS.ErrnoException = new Error(
          `destino_bloqueado: ${hostname} resuelve a una dirección interna`
        )
        refused.code = "EDESTINOBLOQUEADO"
        return callback(refused, "")
      }
      if (options.all) return callback(null, usable)
      const first = usable[0] as LookupAddress
      callback(null, first.address, first.family)
    })
  }

/** The system resolver in the shape {@link guardedLookup} takes. */
export const systemResolveAll = (
  hostname: string,
  callback: (e: Error | null, a: Array<LookupAddress>) => void
) => dnsLookup(hostname, { all: true }, (error, addresses) => callback(error, addresses ?? []))

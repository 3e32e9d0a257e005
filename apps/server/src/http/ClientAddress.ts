/**
 * The client's address behind trusted proxies. By default no proxy is trusted and the address is
 * the socket's, so an `X-Forwarded-For` header cannot move a client into another rate-limit
 * window. With SWITCH_PROXIES_CONFIABLES (addresses or CIDR ranges, comma-separated) a request
 * from a trusted peer is attributed to the right-most address of `X-Forwarded-For` that is not
 * itself a trusted proxy: the left part of that header is whatever the client chose to send.
 */
import { BlockList, isIP } from "node:net"
import { type HttpApp, HttpServerRequest } from "@effect/platform"
import { Effect, Option } from "effect"

/** IPv4 addresses as IPv6 sockets report them (`::ffff:10.0.0.1`) read as IPv4. */
const plain = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, "")

const family = (address: string): "ipv4" | "ipv6" | null => {
  const v = isIP(address)
  return v === 4 ? "ipv4" : v === 6 ? "ipv6" : null
}

/** The trusted proxies; null when none is trusted. */
export type TrustList = BlockList | null

/** The trusted peers from the setting's entries; none when the list is empty. Bad entries throw. */
export const trustList = (entries: ReadonlyArray<string>): TrustList => {
  if (entries.length === 0) return null
  const list = new BlockList()
  for (const entry of entries) {
    const [address = "", bits, ...rest] = entry.trim().split("/")
    const type = family(plain(address))
    const prefix = Number(bits)
    const prefixOk = bits === undefined || (/^\d{1,3}$/.test(bits) && prefix <= (type === "ipv4" ? 32 : 128))
    if (type === null || !prefixOk || rest.length > 0)
      throw new Error(`SWITCH_PROXIES_CONFIABLES: "${entry}" is not an address or range`)
    if (bits === undefined) list.addAddress(plain(address), type)
    else list.addSubnet(plain(address), prefix, type)
  }
  return list
}

const trusts = (list: BlockList, address: string) => {
  const type = family(address)
  return type !== null && list.check(address, type)
}

/** A forwarded hop as an address: `1.2.3.4`, `1.2.3.4:5678`, `[2001:db8::1]:443` or bare IPv6. */
const hopAddress = (hop: string): string | null => {
  const text = hop.trim()
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(text)?.[1]
  const withPort = /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(text)?.[1]
  const address = plain(bracketed ?? withPort ?? text)
  return family(address) === null ? null : address
}

/**
 * The client's address for a request from `peer` carrying `forwardedFor`: walking the hops from
 * the right, the first one that is not a trusted proxy. A hop that is not an address stops the
 * walk at the last trusted one, so a malformed header can never make a forged hop the client.
 */
export const resolveClient = (peer: string, forwardedFor: string | undefined, trusted: BlockList): string => {
  let client = plain(peer)
  if (!trusts(trusted, client) || forwardedFor === undefined) return client
  const hops = forwardedFor.split(",")
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hopAddress(hops[i] ?? "")
    if (hop === null) return client
    client = hop
    if (!trusts(trusted, hop)) return hop
  }
  return client
}

/**
 * The client's address of a request from `peer` (none when the socket has none) carrying
 * `forwardedFor`: the peer itself unless it is a trusted proxy. Every route reads it so: the
 * HttpApi app through {@link behindProxies}, the lanes (Edge.ts) directly.
 */
export const clientAddress = (
  trusted: TrustList,
  peer: Option.Option<string>,
  forwardedFor: string | undefined
): Option.Option<string> =>
  trusted === null ? peer : Option.map(peer, (address) => resolveClient(address, forwardedFor, trusted))

/** Gives handlers the client's address instead of a trusted proxy's. */
export const behindProxies =
  (trusted: TrustList) =>
  <E, R>(app: HttpApp.Default<E, R>): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
    trusted === null
      ? app
      : Effect.updateService(app, HttpServerRequest.HttpServerRequest, (request) =>
          Option.match(clientAddress(trusted, request.remoteAddress, request.headers["x-forwarded-for"]), {
            onNone: () => request,
            onSome: (remoteAddress) => request.modify({ remoteAddress })
          })
        )
